#pragma once
// BIRD's Soft-F1 (mini-dev evaluation/evaluation_f1.py, calculate_f1_score) and a variant that
// pairs rows optimally instead of by position.

#include <cstddef>
#include <span>
#include <vector>

#include <sqlmorph/options.hpp>
#include <sqlmorph/result.hpp>
#include <sqlmorph/row_matcher.hpp>
#include <sqlmorph/scorer.hpp>

namespace sqlmorph::bird {

/// BIRD's comparison of one predicted row with one gold row (calculate_row_match): a value counts
/// as matched when it occurs anywhere in the other row (Python's `in`, i.e. reference equality, NULL
/// an ordinary value); every count is divided by the gold row's length.
struct row_agreement {
  double match = 0;       ///< predicted values found in the gold row / |gold row|
  double pred_only = 0;   ///< predicted values not in the gold row / |gold row|
  double truth_only = 0;  ///< gold values not in the predicted row / |gold row|
};
row_agreement compare_rows(std::span<const value> pred, std::span<const value> gold);

/// Indices of the rows of `r` without repeats, in order of first appearance (`dict.fromkeys`).
std::vector<std::size_t> distinct_rows(const result& r);

/// The sums Soft-F1 is computed from, as row_match cell counts: matched = tp, gold_cells = tp + fn,
/// pred_cells = pred_cells_aligned = tp + fp.
struct soft_sums {
  double tp = 0;
  double fp = 0;
  double fn = 0;
};
cell_counts as_cell_counts(const soft_sums& s);

/// BIRD's pairing: after dropping repeated rows, the i-th gold row against the i-th predicted row;
/// a gold row without a counterpart adds 1 to fn, a predicted row without one adds 1 to fp. Sums in
/// BIRD's order, so the result is bit-identical. Column names and order are ignored.
class soft_positional_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit soft_positional_rows(const option_values&) {}
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::ignored;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;
};

/// The same cell rule with rows paired optimally: after dropping repeated rows, identical rows are
/// paired with each other, then the remaining rows by an optimal assignment maximizing the summed
/// match share (tp). Rows left over count as in BIRD's rule. When the remaining rows would make an
/// assignment matrix larger than `max_assignment_cells`, they are paired by position instead and the
/// row match says so (`pairing` = "positional").
class soft_matched_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit soft_matched_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::ignored;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  std::size_t max_cells_;
};

/// Soft-F1 from the row matcher's sums, as BIRD computes it: both results empty → 1; precision =
/// tp / (tp + fp) (0 when tp + fp = 0), recall = tp / (tp + fn) (likewise), F1 = 2·P·R / (P + R)
/// (0 when P + R = 0). EX = BIRD's EX (the sets of rows are equal); EXP / EXR = precision / recall.
class soft_f1_scorer final : public scorer {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit soft_f1_scorer(const option_values&) {}
  metric_set metrics() const noexcept override { return {true, true, true, true}; }

 protected:
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;
};

}  // namespace sqlmorph::bird
