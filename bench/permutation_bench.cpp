// PERF.md target 4: permutation equivalence scales. The official Spider comparison (test_suite)
// on results whose columns share one value set, so value sets alone cannot tell columns apart.
// Targets: 10 columns (20 rows) in ≤ 10 ms; 26 columns × 1,000 rows in ≤ 50 ms; same verdict as
// the reference (checked against full permutation enumeration where that is affordable).
// The reference (test-suite-sql-eval) measured here, 20 rows: 6 columns 0.017 s, 8 columns 5.9 s,
// 10 columns > 290 s (factorial).

#include <cstdio>
#include <numeric>
#include <random>

#include <spdlog/spdlog.h>

#include "bench_util.hpp"
#include "builtin_reference_techniques.hpp"
#include "plugins/component_registry.hpp"
#include "reference_oracles.hpp"
#include "techniques/technique_catalog.hpp"

using namespace sqlmorph;

namespace {

// Every column is a permutation of 0..rows-1; the prediction permutes columns and rows, and when
// `break_it`, swaps two values inside one column (same value sets, different rows).
void make(std::size_t cols, std::size_t rows, bool break_it, unsigned seed, result& gold, result& pred) {
  std::mt19937 rng(seed);
  std::vector<std::vector<long long>> columns(cols, std::vector<long long>(rows));
  for (auto& c : columns) {
    std::iota(c.begin(), c.end(), 0);
    std::shuffle(c.begin(), c.end(), rng);
  }
  std::vector<std::size_t> perm(cols);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<std::size_t> order(rows);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::string> names(cols, "c");
  gold.set_columns(names);
  pred.set_columns(names);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) gold.append_integer(columns[c][r]);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      std::size_t rr = order[r];
      if (break_it && c == cols / 2) rr = rr == order[0] ? order[1] : (rr == order[1] ? order[0] : rr);
      pred.append_integer(columns[perm[c]][rr]);
    }
  }
}

}  // namespace

int main() {
  spdlog::set_level(spdlog::level::off);
  bench::header("permutation equivalence (PERF.md target 4)");
  core::component_registry registry;
  registry.load_directories({SQLMORPH_BENCH_PLUGIN_DIR});
  core::technique_catalog catalog;
  core::add_reference_techniques(catalog);
  const auto test_suite = catalog.assemble({"test_suite"}, core::penalize_choice::yes, registry).front();

  bool met = true;
  struct shape {
    std::size_t cols, rows;
    double target_ms;
  };
  for (const shape sh :
       {shape{6, 20, 0}, shape{8, 20, 0}, shape{10, 20, 10}, shape{16, 200, 0}, shape{26, 1000, 50}}) {
    for (const bool break_it : {false, true}) {
      result gold;
      result pred;
      make(sh.cols, sh.rows, break_it, static_cast<unsigned>(sh.cols * 31 + break_it), gold, pred);
      double ex = -1;
      const bench::timing t = bench::measure(9, [&] {
        core::match_memo memo;
        ex = *test_suite->evaluate(match_input{gold, pred, "SELECT", "SELECT"}, memo).ex;
      });
      std::string verdict;
      if (sh.cols <= 8) {
        const bool want = oracle::spider_result_eq(gold, pred, false);
        verdict += (want == (ex == 1.0)) ? "  = reference" : "  DIFFERS FROM THE REFERENCE";
        met = met && want == (ex == 1.0);
      }
      if (ex != (break_it ? 0.0 : 1.0)) {
        verdict += "  WRONG VERDICT";
        met = false;
      }
      if (sh.target_ms > 0) {
        const bool ok = t.median_ms <= sh.target_ms;
        char buf[64];
        std::snprintf(buf, sizeof buf, "  target <= %g ms: %s", sh.target_ms, ok ? "met" : "NOT MET");
        verdict += buf;
        met = met && ok;
      }
      std::printf("%2zu columns x %4zu rows, %-9s %s  verdict=%g%s\n", sh.cols, sh.rows,
                  break_it ? "unequal" : "equal", bench::format(t).c_str(), ex, verdict.c_str());
    }
  }
  std::printf("\ntargets: %s\n", met ? "met" : "NOT MET");
  return met ? 0 : 1;
}
