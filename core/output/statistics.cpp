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

// Percentile with linear interpolation between order statistics (numpy's default); reorders
// `values` (selection, not a full sort: a summary takes thousands of them).
double percentile(std::vector<double>& values, double q) {
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(below), values.end());
  const double low = values[below];
  // The next order statistic: the smallest of those after `below`.
  const double high =
      above == below ? low
                     : *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(above), values.end());
  return low + fraction * (high - low);
}
}  // namespace

interval bootstrap_mean(std::span<const double> values, std::size_t resamples, std::uint64_t seed) {
  return resample_plan(resamples, seed).mean_interval(values);
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
  return resample_plan(resamples, seed).paired_p(a, b);
}

const std::vector<std::uint16_t>* resample_plan::counts(std::size_t n) {
  if (n > max_counted_size) return nullptr;
  auto it = counts_.find(n);
  if (it != counts_.end()) return &it->second;
  // counts[i * resamples + r]: how often resample r drew index i (the draws of resample_source in
  // order, resample by resample).
  std::vector<std::uint16_t> drawn(resamples_ * n, 0);
  resample_source source(seed_);
  for (std::size_t r = 0; r < resamples_; ++r) {
    for (std::size_t k = 0; k < n; ++k) ++drawn[source.below(n) * resamples_ + r];
  }
  return &counts_.emplace(n, std::move(drawn)).first->second;
}

std::vector<double> resample_plan::resampled_sums(std::span<const double> values) {
  const std::size_t n = values.size();
  std::vector<double> sums(resamples_, 0.0);
  const std::vector<std::uint16_t>* drawn = counts(n);
  if (drawn == nullptr) {  // too large to keep: draw again
    resample_source source(seed_);
    for (double& sum : sums) {
      for (std::size_t k = 0; k < n; ++k) sum += values[source.below(n)];
    }
    return sums;
  }
  // Σ_i count(r, i) · value_i, index by index (a zero value adds nothing): the same sums as
  // adding the drawn values one by one, up to rounding. Values of 1 (EX, and most other scores)
  // add whole counts, exactly, in integers.
  std::vector<std::uint32_t> ones(resamples_, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = values[i];
    if (v == 0) continue;
    const std::uint16_t* column = drawn->data() + i * resamples_;
    if (v == 1) {
      for (std::size_t r = 0; r < resamples_; ++r) ones[r] += column[r];
    } else {
      for (std::size_t r = 0; r < resamples_; ++r) sums[r] += v * static_cast<double>(column[r]);
    }
  }
  for (std::size_t r = 0; r < resamples_; ++r) sums[r] += static_cast<double>(ones[r]);
  return sums;
}

interval resample_plan::mean_interval(std::span<const double> values) {
  interval result;
  if (values.empty()) return result;
  result.mean = mean_of(values);
  if (resamples_ == 0) {
    result.low = result.high = result.mean;
    return result;
  }
  std::vector<double> means = resampled_sums(values);
  for (double& m : means) m /= static_cast<double>(values.size());
  result.low = percentile(means, 0.025);
  result.high = percentile(means, 0.975);
  return result;
}

double resample_plan::paired_p(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size())
    throw std::invalid_argument("paired_bootstrap_p: the two systems have different examples");
  if (a.empty() || resamples_ == 0) return 1.0;
  std::vector<double> differences(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) differences[i] = a[i] - b[i];
  std::size_t at_most_zero = 0;
  std::size_t at_least_zero = 0;
  // A sum within rounding of 0 is 0 (the differences of equal scores cancel exactly only in
  // exact arithmetic).
  const double zero = 1e-9 * static_cast<double>(a.size());
  for (const double sum : resampled_sums(differences)) {
    if (sum <= zero) ++at_most_zero;
    if (sum >= -zero) ++at_least_zero;
  }
  const double one_side =
      static_cast<double>(std::min(at_most_zero, at_least_zero)) / static_cast<double>(resamples_);
  return std::min(1.0, 2 * one_side);
}

}  // namespace sqlmorph::output
