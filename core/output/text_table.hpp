#pragma once
// Plain-text tables with aligned columns, for terminal output. Every cell is printed through
// terminal_text() (control characters escaped), cut to the table's widest cell when it has one.

#include <set>
#include <string>
#include <vector>

namespace sqlmorph::core {

class text_table {
 public:
  void set_header(std::vector<std::string> header) { header_ = std::move(header); }
  /// Columns (0-based) whose cells are right-aligned (numbers).
  void align_right(std::set<std::size_t> columns) { right_ = std::move(columns); }
  /// Cells (and column names) longer than `chars` characters are cut there, with a marker saying
  /// how much was left out (terminal_text()); no limit by default.
  void max_cell_width(std::size_t chars) { max_chars_ = chars; }
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::set<std::size_t> right_;
  std::size_t max_chars_ = std::string::npos;
};

}  // namespace sqlmorph::core
