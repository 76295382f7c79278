// Statistics for summary.json (issue 13, §2): bootstrap intervals of means and paired tests between systems.
// Every resampling is seeded so that a run's numbers are reproducible.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace sqlmorph::output {

struct interval {
  double mean = 0;
  double low = 0;   // 2.5th percentile of the resampled means
  double high = 0;  // 97.5th percentile
};

inline constexpr std::size_t default_resamples = 1000;
inline constexpr std::uint64_t default_seed = 20261124;

// Percentile bootstrap of the mean: `resamples` samples of size n drawn with replacement.
// An empty input gives {0, 0, 0}.
interval bootstrap_mean(std::span<const double> values, std::size_t resamples = default_resamples,
                        std::uint64_t seed = default_seed);

// The index stream the bootstrap draws from (exposed so that a test can recompute the intervals slowly):
// a splitmix64 generator with an unbiased draw in [0, n).
class resample_source {
 public:
  static constexpr std::uint64_t gamma = 0x9E3779B97F4A7C15ULL;  // the Weyl sequence's step
  explicit resample_source(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::size_t below(std::size_t n);
  /// Passes over the next `draws` raw draws (next() calls) at once.
  void skip(std::uint64_t draws) noexcept { state_ += draws * gamma; }
  /// The generator's state: next() returns mix64(state() + gamma).
  std::uint64_t state() const noexcept { return state_; }

 private:
  std::uint64_t state_;
};

// resample_source::below(n) for one n, many times: the same draws and rejections (so the same
// indexes), with each remainder computed by two multiplications instead of a division: the
// quotient by Granlund and Montgomery's method ("Division by invariant integers using
// multiplication", 1994, figure 4.1: a 64-bit multiplier m' and two shifts serve every 64-bit
// numerator and divisor), then a - q * n.
class bounded_draws {
 public:
  /// n >= 1. The first `skipped` raw draws of the seed's stream are passed over: the draws are
  /// those of a source that drew (and rejected) nothing before.
  bounded_draws(std::uint64_t seed, std::uint64_t n, std::uint64_t skipped = 0);
  std::size_t next() {
    for (;;) {
      const std::uint64_t draw = source_.next();
      if (draw < limit_) return static_cast<std::size_t>(remainder(draw));
      ++rejected_;
    }
  }
  /// a mod n.
  std::uint64_t remainder(std::uint64_t a) const noexcept {
    const auto t = static_cast<std::uint64_t>((static_cast<unsigned __int128>(magic_) * a) >> 64);
    const std::uint64_t quotient = (t + ((a - t) >> shift1_)) >> shift2_;
    return a - quotient * bound_;
  }
  /// The draws rejected so far (each one is a draw more from the stream; with n <= 2^16, about
  /// one in 2^48).
  std::uint64_t rejected() const noexcept { return rejected_; }
  /// The next `count` draws, as next() gives them, into `out` (n < 2^32), 8 at a time with
  /// AVX-512 where the processor has it (the same operations on 64-bit integers, so the same
  /// draws). False when a draw was rejected on the way (rejected() then counts one at least): `out` and the
  /// stream's place are then unspecified, and the caller, who assumed no rejection, starts again
  /// in order.
  bool next_many(std::uint32_t* out, std::size_t count);

 private:
  std::optional<std::size_t> next_many_wide(std::uint32_t* out, std::size_t count);
  resample_source source_;
  std::uint64_t bound_;
  std::uint64_t magic_ = 0;
  unsigned shift1_ = 0;
  unsigned shift2_ = 0;
  std::uint64_t limit_ = 0;
  std::uint64_t rejected_ = 0;
};

struct pairwise_counts {
  std::size_t wins = 0;    // a > b
  std::size_t losses = 0;  // a < b
  std::size_t ties = 0;
};
pairwise_counts count_pairwise(std::span<const double> a, std::span<const double> b);

// McNemar's exact test (two-sided) on the discordant pairs: b = a right and b wrong, c = the reverse.
double mcnemar_exact_p(std::size_t b, std::size_t c);

// Paired bootstrap test of mean(a) == mean(b): two-sided p-value from the resampled mean differences.
double paired_bootstrap_p(std::span<const double> a, std::span<const double> b,
                          std::size_t resamples = default_resamples, std::uint64_t seed = default_seed);

// The resamplings of bootstrap_mean and paired_bootstrap_p (which are this with one use). A
// summary computes thousands of intervals over a few sample sizes, so the draws of each size are
// made once and kept as cumulative counts (how often each resample drew an index below i); a
// resampled sum is then the counts weighted by the values, a run of equal values 1 (EX, and most
// scores) adding the difference of two cumulative rows, exactly, in integers. Sizes above
// max_counted_size are drawn again each time. A plan may be used by several threads at once, and
// threads that need the same counts at the same time make them together.
class resample_plan {
 public:
  static constexpr std::size_t max_counted_size = 20000;
  static_assert(max_counted_size <= 65535, "cumulative counts are 16-bit");
  explicit resample_plan(std::size_t resamples = default_resamples, std::uint64_t seed = default_seed)
      : resamples_(resamples), seed_(seed) {}
  std::size_t resamples() const noexcept { return resamples_; }
  std::uint64_t seed() const noexcept { return seed_; }
  /// The percentile-bootstrap 95% interval of the mean of `values` (computed once per distinct
  /// values).
  interval mean_interval(std::span<const double> values);
  /// Two-sided p-value of mean(a) == mean(b) from the resampled mean differences (paired).
  double paired_p(std::span<const double> a, std::span<const double> b);
  /// The resampled sums of `values`, resample by resample: what the intervals and p-values are
  /// read from.
  std::vector<double> resampled_sums(std::span<const double> values);
  /// mean_interval() of each of many sets of values ({0, 0, 0} for an empty one), on `threads`
  /// threads (0: one per hardware thread), kept as mean_interval() keeps its own. The same
  /// numbers, bit for bit, made faster: the sets of one size are resampled together, a block of
  /// resamples at a time, so that every set of a batch reads the block's cumulative counts while
  /// they are in the processor's cache (one set at a time reads them all from memory: about a
  /// row of 2 KB per run of values, from a size's table of up to 40 MB).
  std::vector<interval> compute_intervals(std::span<const std::vector<double>> sets, unsigned threads = 0);

 private:
  interval computed_interval(std::span<const double> values);
  // The interval of `values` from their resampled sums (reordered).
  static interval interval_of_sums(std::span<const double> values, std::vector<double>& sums);
  // A resampled sum as steps over the cumulative rows, in index order: a run of values 1 [from,
  // to) adds its draws, counted in integers; any other value v (from + 1 == to) adds v times its
  // draws. Zeros add nothing.
  struct sum_step {
    std::uint32_t from;
    std::uint32_t to;
    double value;
  };
  static std::vector<sum_step> sum_steps(std::span<const double> values);
  // Resamples [first, last) of the sums of `steps` added to sums[first, last); `ones` holds
  // last - first counts (scratch). Each resample's sum is made by the same operations whatever
  // the block, so the same bits.
  void add_sums(std::span<const sum_step> steps, const std::uint16_t* rows, std::size_t first,
                std::size_t last, double* sums, std::uint16_t* ones) const;
  // (n + 1) rows of resamples() counts, each row_stride() apart: row i, column r = how many of
  // resample r's draws were below index i. (Counts fit 16 bits: no count exceeds
  // max_counted_size.) Null when n > max_counted_size.
  const std::uint16_t* cumulative_counts(std::size_t n);
  // Rows start on cache lines: a row is resamples() counts rounded up to whole lines.
  static constexpr std::size_t line_counts = 32;  // 64 bytes
  std::size_t row_stride() const noexcept {
    return (resamples_ + line_counts - 1) / line_counts * line_counts;
  }
  // Resamples [line * line_counts, (line + 1) * line_counts) of size n: their draws (the
  // stream's, from their place in it assuming no draw was rejected before) counted into `rows`,
  // in `local` ((n + 1) * line_counts counts, allocated). Returns the draws rejected.
  std::uint64_t made_line(std::size_t n, std::size_t line, std::vector<std::uint16_t>& local,
                          std::uint16_t* rows) const;
  // All the counts of size n in one pass over the stream (when a draw was rejected: the lines of
  // cumulative_counts assume none was).
  void made_in_order(std::size_t n, std::uint16_t* rows) const;

  std::size_t resamples_;
  std::uint64_t seed_;
  std::shared_mutex cumulative_mutex_;
  // The intervals already computed, by the XXH3-128 of the values' bytes: a summary asks for
  // the same values many times (the four metrics of a verdict technique, the two variants of a
  // technique that does not depend on penalize_extra_pred_cols).
  using values_key = std::pair<std::uint64_t, std::uint64_t>;
  static values_key key_of(std::span<const double> values);
  // The interval of `values` whose key is `key`: kept, or computed and kept.
  interval interval_of_key(const values_key& key, std::span<const double> values);
  struct values_key_hash {
    std::size_t operator()(const values_key& k) const noexcept { return static_cast<std::size_t>(k.first); }
  };
  std::shared_mutex intervals_mutex_;
  std::unordered_map<values_key, interval, values_key_hash> intervals_;
  // The counts of one size, made a line of resamples at a time by every thread that needs them:
  // resample r's draws start r * n draws into the stream (no draw rejected before them), so the
  // lines are independent, and each is written by one thread. If a line met a rejected draw, the
  // counts are made again in one pass.
  struct counts_entry {
    std::once_flag allocated;
    std::unique_ptr<std::uint16_t[]> storage;
    std::uint16_t* rows = nullptr;  // in storage, on a cache line
    std::atomic<std::size_t> next_line{0};
    std::atomic<std::size_t> done_lines{0};
    std::atomic<std::uint64_t> rejected{0};
    std::once_flag checked;
  };
  std::unordered_map<std::size_t, std::unique_ptr<counts_entry>> cumulative_;
};

}  // namespace sqlmorph::output
