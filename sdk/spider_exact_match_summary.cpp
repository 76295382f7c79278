// The aggregation of the official `evaluate` loop (`--etype match`): sums per difficulty level,
// then its averages and its f1 of averages.

#include <algorithm>
#include <string_view>

#include "sqlmorph/spider_exact_match.hpp"

namespace sqlmorph::spider {

namespace {

std::size_t level_index(std::string_view name) {
  const auto it = std::find(exact_match_levels.begin(), exact_match_levels.end(), name);
  return static_cast<std::size_t>(it - exact_match_levels.begin());
}

void add_to(exact_match_level& level, const exact_match_scores& s) {
  ++level.count;
  level.exact += s.exact ? 1 : 0;
  for (std::size_t i = 0; i < partial_clauses.size(); ++i) {
    const partial_score& p = s.partial[i];
    exact_match_level::clause& c = level.partial[i];
    if (p.pred_total > 0) {
      c.acc += p.acc;
      ++c.acc_count;
    }
    if (p.label_total > 0) {
      c.rec += p.rec;
      ++c.rec_count;
    }
  }
}

}  // namespace

void exact_match_summary::add(std::string_view hardness, const exact_match_scores& scores) {
  const std::size_t i = level_index(hardness);
  const std::size_t all = level_index("all");
  if (i < all) add_to(sums_[i], scores);
  add_to(sums_[all], scores);
}

exact_match_level exact_match_summary::level(std::string_view name) const {
  const std::size_t i = level_index(name);
  if (i >= sums_.size()) return {};
  exact_match_level out = sums_[i];
  if (out.count == 0) return out;
  out.exact /= static_cast<double>(out.count);
  for (exact_match_level::clause& c : out.partial) {
    c.acc = c.acc_count == 0 ? 0 : c.acc / static_cast<double>(c.acc_count);
    c.rec = c.rec_count == 0 ? 0 : c.rec / static_cast<double>(c.rec_count);
    c.f1 = c.acc == 0 && c.rec == 0 ? 1 : 2.0 * c.acc * c.rec / (c.rec + c.acc);
  }
  return out;
}

}  // namespace sqlmorph::spider
