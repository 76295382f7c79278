#pragma once
// Parsing JSON read from input files (cases lines, BIRD files, Spider questions): every problem —
// bad syntax, a number out of range (1e999), nesting without end — becomes a usage_error naming the
// file and line, never another exception. Keys given twice in one object keep the last value (as
// Python's json does) and are reported in a warning naming them.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

/// Objects and arrays nested deeper than this are refused.
inline constexpr std::size_t max_json_depth = 512;

/// Parses `text`, which starts on line `first_line` of `file` (messages say "FILE:LINE: invalid
/// JSON: ..."). Throws usage_error.
nlohmann::json parse_input_json(std::string_view text, const std::string& file, std::size_t first_line = 1);

/// Whether `text` starts (after blanks) as a JSON object or array does: to recognise a JSON file
/// given where a line-oriented one (Spider's) is expected, and the reverse.
bool looks_like_json(std::string_view text);

}  // namespace sqlmorph::core
