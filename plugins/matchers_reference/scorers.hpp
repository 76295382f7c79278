#pragma once
// Scorers of the reference techniques.

#include <sqlmorph/options.hpp>
#include <sqlmorph/scorer.hpp>

namespace sqlmorph::reference {

/// SQLMorph's metrics (TECHNIQUES.md §2): EX by set equality of whole rows (EX = 1 makes every
/// metric 1 and skips matching); otherwise EXP / EXR / F1 from the row matcher's cell counts, with
/// the predicted cells counted in full (`penalize_extra_pred_cols`) or only where aligned. When
/// columns were paired but none matched, EXP = EXR = F1 = 0.
class sqlmorph_cells_scorer final : public scorer {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit sqlmorph_cells_scorer(const option_values& o)
      : penalize_(o.get_bool("penalize_extra_pred_cols")) {}
  metric_set metrics() const noexcept override { return {true, true, true, true}; }

 protected:
  std::optional<scores> do_decide_early_(const match_input& in) const override;
  // The early decision (are the row sets equal?) does not depend on penalize_extra_pred_cols.
  std::string do_early_decision_key_() const override { return "rows_set_equal"; }
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;

 private:
  bool penalize_;
};

/// EX = the row matcher's equivalence verdict (1 or 0); no other metric. Extra fields of the row
/// matcher (e.g. `order_matters`) are passed through.
class verdict_scorer final : public scorer {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit verdict_scorer(const option_values&) {}
  metric_set metrics() const noexcept override { return {true, false, false, false}; }

 protected:
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;
};

}  // namespace sqlmorph::reference
