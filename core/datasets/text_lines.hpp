#pragma once
// Reading input files (benchmarks, cases, predictions, questions, scripts) within bounds: every
// reader of the project goes through here, so that no input — /dev/zero, an endless pipe, a line
// of a gigabyte — can make sqlmorph read without end or run out of memory. Bytes are not decoded
// (invalid UTF-8 stays as it is).
//
//  - A line (of a line-oriented format) longer than `max_line_bytes` stops the reading with
//    "FILE:LINE: line longer than N bytes".
//  - A file longer than `max_file_bytes` stops it with "FILE: larger than N bytes ...".
//  - Whole-file reads (JSON documents, scripts) take regular files only; line-by-line reads also
//    take pipes (e.g. `--cases <(zcat cases.jsonl.gz)`). Directories, devices and sockets are refused.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph::core {

/// The bounds of input reading (docs/configuration.md, "Input limits").
struct input_limits {
  std::uint64_t max_line_bytes = std::uint64_t{16} << 20;  // 16 MiB
  std::uint64_t max_file_bytes = std::uint64_t{2} << 30;   // 2 GiB
};

/// Reads a file (or a text in memory) line by line, within `input_limits`. Lines are returned
/// without their terminator ("\n" or "\r\n"); a final newline does not start an extra empty line.
/// Throws usage_error naming the file (and line) when the file cannot be read or a bound is crossed.
class line_reader {
 public:
  explicit line_reader(const std::filesystem::path& file, input_limits limits = {});
  /// Lines of `text`, named `name` in messages (for parsing texts that are not files).
  static line_reader from_text(std::string_view text, std::string name, input_limits limits = {});
  ~line_reader();
  line_reader(line_reader&& other) noexcept;
  line_reader& operator=(line_reader&&) = delete;
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  /// The next line without its terminator; false at the end of the file.
  bool next(std::string& line);
  /// The next line with its terminator, byte for byte (the last line may have none).
  bool next_raw(std::string& line);

  /// 1-based number of the line last returned (0 before the first).
  std::size_t line_number() const noexcept { return line_number_; }
  /// The file's name as messages give it.
  const std::string& name() const noexcept { return name_; }
  /// "NAME:LINE" of the line last returned.
  std::string where() const { return name_ + ":" + std::to_string(line_number_); }

 private:
  line_reader(std::string name, input_limits limits);
  /// Reads more bytes into the buffer; false at the end of the file.
  bool fill_();

  std::string name_;
  input_limits limits_;
  int fd_ = -1;
  bool end_ = false;
  std::string buffer_;
  std::size_t start_ = 0;  // where the next line starts in buffer_
  std::uint64_t total_ = 0;
  std::size_t line_number_ = 0;
};

/// Every line of a file (see line_reader).
std::vector<std::string> read_lines(const std::filesystem::path& file, input_limits limits = {});

/// The whole file, which must be a regular file no larger than `limits.max_file_bytes` (lines are
/// not bounded: a JSON document may be one long line). Throws usage_error naming the file.
std::string read_file(const std::filesystem::path& file, input_limits limits = {});

/// `text` without leading and trailing ASCII whitespace.
std::string trim(std::string_view text);

}  // namespace sqlmorph::core
