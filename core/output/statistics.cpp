#include "output/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string_view>
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

// Blocks of a fixed width, so that the compiler's vector instructions do the work at -O2 (each
// element is computed exactly as one at a time would: the sums are the same bit for bit).
constexpr std::size_t block = 8;

// counts[r] += high[r] - low[r]
void add_difference(std::uint16_t* __restrict counts, const std::uint16_t* __restrict high,
                    const std::uint16_t* __restrict low, std::size_t n) {
  std::size_t r = 0;
  for (; r + block <= n; r += block) {
    for (std::size_t k = 0; k < block; ++k)
      counts[r + k] = static_cast<std::uint16_t>(counts[r + k] + (high[r + k] - low[r + k]));
  }
  for (; r < n; ++r) counts[r] = static_cast<std::uint16_t>(counts[r] + (high[r] - low[r]));
}

// sums[r] += v * (high[r] - low[r])
void add_weighted_difference(double* __restrict sums, double v, const std::uint16_t* __restrict high,
                             const std::uint16_t* __restrict low, std::size_t n) {
  std::size_t r = 0;
  for (; r + block <= n; r += block) {
    for (std::size_t k = 0; k < block; ++k) sums[r + k] += v * static_cast<double>(high[r + k] - low[r + k]);
  }
  for (; r < n; ++r) sums[r] += v * static_cast<double>(high[r] - low[r]);
}

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

const std::vector<std::uint16_t>* resample_plan::cumulative_counts(std::size_t n) {
  if (n > max_counted_size) return nullptr;
  // Made once per size, under the lock (threads asking for the same size wait for it); the map's
  // nodes do not move, so the pointer stays valid after the lock is released.
  {
    std::shared_lock lock(cumulative_mutex_);
    const auto it = cumulative_.find(n);
    if (it != cumulative_.end()) return &it->second;
  }
  std::unique_lock lock(cumulative_mutex_);
  const auto it = cumulative_.find(n);
  if (it != cumulative_.end()) return &it->second;
  // The draws of resample_source in order, resample by resample: counts[i * resamples + r] is how
  // often resample r drew index i; then summed over the indexes below each row.
  std::vector<std::uint16_t> cumulative((n + 1) * resamples_, 0);
  resample_source source(seed_);
  for (std::size_t r = 0; r < resamples_; ++r) {
    for (std::size_t k = 0; k < n; ++k) ++cumulative[(source.below(n) + 1) * resamples_ + r];
  }
  for (std::size_t i = 1; i <= n; ++i) {
    std::uint16_t* row = cumulative.data() + i * resamples_;
    const std::uint16_t* previous = row - resamples_;
    for (std::size_t r = 0; r < resamples_; ++r) row[r] = static_cast<std::uint16_t>(row[r] + previous[r]);
  }
  return &cumulative_.emplace(n, std::move(cumulative)).first->second;
}

std::vector<double> resample_plan::resampled_sums(std::span<const double> values) {
  const std::size_t n = values.size();
  const std::size_t resamples = resamples_;
  std::vector<double> sums(resamples, 0.0);
  const std::vector<std::uint16_t>* cumulative = cumulative_counts(n);
  if (cumulative == nullptr) {  // too large to keep: draw again
    resample_source source(seed_);
    for (double& sum : sums) {
      for (std::size_t k = 0; k < n; ++k) sum += values[source.below(n)];
    }
    return sums;
  }
  // Σ_i count(r, i) · value_i, index by index (a zero value adds nothing): the same sums as adding
  // the drawn values one by one, up to rounding. A run of values 1 (EX, and most other scores) adds
  // the draws of its indexes, exactly, in integers: one difference of cumulative rows.
  const std::uint16_t* rows = cumulative->data();
  std::vector<std::uint16_t> ones(resamples, 0);
  for (std::size_t i = 0; i < n;) {
    const double v = values[i];
    if (v == 0) {
      ++i;
      continue;
    }
    if (v == 1) {
      std::size_t end = i + 1;
      while (end < n && values[end] == 1) ++end;
      add_difference(ones.data(), rows + end * resamples, rows + i * resamples, resamples);
      i = end;
      continue;
    }
    add_weighted_difference(sums.data(), v, rows + (i + 1) * resamples, rows + i * resamples, resamples);
    ++i;
  }
  for (std::size_t r = 0; r < resamples; ++r) sums[r] += static_cast<double>(ones[r]);
  return sums;
}

namespace {

// percentile() of the means count / n of integer counts in [0, n], by counting them: the same
// order statistics, so the same interval, without sorting.
double count_percentile(const std::vector<std::size_t>& histogram, std::size_t total, std::size_t n,
                        double q) {
  const double position = q * static_cast<double>(total - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, total - 1);
  const double fraction = position - static_cast<double>(below);
  // The k-th smallest count (from 0).
  const auto order_statistic = [&](std::size_t k) {
    std::size_t seen = 0;
    for (std::size_t c = 0; c < histogram.size(); ++c) {
      seen += histogram[c];
      if (seen > k) return c;
    }
    return histogram.size() - 1;
  };
  const double low = static_cast<double>(order_statistic(below)) / static_cast<double>(n);
  const double high =
      above == below ? low : static_cast<double>(order_statistic(above)) / static_cast<double>(n);
  return low + fraction * (high - low);
}

}  // namespace

interval resample_plan::mean_interval(std::span<const double> values) {
  if (values.empty()) return interval{};
  const std::string_view bytes(reinterpret_cast<const char*>(values.data()), values.size_bytes());
  const std::pair<std::uint64_t, std::uint64_t> key{hash_bytes(bytes, 1), hash_bytes(bytes, 2)};
  {
    std::shared_lock lock(intervals_mutex_);
    const auto it = intervals_.find(key);
    if (it != intervals_.end()) return it->second;
  }
  const interval result = computed_interval(values);
  std::unique_lock lock(intervals_mutex_);
  intervals_.emplace(key, result);
  return result;
}

interval resample_plan::computed_interval(std::span<const double> values) {
  interval result;
  result.mean = mean_of(values);
  if (resamples_ == 0) {
    result.low = result.high = result.mean;
    return result;
  }
  std::vector<double> sums = resampled_sums(values);
  // Values all 0 or 1 (EX, and most scores): each resampled sum is an exact integer count in
  // [0, n], and the percentiles are read off their histogram instead of sorting.
  if (std::all_of(values.begin(), values.end(), [](double v) { return v == 0 || v == 1; })) {
    std::vector<std::size_t> histogram(values.size() + 1, 0);
    for (const double c : sums) ++histogram[static_cast<std::size_t>(c)];
    result.low = count_percentile(histogram, sums.size(), values.size(), 0.025);
    result.high = count_percentile(histogram, sums.size(), values.size(), 0.975);
    return result;
  }
  std::vector<double>& means = sums;
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
