#include "ves.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include <sqlmorph/query_timer.hpp>
#include <sqlmorph/result.hpp>

namespace sqlmorph::bird {

std::vector<double> drop_outliers(std::span<const double> ratios) {
  std::vector<double> kept;
  if (ratios.empty()) return kept;
  double sum = 0;
  for (const double r : ratios) sum += r;
  const double mean = sum / static_cast<double>(ratios.size());
  double squares = 0;
  for (const double r : ratios) squares += (r - mean) * (r - mean);
  const double sigma = std::sqrt(squares / static_cast<double>(ratios.size()));
  for (const double r : ratios) {
    if (r < mean + 3 * sigma && r > mean - 3 * sigma) kept.push_back(r);
  }
  return kept;
}

double reward_for(double time_ratio) {
  if (time_ratio == 0) return 0;
  if (time_ratio >= 2) return 1.25;
  if (time_ratio >= 1) return 1;
  if (time_ratio >= 0.5) return 0.75;
  if (time_ratio >= 0.25) return 0.5;
  return 0.25;
}

std::optional<double> mean_time_ratio(std::span<const double> gold_ms, std::span<const double> pred_ms) {
  if (gold_ms.size() != pred_ms.size() || gold_ms.empty()) return std::nullopt;
  std::vector<double> ratios;
  ratios.reserve(gold_ms.size());
  for (std::size_t i = 0; i < gold_ms.size(); ++i) {
    if (pred_ms[i] == 0) return std::nullopt;  // BIRD: ZeroDivisionError, scored 0
    ratios.push_back(gold_ms[i] / pred_ms[i]);
  }
  const std::vector<double> kept = drop_outliers(ratios);
  if (kept.empty()) return std::nullopt;  // BIRD: ZeroDivisionError, scored 0
  double sum = 0;
  for (const double r : kept) sum += r;
  return sum / static_cast<double>(kept.size());
}

ves_scorer::ves_scorer(const option_values& o) {
  const std::int64_t n = o.get_int("iterations");
  // One iteration has σ = 0, so BIRD's outlier rule drops its only ratio and every example scores 0.
  if (n < 2)
    throw std::invalid_argument("iterations must be at least 2 (BIRD's outlier rule keeps nothing of 1)");
  iterations_ = static_cast<std::size_t>(n);
}

metric_set ves_scorer::metrics() const noexcept {
  metric_set m;
  m.failure_extra = {{"reward", 0.0}, {"time_ratio", nullptr}, {"iterations", std::int64_t{0}}};
  return m;
}

scores ves_scorer::do_score_(const match_input& in, const column_alignment&, const row_match&) const {
  scores out;
  out.ex = 0.0;
  double reward = 0;
  field_value ratio = nullptr;
  std::int64_t timed = 0;
  if (rows_set_equal(in.gold, in.pred)) {
    out.ex = 1.0;
    if (in.timer == nullptr)
      throw std::logic_error("bird_ves needs to time the queries, and this caller cannot");
    const timed_runs runs = in.timer->repeat(iterations_);
    timed = static_cast<std::int64_t>(std::min(runs.gold_ms.size(), runs.pred_ms.size()));
    if (runs.status == query_status::ok) {
      if (const auto mean = mean_time_ratio(runs.gold_ms, runs.pred_ms)) {
        ratio = *mean;
        reward = reward_for(*mean);
      }
    }
  }
  out.extra = {{"reward", reward}, {"time_ratio", ratio}, {"iterations", timed}};
  return out;
}

}  // namespace sqlmorph::bird
