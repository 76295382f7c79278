// Statistics for summary.json (issue 13, §2): bootstrap intervals against a slow reference computation,
// McNemar's exact test against values computed exactly (integer binomial sums) for textbook tables.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "output/statistics.hpp"

using namespace sqlmorph::output;

namespace {
// The slow way: materialise every resample, take its mean, sort all means, and read the percentiles as numpy
// does.
interval reference_interval(const std::vector<double>& values, std::size_t resamples, std::uint64_t seed) {
  resample_source source(seed);
  std::vector<double> means;
  for (std::size_t r = 0; r < resamples; ++r) {
    std::vector<double> sample;
    for (std::size_t i = 0; i < values.size(); ++i) sample.push_back(values[source.below(values.size())]);
    double sum = 0;
    for (double v : sample) sum += v;
    means.push_back(sum / static_cast<double>(sample.size()));
  }
  std::sort(means.begin(), means.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(means.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, means.size() - 1);
    return means[lo] + (pos - static_cast<double>(lo)) * (means[hi] - means[lo]);
  };
  double sum = 0;
  for (double v : values) sum += v;
  return {sum / static_cast<double>(values.size()), at(0.025), at(0.975)};
}

std::vector<double> mixed_scores() {
  std::vector<double> values;
  for (int i = 0; i < 200; ++i) values.push_back(i % 3 == 0 ? 0.0 : (i % 7 == 0 ? 0.5 : 1.0));
  return values;
}
}  // namespace

TEST_CASE("bootstrap intervals equal the slow reference computation") {
  const auto values = mixed_scores();
  for (const std::uint64_t seed : std::vector<std::uint64_t>{1, 42, default_seed}) {
    const interval fast = bootstrap_mean(values, 1000, seed);
    const interval slow = reference_interval(values, 1000, seed);
    CHECK(fast.mean == doctest::Approx(slow.mean).epsilon(1e-12));
    CHECK(fast.low == doctest::Approx(slow.low).epsilon(1e-12));
    CHECK(fast.high == doctest::Approx(slow.high).epsilon(1e-12));
    CHECK(fast.low < fast.mean);
    CHECK(fast.mean < fast.high);
  }
}

TEST_CASE("bootstrap intervals are reproducible for a seed and change with it") {
  const auto values = mixed_scores();
  const interval a = bootstrap_mean(values);
  const interval b = bootstrap_mean(values);
  CHECK(a.low == b.low);
  CHECK(a.high == b.high);
  const interval other = bootstrap_mean(values, default_resamples, default_seed + 1);
  CHECK((other.low != a.low || other.high != a.high));
}

TEST_CASE("bootstrap of constant or empty input") {
  const std::vector<double> ones(50, 1.0);
  const interval i = bootstrap_mean(ones);
  CHECK(i.mean == 1.0);
  CHECK(i.low == 1.0);
  CHECK(i.high == 1.0);
  const interval none = bootstrap_mean(std::vector<double>{});
  CHECK(none.mean == 0.0);
}

TEST_CASE("the 95% interval of a mean covers the binomial normal-approximation interval roughly") {
  // 1,000 examples at EX 0.6: the bootstrap interval's half-width is close to 1.96 * sqrt(p(1-p)/n) = 0.0304.
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i) values.push_back(i % 5 < 3 ? 1.0 : 0.0);
  const interval i = bootstrap_mean(values);
  CHECK(i.mean == doctest::Approx(0.6));
  CHECK((i.high - i.low) / 2 == doctest::Approx(0.0304).epsilon(0.15));
}

TEST_CASE("McNemar's exact test matches exact binomial sums") {
  CHECK(mcnemar_exact_p(1, 5) == doctest::Approx(0.21875).epsilon(1e-12));
  CHECK(mcnemar_exact_p(5, 1) == doctest::Approx(0.21875).epsilon(1e-12));
  CHECK(mcnemar_exact_p(0, 10) == doctest::Approx(0.001953125).epsilon(1e-12));
  CHECK(mcnemar_exact_p(7, 2) == doctest::Approx(0.1796875).epsilon(1e-12));
  CHECK(mcnemar_exact_p(5, 5) == 1.0);
  CHECK(mcnemar_exact_p(0, 0) == 1.0);
  // The table in Wikipedia's McNemar article (b = 121, c = 59).
  CHECK(mcnemar_exact_p(121, 59) == doctest::Approx(4.434449263755176e-06).epsilon(1e-9));
}

TEST_CASE("wins, losses and ties and the paired bootstrap") {
  const std::vector<double> a{1, 1, 0, 0.5, 1};
  const std::vector<double> b{0, 1, 1, 0.5, 0};
  const auto counts = count_pairwise(a, b);
  CHECK(counts.wins == 2);
  CHECK(counts.losses == 1);
  CHECK(counts.ties == 2);
  CHECK_THROWS(count_pairwise(a, std::vector<double>{1}));
  // Identical systems: no evidence of a difference.
  CHECK(paired_bootstrap_p(a, a) == 1.0);
  // A system better on 80 of 100 examples and never worse: a tiny p-value.
  std::vector<double> better(100, 1.0);
  std::vector<double> worse(100, 1.0);
  for (int i = 0; i < 80; ++i) worse[static_cast<std::size_t>(i)] = 0.2;
  CHECK(paired_bootstrap_p(better, worse) < 0.01);
  CHECK(paired_bootstrap_p(better, worse) == paired_bootstrap_p(better, worse));
}

TEST_CASE("the resample plan gives bootstrap_mean's intervals and paired_bootstrap_p's p-values") {
  resample_plan plan(500, 7);
  const std::vector<double> values = mixed_scores();
  std::vector<double> other = values;
  std::reverse(other.begin(), other.end());
  for (int round = 0; round < 2; ++round) {  // the second round reuses the drawn indices
    const interval direct = bootstrap_mean(values, 500, 7);
    const interval planned = plan.mean_interval(values);
    CHECK(planned.mean == direct.mean);
    CHECK(planned.low == direct.low);
    CHECK(planned.high == direct.high);
    const std::vector<double> shorter(values.begin(), values.begin() + 37);
    const interval s = plan.mean_interval(shorter);
    const interval r = reference_interval(shorter, 500, 7);
    CHECK(s.low == doctest::Approx(r.low).epsilon(1e-12));
    CHECK(s.high == doctest::Approx(r.high).epsilon(1e-12));
    CHECK(plan.paired_p(values, other) == paired_bootstrap_p(values, other, 500, 7));
  }
  CHECK(plan.mean_interval(std::vector<double>{}).mean == 0);
}

TEST_CASE("samples larger than the plan keeps counts for are drawn again, with the same intervals") {
  std::vector<double> values;
  for (std::size_t i = 0; i < resample_plan::max_counted_size + 1; ++i)
    values.push_back((i * 7919) % 10 / 9.0);
  resample_plan plan(200, 3);
  const interval big = plan.mean_interval(values);
  const interval slow = reference_interval(values, 200, 3);
  CHECK(big.low == doctest::Approx(slow.low).epsilon(1e-12));
  CHECK(big.high == doctest::Approx(slow.high).epsilon(1e-12));
}

TEST_CASE("verdicts (every value 0 or 1) get the reference's intervals from counting the resampled sums") {
  for (const std::size_t n : {1, 2, 37, 500, 1034}) {
    std::vector<double> verdicts;
    for (std::size_t i = 0; i < n; ++i) verdicts.push_back((i * 7919 + i / 3) % 5 < 3 ? 1.0 : 0.0);
    resample_plan plan(1000, 11);
    const interval counted = plan.mean_interval(verdicts);
    const interval slow = reference_interval(verdicts, 1000, 11);
    // The same order statistics, divided by n as the reference divides: equal, not just close.
    CHECK(counted.mean == slow.mean);
    CHECK(counted.low == slow.low);
    CHECK(counted.high == slow.high);
  }
  // Beyond the sizes the plan keeps counts for, the sums are drawn again: still exact counts.
  std::vector<double> many;
  for (std::size_t i = 0; i < resample_plan::max_counted_size + 1; ++i)
    many.push_back(i % 3 == 0 ? 1.0 : 0.0);
  const interval drawn = resample_plan(200, 4).mean_interval(many);
  const interval drawn_slow = reference_interval(many, 200, 4);
  CHECK(drawn.low == drawn_slow.low);
  CHECK(drawn.high == drawn_slow.high);
  const std::vector<double> all_ones(50, 1.0);
  const interval ones = resample_plan(300, 5).mean_interval(all_ones);
  CHECK(ones.low == 1.0);
  CHECK(ones.high == 1.0);
}

TEST_CASE("a plan shared by threads gives each one the intervals it gives alone") {
  std::vector<std::vector<double>> samples;
  for (std::size_t k = 0; k < 24; ++k) {
    std::vector<double> v;
    for (std::size_t i = 0; i < 60 + k * 13; ++i)
      v.push_back(k % 2 ? (i % 4 == 0 ? 1.0 : 0.0) : (i % 9) / 8.0);
    samples.push_back(std::move(v));
  }
  std::vector<interval> alone;
  for (const auto& v : samples) alone.push_back(resample_plan(400, 9).mean_interval(v));
  resample_plan shared(400, 9);
  std::vector<interval> together(samples.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t round = 0; round < 2; ++round)
        for (std::size_t k = t; k < samples.size(); k += 2) together[k] = shared.mean_interval(samples[k]);
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t k = 0; k < samples.size(); ++k) {
    CHECK(together[k].low == alone[k].low);
    CHECK(together[k].high == alone[k].high);
  }
}

TEST_CASE("bounded_draws gives resample_source's draws, remainders by multiplication") {
  // Remainders against the division, for bounds small and large and numerators at the edges.
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  resample_source numbers(7);
  for (const std::uint64_t n :
       std::vector<std::uint64_t>{1, 2, 3, 7, 10, 972, 1034, 20000, 65536, 1000003, (1ULL << 32) + 1,
                                  (1ULL << 63) - 1, 1ULL << 63, max - 1, max}) {
    const bounded_draws draws(1, n);
    for (const std::uint64_t a : std::vector<std::uint64_t>{0, 1, n - 1, n, n + 1, max - 1, max})
      CHECK(draws.remainder(a) == a % n);
    for (int k = 0; k < 20000; ++k) {
      const std::uint64_t a = numbers.next();
      REQUIRE(draws.remainder(a) == a % n);
    }
  }
  // The same index stream as resample_source::below.
  for (const std::size_t n : std::vector<std::size_t>{1, 5, 200, 1034, 19999}) {
    resample_source slow(default_seed);
    bounded_draws fast(default_seed, n);
    for (int k = 0; k < 50000; ++k) REQUIRE(fast.next() == slow.below(n));
  }
}

TEST_CASE("bounded_draws::next_many gives next()'s draws, many at a time, and goes on where they end") {
  // (8 at a time with AVX-512 where the processor has it: the same draws from vector operations.)
  for (const std::uint64_t n : std::vector<std::uint64_t>{1, 2, 3, 7, 972, 1034, 19999, 65536, 1000003,
                                                          (1ULL << 31) + 11, (1ULL << 32) - 1}) {
    for (const std::size_t count : std::vector<std::size_t>{1, 7, 8, 9, 64, 1034, 5003}) {
      INFO("n " << n << ", count " << count);
      bounded_draws one(default_seed, n, 12345);
      bounded_draws many(default_seed, n, 12345);
      std::vector<std::uint32_t> drawn(count);
      REQUIRE(many.next_many(drawn.data(), count));
      bool same = true;
      for (std::size_t k = 0; k < count; ++k) same = same && drawn[k] == one.next();
      CHECK(same);
      CHECK(many.next() == one.next());  // the stream goes on at the same place
      CHECK(many.rejected() == 0);
    }
  }
  // A bound just above 2^63 rejects about half the draws: next_many says so (its caller then
  // makes the table again in order).
  for (const std::size_t count : std::vector<std::size_t>{8, 64}) {
    bounded_draws draws(default_seed, (1ULL << 63) + 1);
    std::vector<std::uint32_t> drawn(count);
    CHECK_FALSE(draws.next_many(drawn.data(), count));
    CHECK(draws.rejected() > 0);
  }
}

TEST_CASE("threads needing the same sample size at once make its counts together, as the stream gives them") {
  // Each size's counts are made in blocks of resamples, each block jumping to its place in the
  // stream: four threads start on the same sizes together and share their blocks.
  std::vector<std::vector<double>> samples;
  for (const std::size_t n : std::vector<std::size_t>{1034, 301, 1034, 57, 301}) {
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(i % 5 == 0 ? 0.0 : (i % 3 == 0 ? 0.25 : 1.0));
    samples.push_back(std::move(v));
  }
  std::vector<interval> slow;
  for (const auto& v : samples) slow.push_back(reference_interval(v, 1000, default_seed));
  // Every resample's sum, against the stream drawn one index at a time (values of 0, 1/4 and 1:
  // the sums are exact).
  std::vector<std::vector<double>> slow_sums;
  for (const auto& v : samples) {
    resample_source source(default_seed);
    std::vector<double> sums(1000, 0.0);
    for (double& sum : sums)
      for (std::size_t i = 0; i < v.size(); ++i) sum += v[source.below(v.size())];
    slow_sums.push_back(std::move(sums));
  }
  for (int round = 0; round < 3; ++round) {
    resample_plan shared;
    std::vector<std::vector<std::vector<double>>> sums(4, std::vector<std::vector<double>>(samples.size()));
    std::vector<std::vector<interval>> got(4, std::vector<interval>(samples.size()));
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        ++ready;
        while (ready.load() < 4) std::this_thread::yield();
        for (std::size_t k = 0; k < samples.size(); ++k) {
          if (t % 2 == 0) sums[t][k] = shared.resampled_sums(samples[k]);
          got[t][k] = shared.mean_interval(samples[k]);
        }
      });
    }
    for (auto& t : threads) t.join();
    for (std::size_t t = 0; t < 4; ++t) {
      for (std::size_t k = 0; k < samples.size(); ++k) {
        INFO("round " << round << ", thread " << t << ", sample " << k);
        CHECK(got[t][k].low == doctest::Approx(slow[k].low).epsilon(1e-12));
        CHECK(got[t][k].high == doctest::Approx(slow[k].high).epsilon(1e-12));
        if (t % 2 == 0) CHECK(sums[t][k] == slow_sums[k]);
      }
    }
  }
}

TEST_CASE("bounded_draws jumps ahead in the stream and counts the draws it rejects") {
  // skip(k) is k draws.
  resample_source stepped(default_seed);
  resample_source jumped(default_seed);
  for (int k = 0; k < 12345; ++k) stepped.next();
  jumped.skip(12345);
  for (int k = 0; k < 100; ++k) REQUIRE(jumped.next() == stepped.next());
  // A bounded_draws that skipped k draws continues as one that drew them (none rejected here).
  bounded_draws from_start(default_seed, 1034);
  for (int k = 0; k < 5000; ++k) from_start.next();
  REQUIRE(from_start.rejected() == 0);
  bounded_draws from_there(default_seed, 1034, 5000);
  for (int k = 0; k < 5000; ++k) REQUIRE(from_there.next() == from_start.next());
  // With n = 2^63 + 1, draws of 2^63 + 1 or more are rejected (about half): each one counted, and
  // the draws kept are the stream's own.
  const std::uint64_t n = (1ULL << 63) + 1;
  resample_source raw(5);
  bounded_draws draws(5, n);
  std::uint64_t rejected = 0;
  for (int k = 0; k < 1000; ++k) {
    std::uint64_t a = raw.next();
    while (a >= n) {
      ++rejected;
      a = raw.next();
    }
    REQUIRE(draws.next() == a % n);
  }
  CHECK(rejected > 300);
  CHECK(draws.rejected() == rejected);
}

TEST_CASE("remainders by multiplication for every sample size the plan keeps counts for") {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  resample_source numbers(11);
  for (std::uint64_t n = 1; n <= resample_plan::max_counted_size; ++n) {
    const bounded_draws draws(1, n);
    for (const std::uint64_t a : {std::uint64_t{0}, std::uint64_t{1}, n - 1, n, n + 1, 2 * n - 1, max / n * n,
                                  max / n * n - 1, max - 1, max}) {
      if (draws.remainder(a) != a % n) {
        FAIL_CHECK("n = " << n << ", a = " << a << ": " << draws.remainder(a) << " != " << a % n);
        break;
      }
    }
    for (int k = 0; k < 8; ++k) {
      const std::uint64_t a = numbers.next();
      if (draws.remainder(a) != a % n) {
        FAIL_CHECK("n = " << n << ", a = " << a << ": " << draws.remainder(a) << " != " << a % n);
        break;
      }
    }
  }
}

TEST_CASE("bootstrap intervals equal the slow reference for any number of resamples") {
  // Few resamples put both percentiles on the same or neighbouring order statistics.
  std::vector<double> values = mixed_scores();
  for (std::size_t i = 0; i < values.size(); ++i) values[i] += 0.001 * static_cast<double>(i % 11);
  for (const std::size_t resamples : std::vector<std::size_t>{1, 2, 3, 4, 5, 40, 41, 999}) {
    INFO(resamples);
    const interval fast = bootstrap_mean(values, resamples, 3);
    const interval slow = reference_interval(values, resamples, 3);
    CHECK(fast.low == doctest::Approx(slow.low).epsilon(1e-12));
    CHECK(fast.high == doctest::Approx(slow.high).epsilon(1e-12));
  }
}

TEST_CASE("bootstrap percentiles are exactly those of the sorted resampled means, whatever the values") {
  // The percentiles are selected among the resampled sums (by buckets of their range); the slow way
  // sorts all the means. The same order statistics give the same bits.
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  std::vector<std::vector<double>> cases;
  std::vector<double> v;
  for (int i = 0; i < 300; ++i) v.push_back(0.1 * (i % 10));  // many ties among the sums
  cases.push_back(v);
  v.back() = 1e12;  // one outlier: nearly every sum in the lowest bucket
  cases.push_back(v);
  v.assign(300, 0.3);  // sums equal up to rounding
  cases.push_back(v);
  v.clear();
  for (int i = 0; i < 257; ++i) v.push_back((i % 2 ? -1.0 : 1.0) * (0.25 + 0.001 * i));  // around zero
  cases.push_back(v);
  v.assign(40, 0.5);
  v[7] = std::numeric_limits<double>::infinity();  // not finite: selected without buckets
  cases.push_back(v);
  for (const std::size_t resamples : std::vector<std::size_t>{1, 2, 7, 1000}) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      INFO("resamples " << resamples << ", case " << c);
      resample_plan plan(resamples, 5);
      std::vector<double> means = plan.resampled_sums(cases[c]);
      for (double& m : means) m /= static_cast<double>(cases[c].size());
      std::sort(means.begin(), means.end());
      const auto at = [&](double q) {
        const double pos = q * static_cast<double>(means.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, means.size() - 1);
        return means[lo] + (pos - static_cast<double>(lo)) * (means[hi] - means[lo]);
      };
      const interval i = plan.mean_interval(cases[c]);
      CHECK(same(i.low, at(0.025)));
      CHECK(same(i.high, at(0.975)));
    }
  }
}

TEST_CASE("verdicts' intervals equal the slow reference for any number of resamples") {
  // Few resamples put both percentiles on the same or neighbouring counts (their ranks out of order).
  std::vector<double> verdicts;
  for (std::size_t i = 0; i < 120; ++i) verdicts.push_back((i * 7919 + i / 3) % 5 < 3 ? 1.0 : 0.0);
  for (const std::size_t resamples : std::vector<std::size_t>{1, 2, 3, 4, 5, 40, 41, 999}) {
    INFO(resamples);
    const interval counted = resample_plan(resamples, 8).mean_interval(verdicts);
    const interval slow = reference_interval(verdicts, resamples, 8);
    CHECK(counted.low == slow.low);
    CHECK(counted.high == slow.high);
  }
}

TEST_CASE("intervals computed ahead in batches are those computed one at a time, bit for bit") {
  // Sets of a few sizes (many of one size, as a summary has), verdicts and scores, repeated sets,
  // empty sets and a set larger than the plan keeps counts for.
  std::vector<std::vector<double>> sets;
  for (std::size_t k = 0; k < 70; ++k) {
    const std::size_t n = k % 3 == 0 ? 1034 : (k % 3 == 1 ? 37 : 300 + k);
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t h = (i * 2654435761u + k * 40503u) % 97;
      values.push_back(k % 2 == 0 ? (h < 60 ? 1.0 : 0.0) : (h < 40 ? 1.0 : (h < 70 ? 0.0 : h / 97.0)));
    }
    sets.push_back(values);
  }
  sets.push_back(sets[5]);
  sets.emplace_back();
  sets.emplace_back(resample_plan::max_counted_size + 3, 1.0);
  sets.back()[17] = 0.25;
  for (const std::size_t resamples : std::vector<std::size_t>{0, 1, 7, 130, 1000}) {
    for (const unsigned threads : {1u, 2u}) {
      INFO("resamples " << resamples << ", threads " << threads);
      resample_plan ahead(resamples, 21);
      // Two intervals kept before: they are returned, not computed again.
      ahead.mean_interval(sets[1]);
      ahead.mean_interval(sets[4]);
      const std::vector<interval> got = ahead.compute_intervals(sets, threads);
      REQUIRE(got.size() == sets.size());
      resample_plan one_at_a_time(resamples, 21);
      bool same = true;
      for (std::size_t k = 0; k < sets.size(); ++k) {
        const interval b = one_at_a_time.mean_interval(sets[k]);  // ({0, 0, 0} for the empty set)
        same = same && got[k].mean == b.mean && got[k].low == b.low && got[k].high == b.high;
        // And kept: the plan gives the same again.
        const interval again = ahead.mean_interval(sets[k]);
        same = same && again.low == b.low && again.high == b.high;
      }
      CHECK(same);
    }
  }
  // And those of the slow reference.
  resample_plan ahead(1000, 21);
  ahead.compute_intervals(sets, 0);
  for (const std::size_t k : {0, 1, 2, 3}) {
    const interval a = ahead.mean_interval(sets[k]);
    const interval slow = reference_interval(sets[k], 1000, 21);
    CHECK(a.low == doctest::Approx(slow.low).epsilon(1e-12));
    CHECK(a.high == doctest::Approx(slow.high).epsilon(1e-12));
  }
}
