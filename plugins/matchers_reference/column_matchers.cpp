#include "column_matchers.hpp"

#include <algorithm>
#include <map>

namespace sqlmorph::reference {

column_alignment positional_columns::do_align_(const match_input& in) const {
  column_alignment out;
  const std::size_t n = std::min(in.gold.column_count(), in.pred.column_count());
  for (std::size_t i = 0; i < n; ++i) out.pairs.push_back({i, i, 1.0});
  return out;
}

column_alignment exact_name_columns::do_align_(const match_input& in) const {
  // std::string orders bytes as unsigned values, which for UTF-8 is code point order.
  std::map<std::string, std::size_t> gold_last;
  std::map<std::string, std::size_t> pred_last;
  for (std::size_t i = 0; i < in.gold.column_count(); ++i) gold_last[in.gold.column_names()[i]] = i;
  for (std::size_t i = 0; i < in.pred.column_count(); ++i) pred_last[in.pred.column_names()[i]] = i;
  column_alignment out;
  for (const auto& [name, g] : gold_last) {
    if (auto it = pred_last.find(name); it != pred_last.end()) out.pairs.push_back({g, it->second, 1.0});
  }
  return out;
}

}  // namespace sqlmorph::reference
