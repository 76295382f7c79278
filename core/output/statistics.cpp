#include "output/statistics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include <sqlmorph/hash.hpp>
#include <sqlmorph/wide_vectors.hpp>
#if SQLMORPH_HAS_AVX2_PATH
#include <immintrin.h>
#endif

#include "parallel_for.hpp"
#include "runner/content_hash.hpp"

namespace sqlmorph::output {

std::uint64_t resample_source::next() {
  // splitmix64: a Weyl sequence through the project's finalizer.
  return mix64(state_ += gamma);
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

// The loops below work on fixed-width vectors (GCC and Clang vector extensions), 16 counts or 8
// sums at a time: SSE2 registers in halves or quarters, AVX2 ones where the processor has them
// (sqlmorph/wide_vectors.hpp). Each element is computed by the same operations as one at a time would (the
// integers modulo 2^16, a double product then a double sum), so the results are the same bits.
typedef std::uint16_t counts16 __attribute__((vector_size(32)));
typedef std::uint16_t counts8 __attribute__((vector_size(16)));
typedef std::int32_t ints8 __attribute__((vector_size(32)));
typedef std::int32_t ints4 __attribute__((vector_size(16)));
typedef double doubles4 __attribute__((vector_size(32)));

// counts[r] += high[r] - low[r]
SQLMORPH_WIDE_VECTORS void add_difference(std::uint16_t* __restrict counts,
                                          const std::uint16_t* __restrict high,
                                          const std::uint16_t* __restrict low, std::size_t n) {
  std::size_t r = 0;
  counts16 c, h, l;
  for (; r + 16 <= n; r += 16) {
    load_vector(c, counts + r);
    load_vector(h, high + r);
    load_vector(l, low + r);
    store_vector(counts + r, c + (h - l));
  }
  for (; r < n; ++r) counts[r] = static_cast<std::uint16_t>(counts[r] + (high[r] - low[r]));
}

// sums[r] += v * (high[r] - low[r]), 8 at a time. With AVX2, in intrinsics: GCC's vector
// extensions took twice the instructions to turn 16-bit counts into doubles.
#if SQLMORPH_HAS_AVX2_PATH
SQLMORPH_AVX2 void add_weighted_difference_avx2(double* __restrict sums, double v,
                                                const std::uint16_t* __restrict high,
                                                const std::uint16_t* __restrict low, std::size_t n) {
  const __m256d weight = _mm256_set1_pd(v);
  std::size_t r = 0;
  for (; r + 8 <= n; r += 8) {
    // (high >= low: the rows are cumulative, so the 16-bit difference is the count)
    const __m128i difference = _mm_sub_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(high + r)),
                                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(low + r)));
    const __m256i wide = _mm256_cvtepu16_epi32(difference);
    const __m256d first = _mm256_cvtepi32_pd(_mm256_castsi256_si128(wide));
    const __m256d second = _mm256_cvtepi32_pd(_mm256_extracti128_si256(wide, 1));
    _mm256_storeu_pd(sums + r, _mm256_add_pd(_mm256_loadu_pd(sums + r), _mm256_mul_pd(weight, first)));
    _mm256_storeu_pd(sums + r + 4,
                     _mm256_add_pd(_mm256_loadu_pd(sums + r + 4), _mm256_mul_pd(weight, second)));
  }
  for (; r < n; ++r) sums[r] += v * static_cast<double>(high[r] - low[r]);
}
#endif

void add_weighted_difference(double* __restrict sums, double v, const std::uint16_t* __restrict high,
                             const std::uint16_t* __restrict low, std::size_t n) {
#if SQLMORPH_HAS_AVX2_PATH
  if (processor_has_avx2()) return add_weighted_difference_avx2(sums, v, high, low, n);
#endif
  std::size_t r = 0;
  counts8 h, l;
  doubles4 sum0, sum1;
  for (; r + 8 <= n; r += 8) {
    load_vector(h, high + r);
    load_vector(l, low + r);
    load_vector(sum0, sums + r);
    load_vector(sum1, sums + r + 4);
    const ints8 difference = __builtin_convertvector(h, ints8) - __builtin_convertvector(l, ints8);
    const ints4 first = __builtin_shufflevector(difference, difference, 0, 1, 2, 3);
    const ints4 second = __builtin_shufflevector(difference, difference, 4, 5, 6, 7);
    store_vector(sums + r, sum0 + v * __builtin_convertvector(first, doubles4));
    store_vector(sums + r + 4, sum1 + v * __builtin_convertvector(second, doubles4));
  }
  for (; r < n; ++r) sums[r] += v * static_cast<double>(high[r] - low[r]);
}

// Resamples [first, first + count) (count <= columns_per_fill: a cache line of each row), their n
// draws each taken from `source` in order: how often each drew each index, counted a block of
// block_width resamples at a time into a table of its own ((n + 1) * block_width counts: 16 KB for
// n = 1,000, which stays in the L1 cache), then summed over the indexes below each row and written
// to their columns of rows 1..n (row i, column r: resample r's draws below i; rows `stride` counts
// apart), all the blocks' columns of a row at once (block by block, each line of a 2 MB table was
// fetched from memory four times). `local` holds columns_per_fill * (n + 1) counts.
// With `drawn` (n indexes of room), the draws are made n at a time (bounded_draws::next_many),
// assuming none is rejected: on a rejection it stops, and source.rejected() tells the caller to
// start again in order (without `drawn`, one draw at a time, rejections passed over).
constexpr std::size_t block_width = 8;
constexpr std::size_t blocks_per_fill = 4;
constexpr std::size_t columns_per_fill = blocks_per_fill * block_width;
SQLMORPH_WIDE_VECTORS void fill_columns(bounded_draws& source, std::size_t n, std::size_t first,
                                        std::size_t count, std::vector<std::uint16_t>& local,
                                        std::uint32_t* drawn, std::uint16_t* rows, std::size_t stride) {
  bounded_draws draws = source;  // (a copy the compiler keeps in registers)
  std::fill(local.begin(), local.end(), std::uint16_t{0});
  const std::size_t table_size = (n + 1) * block_width;
  for (std::size_t r = 0; r < count; ++r) {
    std::uint16_t* table = local.data() + r / block_width * table_size;
    const std::size_t column = r % block_width;
    if (drawn == nullptr) {
      for (std::size_t k = 0; k < n; ++k) ++table[(draws.next() + 1) * block_width + column];
      continue;
    }
    if (!draws.next_many(drawn, n)) {
      source = draws;
      return;
    }
    for (std::size_t k = 0; k < n; ++k) ++table[(drawn[k] + 1) * block_width + column];
  }
  source = draws;
  static_assert(sizeof(counts8) == block_width * sizeof(std::uint16_t));
  const std::size_t blocks = (count + block_width - 1) / block_width;
  counts8 running[blocks_per_fill] = {};
  counts8 row;
  std::uint16_t line[columns_per_fill];
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t b = 0; b < blocks; ++b) {
      load_vector(row, local.data() + b * table_size + i * block_width);
      running[b] += row;
    }
    std::uint16_t* to = rows + i * stride + first;
    if (count == columns_per_fill) {
      for (std::size_t b = 0; b < blocks_per_fill; ++b) store_vector(to + b * block_width, running[b]);
    } else {
      for (std::size_t b = 0; b < blocks; ++b) store_vector(line + b * block_width, running[b]);
      std::copy_n(line, count, to);
    }
  }
}

double mean_of(std::span<const double> values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

// The smallest and the largest of `values` (not empty), NaN aside, 8 values at a time in two
// vectors of 4 (one of 8 made GCC keep its lanes on the stack: 6 times slower).
SQLMORPH_WIDE_VECTORS std::pair<double, double> smallest_and_largest(std::span<const double> values) {
  doubles4 low0, high0, low1, high1, v0, v1;
  low0 = values[0] - doubles4{};  // every lane values[0]
  high0 = low0;
  low1 = low0;
  high1 = low0;
  std::size_t i = 0;
  for (; i + 8 <= values.size(); i += 8) {
    load_vector(v0, values.data() + i);
    load_vector(v1, values.data() + i + 4);
    low0 = v0 < low0 ? v0 : low0;
    high0 = v0 > high0 ? v0 : high0;
    low1 = v1 < low1 ? v1 : low1;
    high1 = v1 > high1 ? v1 : high1;
  }
  double lowest = values[0];
  double highest = values[0];
  for (std::size_t k = 0; k < 4; ++k) {
    lowest = low0[k] < lowest ? low0[k] : lowest;
    lowest = low1[k] < lowest ? low1[k] : lowest;
    highest = high0[k] > highest ? high0[k] : highest;
    highest = high1[k] > highest ? high1[k] : highest;
  }
  for (; i < values.size(); ++i) {
    lowest = values[i] < lowest ? values[i] : lowest;
    highest = values[i] > highest ? values[i] : highest;
  }
  return {lowest, highest};
}

// The order statistics of `values` at `ranks` (0-based, ascending: the k-th smallest value is
// rank k), into `out`, by bucketing instead of sorting: the values' range is cut into n / 4 equal
// buckets, a pass counts the values of each bucket, and only the values in the buckets holding the
// ranks asked for are sorted (the bootstrap's percentiles sit in its sparse tails: a few values).
// A bucket is a monotone function of the value, so a value in a lower bucket is never larger: the
// counts below a bucket are the ranks below its values. The values themselves are returned, so
// these are exactly the order statistics a sort would give. False (nothing done) when a value is not
// finite or the range overflows.
bool order_statistics_by_buckets(std::span<const double> values, std::span<const std::size_t> ranks,
                                 std::span<double> out) {
  const auto [lowest, highest] = smallest_and_largest(values);
  const double range = highest - lowest;
  if (!std::isfinite(range)) return false;
  const std::size_t buckets = std::max<std::size_t>(1, values.size() / 4);
  const double scale = range > 0 ? static_cast<double>(buckets) / range : 0;  // all equal: one bucket
  std::vector<std::uint32_t> bucket_of(values.size());
  std::vector<std::size_t> below(buckets + 1, 0);  // first as counts per bucket (shifted by one)
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = (values[i] - lowest) * scale;
    if (!(x >= 0)) return false;  // NaN
    // (x <= buckets, plus rounding: a signed conversion, which the processor does in one step)
    const auto b = std::min(buckets - 1, static_cast<std::size_t>(static_cast<std::int64_t>(x)));
    bucket_of[i] = static_cast<std::uint32_t>(b);
    ++below[b + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) below[b + 1] += below[b];  // now: values in buckets < b
  const auto bucket_of_rank = [&](std::size_t rank) {
    return static_cast<std::size_t>(std::upper_bound(below.begin(), below.end(), rank) - below.begin()) - 1;
  };
  // Ranks asked for in ascending runs share their buckets: the values of the buckets from the
  // first rank's to the last one's of each run of neighbouring ranks are sorted once.
  std::vector<double> chosen;
  for (std::size_t k = 0; k < ranks.size();) {
    std::size_t last = k;
    while (last + 1 < ranks.size() && ranks[last + 1] <= ranks[last] + 1) ++last;
    const std::size_t first_bucket = bucket_of_rank(ranks[k]);
    const std::size_t last_bucket = bucket_of_rank(ranks[last]);
    chosen.clear();
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (bucket_of[i] >= first_bucket && bucket_of[i] <= last_bucket) chosen.push_back(values[i]);
    }
    std::sort(chosen.begin(), chosen.end());
    for (; k <= last; ++k) out[k] = chosen[ranks[k] - below[first_bucket]];
  }
  return true;
}

// Where the percentile q of `total` sorted values lies (numpy's default, linear interpolation):
// between the order statistics `below` and `above` (0-based), `fraction` of the way.
struct percentile_position {
  std::size_t below;
  std::size_t above;
  double fraction;
};
percentile_position position_of(double q, std::size_t total) {
  const double p = q * static_cast<double>(total - 1);
  const auto below = static_cast<std::size_t>(std::floor(p));
  return {below, std::min(below + 1, total - 1), p - static_cast<double>(below)};
}

// The percentiles at q_low <= q_high of values[i] / divisor (divisor > 0) with linear
// interpolation between order statistics (numpy's default); may reorder `values`. Dividing keeps
// the order, so the order statistics are selected among the values and only they are divided: the
// same numbers as dividing every value first. Selection, not a full sort (a summary takes
// thousands of them): by buckets (above); when the values are not all finite, the upper order
// statistic is selected first, then the lower one among the values below it.
std::pair<double, double> percentiles(std::vector<double>& values, double q_low, double q_high,
                                      double divisor) {
  const percentile_position high = position_of(q_high, values.size());
  const percentile_position low = position_of(q_low, values.size());
  const std::size_t ranks[4] = {low.below, low.above, high.below, high.above};
  double order[4];
  if (order_statistics_by_buckets(values, ranks, order)) {
    const auto interpolated = [&](double below, double above, double fraction) {
      const double b = below / divisor;
      return b + fraction * (above / divisor - b);
    };
    return {interpolated(order[0], order[1], low.fraction), interpolated(order[2], order[3], high.fraction)};
  }
  const auto begin = values.begin();
  std::nth_element(begin, begin + static_cast<std::ptrdiff_t>(high.below), values.end());
  const double high_lo = values[high.below] / divisor;
  // The next order statistic: the smallest of those after `below`.
  const double high_hi =
      high.above == high.below
          ? high_lo
          : *std::min_element(begin + static_cast<std::ptrdiff_t>(high.above), values.end()) / divisor;
  // Everything before high.below is at most values[high.below], everything after at least.
  if (low.below < high.below)
    std::nth_element(begin, begin + static_cast<std::ptrdiff_t>(low.below),
                     begin + static_cast<std::ptrdiff_t>(high.below));
  const double low_lo = values[low.below] / divisor;
  double low_hi = low_lo;
  if (low.above != low.below) {
    low_hi = low.above >= high.below
                 ? (low.above == high.below ? high_lo : high_hi)
                 : *std::min_element(begin + static_cast<std::ptrdiff_t>(low.above),
                                     begin + static_cast<std::ptrdiff_t>(high.below) + 1) /
                       divisor;
  }
  return {low_lo + low.fraction * (low_hi - low_lo), high_lo + high.fraction * (high_hi - high_lo)};
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

bounded_draws::bounded_draws(std::uint64_t seed, std::uint64_t n, std::uint64_t skipped)
    : source_(seed), bound_(n) {
  source_.skip(skipped);
  // Granlund and Montgomery: l = ceil(log2 n), m' = floor(2^64 (2^l - n) / n) + 1 (below 2^64),
  // q = (t + ((a - t) >> min(l, 1))) >> max(l - 1, 0) with t = the high half of m' * a.
  using u128 = unsigned __int128;
  const unsigned l = n == 1 ? 0 : 64 - static_cast<unsigned>(std::countl_zero(n - 1));
  magic_ = static_cast<std::uint64_t>((((u128{1} << l) - n) << 64) / n + 1);
  shift1_ = std::min(l, 1u);
  shift2_ = l == 0 ? 0 : l - 1;
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  limit_ = max - remainder(max);
}

bool bounded_draws::next_many(std::uint32_t* out, std::size_t count) {
  std::size_t i = 0;
#if SQLMORPH_HAS_AVX2_PATH
  if (count >= 8 && processor_has_avx512dq()) {
    const std::optional<std::size_t> made = next_many_wide(out, count);
    if (!made) return false;
    i = *made;
  }
#endif
  const std::uint64_t before = rejected_;
  for (; i < count; ++i) out[i] = static_cast<std::uint32_t>(next());
  return rejected_ == before;
}

#if SQLMORPH_HAS_AVX2_PATH
// 8 draws at a time: splitmix64 with 64-bit multiplications (AVX512DQ), the high half of
// magic × draw from four 32-bit products, then the quotient and remainder as remainder() makes
// them, 8 at a time while 8 are left: how many it made, or nothing when a draw was rejected (draw >=
// limit). (The masked forms of the intrinsics: GCC 12 warns that the unmasked ones read an
// uninitialized register.)
SQLMORPH_AVX512DQ std::optional<std::size_t> bounded_draws::next_many_wide(std::uint32_t* out,
                                                                           std::size_t count) {
  __m512i state = _mm512_add_epi64(
      _mm512_set1_epi64(static_cast<long long>(source_.state())),
      _mm512_maskz_mullo_epi64(0xff, _mm512_set_epi64(8, 7, 6, 5, 4, 3, 2, 1),
                               _mm512_set1_epi64(static_cast<long long>(resample_source::gamma))));
  const __m512i step = _mm512_set1_epi64(static_cast<long long>(8 * resample_source::gamma));
  const __m512i mix1 = _mm512_set1_epi64(static_cast<long long>(0xbf58476d1ce4e5b9ULL));
  const __m512i mix2 = _mm512_set1_epi64(static_cast<long long>(0x94d049bb133111ebULL));
  const __m512i limit = _mm512_set1_epi64(static_cast<long long>(limit_));
  const __m512i magic = _mm512_set1_epi64(static_cast<long long>(magic_));
  const __m512i magic_high = _mm512_set1_epi64(static_cast<long long>(magic_ >> 32));
  const __m512i low32 = _mm512_set1_epi64(static_cast<long long>(0xffffffffULL));
  const __m512i bound = _mm512_set1_epi64(static_cast<long long>(bound_));
  const __m128i shift1 = _mm_cvtsi64_si128(static_cast<long long>(shift1_));
  const __m128i shift2 = _mm_cvtsi64_si128(static_cast<long long>(shift2_));
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m512i x = state;
    state = _mm512_add_epi64(state, step);
    x = _mm512_maskz_mullo_epi64(0xff, _mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xff, x, 30)), mix1);
    x = _mm512_maskz_mullo_epi64(0xff, _mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xff, x, 27)), mix2);
    x = _mm512_xor_si512(x, _mm512_maskz_srli_epi64(0xff, x, 31));
    if (_mm512_cmpge_epu64_mask(x, limit) != 0) {
      ++rejected_;
      return std::nullopt;
    }
    const __m512i x_high = _mm512_maskz_srli_epi64(0xff, x, 32);
    const __m512i low_low = _mm512_maskz_mul_epu32(0xff, x, magic);
    const __m512i high_low = _mm512_maskz_mul_epu32(0xff, x_high, magic);
    const __m512i low_high = _mm512_maskz_mul_epu32(0xff, x, magic_high);
    const __m512i high_high = _mm512_maskz_mul_epu32(0xff, x_high, magic_high);
    // (each sum below 2^64: the halves are below 2^32 and a product of 32-bit halves below
    // 2^64 - 2^33)
    const __m512i cross = _mm512_add_epi64(
        _mm512_add_epi64(_mm512_maskz_srli_epi64(0xff, low_low, 32), _mm512_and_si512(high_low, low32)),
        low_high);
    const __m512i t =
        _mm512_add_epi64(_mm512_add_epi64(high_high, _mm512_maskz_srli_epi64(0xff, high_low, 32)),
                         _mm512_maskz_srli_epi64(0xff, cross, 32));
    const __m512i quotient = _mm512_maskz_srl_epi64(
        0xff, _mm512_add_epi64(t, _mm512_maskz_srl_epi64(0xff, _mm512_sub_epi64(x, t), shift1)), shift2);
    const __m512i remainder = _mm512_sub_epi64(x, _mm512_maskz_mullo_epi64(0xff, quotient, bound));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_maskz_cvtepi64_epi32(0xff, remainder));
  }
  source_.skip(i);
  return i;
}
#endif

const std::uint16_t* resample_plan::cumulative_counts(std::size_t n) {
  if (n > max_counted_size) return nullptr;
  // Made once per size: threads asking for the same size make its lines together, threads asking
  // for others make theirs at the same time (the map is locked only to find or add the entry,
  // whose address does not change).
  counts_entry* entry = nullptr;
  {
    std::shared_lock lock(cumulative_mutex_);
    const auto it = cumulative_.find(n);
    if (it != cumulative_.end()) entry = it->second.get();
  }
  if (entry == nullptr) {
    std::unique_lock lock(cumulative_mutex_);
    auto& slot = cumulative_[n];
    if (!slot) slot = std::make_unique<counts_entry>();
    entry = slot.get();
  }
  const std::size_t stride = row_stride();
  std::call_once(entry->allocated, [&] {
    // Every count of rows 1..n is written by its line; row 0 is zeros.
    entry->storage = std::make_unique_for_overwrite<std::uint16_t[]>((n + 1) * stride + line_counts);
    const auto address = reinterpret_cast<std::uintptr_t>(entry->storage.get());
    const std::size_t line_bytes = line_counts * sizeof(std::uint16_t);
    entry->rows =
        entry->storage.get() + (line_bytes - address % line_bytes) % line_bytes / sizeof(std::uint16_t);
    std::fill_n(entry->rows, stride, std::uint16_t{0});
  });
  const std::size_t lines = stride / line_counts;
  // The table of a line's counts is allocated before a line is claimed: a claimed line is always
  // finished (others wait for it).
  std::vector<std::uint16_t> local;
  if (entry->next_line.load() < lines) local.resize((n + 1) * line_counts);
  for (std::size_t line = entry->next_line++; line < lines; line = entry->next_line++) {
    const std::uint64_t rejected = made_line(n, line, local, entry->rows);
    if (rejected > 0) entry->rejected += rejected;
    if (entry->done_lines.fetch_add(1, std::memory_order_acq_rel) + 1 == lines)
      entry->done_lines.notify_all();
  }
  // Every line done (the last ones perhaps by other threads), then checked once.
  for (std::size_t done = entry->done_lines.load(std::memory_order_acquire); done < lines;
       done = entry->done_lines.load(std::memory_order_acquire))
    entry->done_lines.wait(done, std::memory_order_acquire);
  std::call_once(entry->checked, [&] {
    if (entry->rejected.load() > 0) made_in_order(n, entry->rows);
  });
  return entry->rows;
}

std::uint64_t resample_plan::made_line(std::size_t n, std::size_t line, std::vector<std::uint16_t>& local,
                                       std::uint16_t* rows) const {
  static_assert(line_counts == columns_per_fill);
  const std::size_t first = line * line_counts;
  const std::size_t end = std::min(resamples_, first + line_counts);
  if (first >= end) return 0;
  std::vector<std::uint32_t> drawn(n);  // a resample's draws, made n at a time
  bounded_draws draws(seed_, n, static_cast<std::uint64_t>(first) * n);
  fill_columns(draws, n, first, end - first, local, drawn.data(), rows, row_stride());
  return draws.rejected();
}

void resample_plan::made_in_order(std::size_t n, std::uint16_t* rows) const {
  // The draws of resample_source in order, resample by resample.
  std::vector<std::uint16_t> local((n + 1) * line_counts);
  bounded_draws draws(seed_, n);
  for (std::size_t first = 0; first < resamples_; first += line_counts)
    fill_columns(draws, n, first, std::min(line_counts, resamples_ - first), local, nullptr, rows,
                 row_stride());
}

std::vector<resample_plan::sum_step> resample_plan::sum_steps(std::span<const double> values) {
  // Σ_i count(r, i) · value_i, index by index (a zero value adds nothing): the same sums as adding
  // the drawn values one by one, up to rounding. A run of values 1 (EX, and most other scores) adds
  // the draws of its indexes, exactly, in integers: one difference of cumulative rows.
  std::vector<sum_step> steps;
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n;) {
    const double v = values[i];
    if (v == 0) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (v == 1) {
      while (end < n && values[end] == 1) ++end;
    }
    steps.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end), v});
    i = end;
  }
  return steps;
}

void resample_plan::add_sums(std::span<const sum_step> steps, const std::uint16_t* rows, std::size_t first,
                             std::size_t last, double* sums, std::uint16_t* ones) const {
  const std::size_t stride = row_stride();
  const std::size_t width = last - first;
  std::fill_n(ones, width, std::uint16_t{0});
  for (const sum_step& step : steps) {
    const std::uint16_t* high = rows + step.to * stride + first;
    const std::uint16_t* low = rows + step.from * stride + first;
    if (step.value == 1)
      add_difference(ones, high, low, width);
    else
      add_weighted_difference(sums + first, step.value, high, low, width);
  }
  for (std::size_t r = 0; r < width; ++r) sums[first + r] += static_cast<double>(ones[r]);
}

std::vector<double> resample_plan::resampled_sums(std::span<const double> values) {
  const std::size_t n = values.size();
  const std::size_t resamples = resamples_;
  std::vector<double> sums(resamples, 0.0);
  const std::uint16_t* rows = cumulative_counts(n);
  if (rows == nullptr) {  // too large to keep: draw again
    bounded_draws draws(seed_, n);
    for (double& sum : sums) {
      for (std::size_t k = 0; k < n; ++k) sum += values[draws.next()];
    }
    return sums;
  }
  std::vector<std::uint16_t> ones(resamples);
  add_sums(sum_steps(values), rows, 0, resamples, sums.data(), ones.data());
  return sums;
}

namespace {

// The percentiles at q_low <= q_high of the means count / n of integer counts in [0, n], read off
// their histogram in one pass: the same order statistics as sorting, so the same interval.
std::pair<double, double> count_percentiles(const std::vector<std::size_t>& histogram, std::size_t total,
                                            std::size_t n, double q_low, double q_high) {
  const percentile_position low = position_of(q_low, total);
  const percentile_position high = position_of(q_high, total);
  // The k-th smallest count (from 0) of each rank, in one pass, ranks taken in ascending order
  // (with few resamples, low.above may be above high.below).
  const std::size_t ranks[4] = {low.below, low.above, high.below, high.above};
  std::size_t order[4] = {0, 1, 2, 3};
  std::sort(std::begin(order), std::end(order),
            [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  std::size_t counts[4];
  std::fill(std::begin(counts), std::end(counts), histogram.size() - 1);
  std::size_t next = 0;
  std::size_t seen = 0;
  for (std::size_t c = 0; c < histogram.size() && next < 4; ++c) {
    seen += histogram[c];
    while (next < 4 && seen > ranks[order[next]]) counts[order[next++]] = c;
  }
  const auto interpolated = [&](const percentile_position& p, std::size_t below, std::size_t above) {
    const double b = static_cast<double>(below) / static_cast<double>(n);
    const double a = p.above == p.below ? b : static_cast<double>(above) / static_cast<double>(n);
    return b + p.fraction * (a - b);
  };
  return {interpolated(low, counts[0], counts[1]), interpolated(high, counts[2], counts[3])};
}

}  // namespace

resample_plan::values_key resample_plan::key_of(std::span<const double> values) {
  return core::content_hash_128(
      std::string_view(reinterpret_cast<const char*>(values.data()), values.size_bytes()));
}

interval resample_plan::mean_interval(std::span<const double> values) {
  if (values.empty()) return interval{};
  return interval_of_key(key_of(values), values);
}

interval resample_plan::interval_of_key(const values_key& key, std::span<const double> values) {
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

std::vector<interval> resample_plan::compute_intervals(std::span<const std::vector<double>> sets,
                                                       unsigned threads) {
  std::vector<interval> out(sets.size());
  std::vector<values_key> keys(sets.size());
  core::parallel_for(sets.size(), threads, [&](std::size_t k) { keys[k] = key_of(sets[k]); });
  // The sets whose intervals are kept already get them now; the others are computed each once
  // (by size, below), or one at a time when larger than the plan keeps counts for. A set equal to
  // an earlier one gets its interval at the end. (One lock for all: threads taking it set by set
  // passed its cache line back and forth.)
  std::map<std::size_t, std::vector<std::size_t>> by_size;
  std::vector<std::size_t> alone;
  std::vector<std::pair<std::size_t, std::size_t>> repeated;  // (set, the earlier set equal to it)
  {
    std::unordered_map<values_key, std::size_t, values_key_hash> first;
    std::shared_lock lock(intervals_mutex_);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      if (sets[k].empty()) continue;
      if (const auto kept = intervals_.find(keys[k]); kept != intervals_.end()) {
        out[k] = kept->second;
        continue;
      }
      const auto [earlier, added] = first.try_emplace(keys[k], k);
      if (!added)
        repeated.emplace_back(k, earlier->second);
      else if (resamples_ == 0 || sets[k].size() > max_counted_size)
        alone.push_back(k);
      else
        by_size[sets[k].size()].push_back(k);
    }
  }
  // Batches of sets of one size, each on one thread: a block of resamples at a time, every set of
  // the batch reads the block's rows while they are in the cache. The largest sizes first: the
  // batches left when a thread runs out of work are the quickest.
  constexpr std::size_t sets_per_batch = 16;
  constexpr std::size_t block = 4 * line_counts;  // resamples: 256 bytes of each row
  std::vector<std::span<const std::size_t>> batches;
  for (auto it = by_size.rbegin(); it != by_size.rend(); ++it) {
    const std::vector<std::size_t>& list = it->second;
    for (std::size_t at = 0; at < list.size(); at += sets_per_batch)
      batches.emplace_back(list.data() + at, std::min(sets_per_batch, list.size() - at));
  }
  // The sets computed alone first (larger than the plan keeps counts for, they are the slowest).
  core::parallel_for(alone.size() + batches.size(), threads, [&](std::size_t b) {
    if (b < alone.size()) {
      const std::size_t k = alone[b];
      out[k] = interval_of_key(keys[k], sets[k]);
      return;
    }
    const std::span<const std::size_t> batch = batches[b - alone.size()];
    const std::uint16_t* rows = cumulative_counts(sets[batch.front()].size());
    std::vector<std::vector<sum_step>> steps;
    std::vector<std::vector<double>> sums;
    for (const std::size_t k : batch) {
      steps.push_back(sum_steps(sets[k]));
      sums.emplace_back(resamples_, 0.0);
    }
    std::vector<std::uint16_t> ones(block);
    for (std::size_t first = 0; first < resamples_; first += block) {
      const std::size_t last = std::min(resamples_, first + block);
      for (std::size_t i = 0; i < batch.size(); ++i)
        add_sums(steps[i], rows, first, last, sums[i].data(), ones.data());
    }
    for (std::size_t i = 0; i < batch.size(); ++i) out[batch[i]] = interval_of_sums(sets[batch[i]], sums[i]);
    std::unique_lock lock(intervals_mutex_);
    for (const std::size_t k : batch) intervals_.emplace(keys[k], out[k]);
  });
  for (const auto& [k, earlier] : repeated) out[k] = out[earlier];
  return out;
}

interval resample_plan::computed_interval(std::span<const double> values) {
  if (resamples_ == 0) {
    const double mean = mean_of(values);
    return {mean, mean, mean};
  }
  std::vector<double> sums = resampled_sums(values);
  return interval_of_sums(values, sums);
}

interval resample_plan::interval_of_sums(std::span<const double> values, std::vector<double>& sums) {
  interval result;
  result.mean = mean_of(values);
  // Values all 0 or 1 (EX, and most scores): each resampled sum is an exact integer count in
  // [0, n], and the percentiles are read off their histogram instead of sorting.
  if (std::all_of(values.begin(), values.end(), [](double v) { return v == 0 || v == 1; })) {
    std::vector<std::size_t> histogram(values.size() + 1, 0);
    for (const double c : sums) ++histogram[static_cast<std::size_t>(c)];
    std::tie(result.low, result.high) =
        count_percentiles(histogram, sums.size(), values.size(), 0.025, 0.975);
    return result;
  }
  // The means are the sums over n: the percentiles divide only the order statistics they use.
  std::tie(result.low, result.high) = percentiles(sums, 0.025, 0.975, static_cast<double>(values.size()));
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
