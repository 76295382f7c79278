#pragma once
// The statistics of summary.json: a 95% percentile-bootstrap interval for every mean of a group
// (technique, difficulty, database, SQL feature; a judge's labels; exact match), and, with several systems,
// the pairwise comparison of systems per technique variant: wins/losses/ties on the headline metric,
// McNemar's exact test on EX and a paired bootstrap test on F1. Every resampling is seeded (statistics.hpp):
// a run's numbers are reproducible.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "output/run_summary.hpp"
#include "output/statistics.hpp"

namespace sqlmorph::core {

/// Up to this many systems every pair is compared; beyond, each system with the next one in the
/// ranking of the technique's headline mean (the pairs a leaderboard reader asks about).
inline constexpr std::size_t all_pairs_up_to = 16;

/// A group's intervals: per metric (EX, EXP, EXR, F1), and for a group with feature slices
/// (records added with facts), per slice (2·feature + 1 when the gold query has the feature, 2·feature
/// when it lacks it) per metric. None where there are no values.
struct group_intervals {
  using of_metrics = std::array<std::optional<output::interval>, 4>;
  of_metrics metrics;
  std::vector<of_metrics> slices;
};
/// The intervals of `groups`, and with `slices` of their feature slices, on `threads` threads:
/// computed in batches of one sample size (resample_plan::compute_intervals), a few features' slices
/// at a time.
std::vector<group_intervals> group_intervals_of(std::span<const run_summary::group> groups, bool slices,
                                                output::resample_plan& plan, unsigned threads);
/// The intervals of groups from their values, four sets per group (set 4·i + m: group i, metric
/// m), computed as group_intervals_of computes them.
std::vector<group_intervals::of_metrics> metric_intervals_of(std::vector<std::vector<double>> sets,
                                                             output::resample_plan& plan, unsigned threads);
/// {"EX": [low, high], "EXP": ..., "EXR": ..., "F1": ...}, null where there is none.
nlohmann::ordered_json intervals_json(const group_intervals::of_metrics& intervals);
/// [low, high] of the mean of `values`, null when there are none.
nlohmann::ordered_json interval_json(std::span<const float> values, output::resample_plan& plan);

/// {"method", "confidence", "resamples", "seed", "pairs": "all"|"adjacent in ranking",
///  "pairwise": [{"technique", "penalize_extra_pred_cols", "a", "b", "compared", "metric", "mean_a",
///  "mean_b", "wins", "losses", "ties", "mcnemar": {"a_only", "b_only", "p"} | null,
///  "paired_bootstrap_p": p | null}, ...]}. The pairs are compared on `threads` threads (0: one per
/// hardware thread), in their order whatever the number.
nlohmann::ordered_json statistics_json(const run_summary& s, output::resample_plan& plan,
                                       unsigned threads = 0);

}  // namespace sqlmorph::core
