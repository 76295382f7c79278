#include "output/text_table.hpp"

#include <algorithm>

#include "output/terminal_text.hpp"

namespace sqlmorph::core {
namespace {
// Display width: counts UTF-8 code points, not bytes.
std::size_t width_of(const std::string& s) {
  std::size_t w = 0;
  for (const char c : s) w += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return w;
}
}  // namespace

std::string text_table::render() const {
  const auto shown = [&](const std::vector<std::string>& row) {
    std::vector<std::string> out;
    out.reserve(row.size());
    for (const std::string& cell : row) out.push_back(terminal_text(cell, max_chars_));
    return out;
  };
  const std::vector<std::string> header = shown(header_);
  std::vector<std::vector<std::string>> rows;
  rows.reserve(rows_.size());
  for (const auto& row : rows_) rows.push_back(shown(row));
  std::vector<std::size_t> width(header.size(), 0);
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = width_of(header[c]);
  for (const auto& row : rows) {
    if (row.size() > width.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], width_of(row[c]));
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::size_t pad = width[c] - width_of(row[c]);
      const bool last = c + 1 == row.size();
      if (right_.count(c))
        line += std::string(pad, ' ') + row[c];
      else
        line += row[c] + (last ? "" : std::string(pad, ' '));
      if (!last) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  if (!header.empty()) {
    emit(header);
    std::vector<std::string> rule;
    for (std::size_t c = 0; c < header.size(); ++c) rule.push_back(std::string(width[c], '-'));
    emit(rule);
  }
  for (const auto& row : rows) emit(row);
  return out;
}

}  // namespace sqlmorph::core
