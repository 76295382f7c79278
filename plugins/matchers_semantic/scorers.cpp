#include "scorers.hpp"

#include <stdexcept>

#include "semantic_rows.hpp"

namespace sqlmorph::semantic {
namespace {

std::optional<scores> all_one_if_row_sets_equal(const match_input& in) {
  if (!rows_set_equal(in.gold, in.pred)) return std::nullopt;
  scores s;
  s.ex = s.exp = s.exr = s.f1 = 1.0;
  return s;
}

}  // namespace

std::optional<scores> semantic_cells_scorer::do_decide_early_(const match_input& in) const {
  return all_one_if_row_sets_equal(in);
}

scores semantic_cells_scorer::do_score_(const match_input&, const column_alignment&,
                                        const row_match& rows) const {
  scores s;
  const cell_counts& c = rows.counts;
  const double pred_cells = penalize_ ? c.pred_cells : c.pred_cells_aligned;
  precision_recall_f1(c.matched, c.gold_cells, pred_cells, s);
  s.ex = c.gold_cells == 0 && pred_cells == 0 ? 1.0 : 0.0;
  return s;
}

std::optional<scores> row_similarity_scorer::do_decide_early_(const match_input& in) const {
  return all_one_if_row_sets_equal(in);
}

scores row_similarity_scorer::do_score_(const match_input& in, const column_alignment&,
                                        const row_match& rows) const {
  scores s;
  s.ex = 0.0;
  const std::size_t gold_n = in.gold.row_count();
  const std::size_t pred_n = in.pred.row_count();
  if (gold_n == 0 || pred_n == 0) {  // both empty was decided early
    s.exp = s.exr = s.f1 = 0.0;
    return s;
  }
  const double* sum = nullptr;
  for (const auto& [name, v] : rows.extra) {
    if (name == similarity_sum_field) sum = std::get_if<double>(&v);
    if (name == coverage_field) s.extra.emplace_back(name, v);
  }
  if (sum == nullptr)
    throw std::logic_error("the 'row_similarity' scorer needs the 'semantic_rows' row matcher");
  const double precision = *sum / static_cast<double>(pred_n);
  const double recall = *sum / static_cast<double>(gold_n);
  s.exp = precision;
  s.exr = recall;
  s.f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
  return s;
}

}  // namespace sqlmorph::semantic
