#include "scorers.hpp"

#include <stdexcept>

namespace sqlmorph::reference {

std::optional<scores> sqlmorph_cells_scorer::do_decide_early_(const match_input& in) const {
  if (!rows_set_equal(in.gold, in.pred)) return std::nullopt;
  scores s;
  s.ex = s.exp = s.exr = s.f1 = 1.0;
  return s;
}

scores sqlmorph_cells_scorer::do_score_(const match_input&, const column_alignment& columns,
                                        const row_match& rows) const {
  scores s;
  s.ex = 0.0;  // EX = 1 was decided early
  if (columns.how == column_alignment::mode::paired && columns.pairs.empty()) {
    s.exp = s.exr = s.f1 = 0.0;
    return s;
  }
  const cell_counts& c = rows.counts;
  precision_recall_f1(c.matched, c.gold_cells, penalize_ ? c.pred_cells : c.pred_cells_aligned, s);
  return s;
}

scores verdict_scorer::do_score_(const match_input&, const column_alignment&, const row_match& rows) const {
  if (!rows.equivalent)
    throw std::logic_error("the 'verdict' scorer needs a row matcher that decides equivalence");
  scores s;
  s.ex = *rows.equivalent ? 1.0 : 0.0;
  s.extra = rows.extra;
  return s;
}

}  // namespace sqlmorph::reference
