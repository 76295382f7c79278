#pragma once
// BIRD's R-VES (mini-dev evaluation/evaluation_ves.py): a correct prediction is rewarded for
// running faster than the gold query.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <sqlmorph/options.hpp>
#include <sqlmorph/scorer.hpp>

namespace sqlmorph::bird {

/// BIRD's clean_abnormal: the ratios strictly inside mean ± 3σ (σ the population standard
/// deviation), in their order. When every ratio is equal (σ = 0) none is kept.
std::vector<double> drop_outliers(std::span<const double> ratios);

/// BIRD's reward for a mean time ratio (gold time / predicted time): 0 → 0, ≥ 2 → 1.25,
/// [1, 2) → 1, [0.5, 1) → 0.75, [0.25, 0.5) → 0.5, below 0.25 → 0.25.
double reward_for(double time_ratio);

/// The mean time ratio of a repetition as BIRD computes it: per-iteration gold / pred, outliers
/// dropped, the mean of the rest. Empty where BIRD's script raises instead (a predicted time of
/// 0, or no ratio left after dropping outliers) and so scores 0.
std::optional<double> mean_time_ratio(std::span<const double> gold_ms, std::span<const double> pred_ms);

/// R-VES of one example: EX = the sets of rows are equal (BIRD's condition for timing); only then
/// are both queries run `iterations` more times through the host's timer, and the reward computed
/// from their mean time ratio. Extra fields: `reward`, `time_ratio` (null when not timed),
/// `iterations` (executions of each query that were timed). A failed or incorrect prediction has
/// reward 0; a repetition that fails or runs out of time gives reward 0 and the host marks the
/// example with the repetition's status.
class ves_scorer final : public scorer {
 public:
  explicit ves_scorer(const option_values& o);
  metric_set metrics() const noexcept override;

 protected:
  scores do_score_(const match_input& in, const column_alignment& columns,
                   const row_match& rows) const override;

 private:
  std::size_t iterations_;
};

}  // namespace sqlmorph::bird
