#pragma once
// Reading text files as lines of bytes (no decoding: invalid UTF-8 stays as it is).

#include <filesystem>
#include <string>
#include <vector>

namespace sqlmorph::core {

/// The lines of a file without their terminators ("\n" or "\r\n"); a final newline does not
/// start an extra empty line. Throws usage_error when the file cannot be read.
std::vector<std::string> read_lines(const std::filesystem::path& file);

/// The whole file. Throws usage_error when it cannot be read.
std::string read_file(const std::filesystem::path& file);

/// `text` without leading and trailing ASCII whitespace.
std::string trim(std::string_view text);

}  // namespace sqlmorph::core
