#pragma once
// A small RFC 4180 CSV reader: comma-separated fields, double-quoted fields may hold commas,
// newlines and doubled quotes. Bytes are kept as they are.

#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph::core {

struct csv_row {
  std::vector<std::string> fields;
  /// 1-based line on which the row starts.
  std::size_t line = 0;
};

/// Parses CSV text. Throws usage_error("NAME:LINE: ...") for broken quoting: a quoted field never
/// closed, or text after a field's closing quote (a quote that was not doubled). A quote inside an
/// unquoted field is kept as it is (as Python's csv module reads it).
std::vector<csv_row> parse_csv(std::string_view text, const std::string& name);

}  // namespace sqlmorph::core
