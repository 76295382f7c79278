#pragma once
// Scorers of the semantic techniques.

#include <sqlmorph/options.hpp>
#include <sqlmorph/scorer.hpp>

#include "semantic_rows.hpp"

namespace sqlmorph::semantic {

/// SQLMorph's metrics for semantically paired columns (TECHNIQUES.md §2–3): EX = 1 (and every
/// metric 1) when the sets of rows are equal; otherwise EXP / EXR / F1 from the row matcher's cell
/// counts with the empty-count rules of §2 (no pair is no exception: with no pair and
/// `penalize_extra_pred_cols = false` the predicted cells count 0), and EX forced to 1 exactly when
/// both cell counts are 0.
class semantic_cells_scorer final : public scorer {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit semantic_cells_scorer(const option_values& o)
      : penalize_(o.get_bool("penalize_extra_pred_cols")) {}
  metric_set metrics() const noexcept override { return {true, true, true, true}; }

 protected:
  std::optional<scores> do_decide_early_(const match_input& in) const override;
  std::string do_early_decision_key_() const override { return "rows_set_equal"; }
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;

 private:
  bool penalize_;
};

/// unified_column_and_semantic_row's metrics from the `semantic_rows` matcher: EX = 1 (and every
/// metric 1) when the sets of rows are equal, in particular when both are empty; all 0 when exactly
/// one result is empty; else EXP = S / |predicted rows|, EXR = S / |gold rows| with S the
/// coverage-weighted similarity sum, F1 = 2·EXP·EXR / (EXP + EXR) (0 unless EXP + EXR > 0).
/// EXP and EXR are negative when the assigned rows are dissimilar on balance (cosine < 0).
class row_similarity_scorer final : public scorer {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit row_similarity_scorer(const option_values&) {}
  metric_set metrics() const noexcept override { return {true, true, true, true}; }
  std::vector<std::string> required_row_fields() const override { return {similarity_sum_field}; }

 protected:
  std::optional<scores> do_decide_early_(const match_input& in) const override;
  std::string do_early_decision_key_() const override { return "rows_set_equal"; }
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;
};

}  // namespace sqlmorph::semantic
