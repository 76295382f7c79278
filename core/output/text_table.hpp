#pragma once
// Plain-text tables with aligned columns, for terminal output.

#include <set>
#include <string>
#include <vector>

namespace sqlmorph::core {

class text_table {
 public:
  void set_header(std::vector<std::string> header) { header_ = std::move(header); }
  /// Columns (0-based) whose cells are right-aligned (numbers).
  void align_right(std::set<std::size_t> columns) { right_ = std::move(columns); }
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::set<std::size_t> right_;
};

}  // namespace sqlmorph::core
