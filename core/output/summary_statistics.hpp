#pragma once
// The statistics of summary.json: a 95% percentile-bootstrap interval for every mean of a group
// (technique, difficulty, database, SQL feature; a judge's labels; exact match), and, with several systems,
// the pairwise comparison of systems per technique variant: wins/losses/ties on the headline metric,
// McNemar's exact test on EX and a paired bootstrap test on F1. Every resampling is seeded (statistics.hpp):
// a run's numbers are reproducible.

#include <cstddef>
#include <span>

#include <nlohmann/json.hpp>

#include "output/run_summary.hpp"
#include "output/statistics.hpp"

namespace sqlmorph::core {

/// Up to this many systems every pair is compared; beyond, each system with the next one in the
/// ranking of the technique's headline mean (the pairs a leaderboard reader asks about).
inline constexpr std::size_t all_pairs_up_to = 16;

/// {"EX": [low, high], "EXP": ..., "EXR": ..., "F1": ...} for the metrics the group has (null
/// where it has none).
nlohmann::ordered_json metric_intervals(const run_summary::group& g, output::resample_plan& plan);
/// The same for the feature slice of `g` whose gold queries have (`present`) or lack feature
/// number `feature` (records added with facts).
nlohmann::ordered_json slice_intervals(const run_summary::group& g, std::size_t feature, bool present,
                                       output::resample_plan& plan);
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
