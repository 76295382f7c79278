#include "output/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <sqlmorph/hash.hpp>

namespace sqlmorph::output {

std::uint64_t resample_source::next() {
  // splitmix64: a Weyl sequence through the project's finalizer.
  return mix64(state_ += 0x9E3779B97F4A7C15ULL);
}

std::size_t resample_source::below(std::size_t n) {
  // Rejection sampling: no modulo bias, and the same stream on every platform (unlike std distributions).
  const std::uint64_t bound = static_cast<std::uint64_t>(n);
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  for (;;) {
    const std::uint64_t draw = next();
    if (draw < limit) return static_cast<std::size_t>(draw % bound);
  }
}

namespace {
double mean_of(std::span<const double> values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

// Percentile with linear interpolation between order statistics (numpy's default).
double percentile(std::vector<double>& sorted_in_place, double q) {
  std::sort(sorted_in_place.begin(), sorted_in_place.end());
  const double position = q * static_cast<double>(sorted_in_place.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted_in_place.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted_in_place[below] + fraction * (sorted_in_place[above] - sorted_in_place[below]);
}
}  // namespace

interval bootstrap_mean(std::span<const double> values, std::size_t resamples, std::uint64_t seed) {
  interval result;
  if (values.empty()) return result;
  result.mean = mean_of(values);
  if (resamples == 0) {
    result.low = result.high = result.mean;
    return result;
  }
  resample_source source(seed);
  std::vector<double> means(resamples);
  const std::size_t n = values.size();
  for (double& m : means) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += values[source.below(n)];
    m = sum / static_cast<double>(n);
  }
  result.low = percentile(means, 0.025);
  result.high = percentile(means, 0.975);
  return result;
}

pairwise_counts count_pairwise(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size())
    throw std::invalid_argument("count_pairwise: the two systems have different examples");
  pairwise_counts counts;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i])
      ++counts.wins;
    else if (a[i] < b[i])
      ++counts.losses;
    else
      ++counts.ties;
  }
  return counts;
}

double mcnemar_exact_p(std::size_t b, std::size_t c) {
  const std::size_t n = b + c;
  if (n == 0) return 1.0;
  const std::size_t k = std::min(b, c);
  // P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so that large n does not underflow term by term.
  double tail = 0;
  for (std::size_t i = 0; i <= k; ++i) {
    const double log_term =
        std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(i) + 1) -
        std::lgamma(static_cast<double>(n - i) + 1) - static_cast<double>(n) * std::log(2.0);
    tail += std::exp(log_term);
  }
  return std::min(1.0, 2 * tail);
}

double paired_bootstrap_p(std::span<const double> a, std::span<const double> b, std::size_t resamples,
                          std::uint64_t seed) {
  if (a.size() != b.size())
    throw std::invalid_argument("paired_bootstrap_p: the two systems have different examples");
  if (a.empty() || resamples == 0) return 1.0;
  std::vector<double> differences(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) differences[i] = a[i] - b[i];
  resample_source source(seed);
  std::size_t at_most_zero = 0;
  std::size_t at_least_zero = 0;
  const std::size_t n = differences.size();
  for (std::size_t r = 0; r < resamples; ++r) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += differences[source.below(n)];
    if (sum <= 0) ++at_most_zero;
    if (sum >= 0) ++at_least_zero;
  }
  const double one_side =
      static_cast<double>(std::min(at_most_zero, at_least_zero)) / static_cast<double>(resamples);
  return std::min(1.0, 2 * one_side);
}

}  // namespace sqlmorph::output
