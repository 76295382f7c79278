// BIRD's official metrics (plugins/metrics_bird): Soft-F1 against a plain transcription of BIRD's
// calculate_f1_score on random results, its documented rules case by case, the optimally paired
// variant, and R-VES's reward mapping and outlier rule on injected timings (never real ones).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <sqlmorph/query_timer.hpp>
#include <sqlmorph/row_matcher.hpp>
#include <sqlmorph/scorer.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using test::make_result;

namespace {

scores evaluate(const std::string& technique, const result& g, const result& p) {
  core::match_memo memo;
  return test::technique(technique)->evaluate(match_input{g, p, "SELECT", "SELECT"}, memo);
}

// BIRD's calculate_f1_score, transcribed as plainly as possible (Python lists and `in`).
double bird_f1_oracle(const result& gold, const result& pred) {
  using row = std::vector<value>;
  const auto rows_of = [](const result& r) {
    std::vector<row> out;
    for (std::size_t i = 0; i < r.row_count(); ++i) {
      const auto cells = r.row(i);
      out.emplace_back(cells.begin(), cells.end());
    }
    return out;
  };
  std::vector<row> predicted = rows_of(pred);
  std::vector<row> ground_truth = rows_of(gold);
  if (predicted.empty() && ground_truth.empty()) return 1.0;
  const auto same = [](const row& a, const row& b) { return rows_equal(a, b); };
  const auto dedup = [&](const std::vector<row>& rows) {  // dict.fromkeys
    std::vector<row> out;
    for (const row& r : rows) {
      if (std::none_of(out.begin(), out.end(), [&](const row& o) { return same(o, r); })) out.push_back(r);
    }
    return out;
  };
  predicted = dedup(predicted);
  ground_truth = dedup(ground_truth);
  const auto in = [](const value& v, const row& r) {
    return std::any_of(r.begin(), r.end(), [&](const value& x) { return reference_equal(x, v); });
  };
  std::vector<double> match_scores, pred_only_scores, truth_only_scores;
  for (std::size_t i = 0; i < ground_truth.size(); ++i) {
    if (i >= predicted.size()) {
      match_scores.push_back(0);
      truth_only_scores.push_back(1);
      continue;
    }
    const double total = static_cast<double>(ground_truth[i].size());
    double matches = 0, pred_only = 0, truth_only = 0;
    for (const value& v : predicted[i]) (in(v, ground_truth[i]) ? matches : pred_only) += 1;
    for (const value& v : ground_truth[i]) truth_only += in(v, predicted[i]) ? 0 : 1;
    match_scores.push_back(matches / total);
    pred_only_scores.push_back(pred_only / total);
    truth_only_scores.push_back(truth_only / total);
  }
  for (std::size_t i = ground_truth.size(); i < predicted.size(); ++i) {
    match_scores.push_back(0);
    pred_only_scores.push_back(1);
    truth_only_scores.push_back(0);
  }
  double tp = 0, fp = 0, fn = 0;
  for (double x : match_scores) tp += x;
  for (double x : pred_only_scores) fp += x;
  for (double x : truth_only_scores) fn += x;
  const double precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const double recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0;
}

result random_result(std::mt19937& rng, std::size_t rows, std::size_t columns) {
  result r;
  std::vector<std::string> names;
  for (std::size_t c = 0; c < columns; ++c) names.push_back("c" + std::to_string(c));
  r.set_columns(names);
  std::uniform_int_distribution<int> pick(0, 9);
  for (std::size_t i = 0; i < rows * columns; ++i) {
    const int k = pick(rng);
    if (k == 0)
      r.append_null();
    else if (k < 5)
      r.append_integer(k % 3);
    else if (k < 7)
      r.append_real(static_cast<double>(k % 3));
    else
      r.append_text(k == 7 ? "1" : "x");
  }
  return r;
}

// A query timer that returns timings a test chose, and counts how often it was asked.
class injected_timer final : public query_timer {
 public:
  explicit injected_timer(timed_runs runs) : runs_(std::move(runs)) {}
  timed_runs repeat(std::size_t iterations) override {
    ++calls;
    asked = iterations;
    return runs_;
  }
  int calls = 0;
  std::size_t asked = 0;

 private:
  timed_runs runs_;
};

// R-VES of an example whose results are equal, with per-iteration ratios gold/pred = `ratios`.
scores ves_with_ratios(const std::vector<double>& ratios, injected_timer** used = nullptr) {
  timed_runs runs;
  for (const double r : ratios) {
    runs.gold_ms.push_back(r);
    runs.pred_ms.push_back(1.0);
  }
  static injected_timer* last = nullptr;
  auto timer = std::make_shared<injected_timer>(runs);
  const auto ves = test::registry().create<scorer>(
      core::component_spec("bird_ves").with("iterations", static_cast<std::int64_t>(ratios.size())));
  const result g = make_result({"a"}, {{1}, {2}});
  const result p = make_result({"b"}, {{2}, {1}});
  const scores s = ves->score(match_input{g, p, "", "", timer.get()}, {}, {});
  last = timer.get();
  if (used != nullptr) *used = last;
  CHECK(timer->calls == 1);
  CHECK(timer->asked == ratios.size());
  return s;
}

std::optional<field_value> extra(const scores& s, const std::string& name) {
  for (const auto& [key, v] : s.extra) {
    if (key == name) return v;
  }
  return std::nullopt;
}

double reward_of(const scores& s) {
  return std::get<double>(*extra(s, "reward"));
}

}  // namespace

TEST_CASE("bird_soft_f1 is BIRD's calculate_f1_score on thousands of random results") {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<std::size_t> size(0, 6);
  for (int i = 0; i < 3000; ++i) {
    const std::size_t columns = 1 + size(rng) % 3;
    const result g = random_result(rng, size(rng), columns);
    const result p = random_result(rng, size(rng), 1 + size(rng) % 3);
    const scores s = evaluate("bird_soft_f1", g, p);
    CAPTURE(i);
    REQUIRE(s.f1);
    CHECK(*s.f1 == bird_f1_oracle(g, p));  // bit for bit: the same sums in the same order
    CHECK(*s.ex == (rows_set_equal(g, p) ? 1.0 : 0.0));
  }
}

TEST_CASE("bird_soft_f1 follows BIRD's rules, and soft_f1_matched pairs rows optimally") {
  struct row_case {
    const char* what;
    result gold;
    result pred;
    double bird;     // BIRD's F1 (calculate_f1_score)
    double matched;  // soft_f1_matched
    double ex;
  };
  const std::vector<row_case> cases = [] {
    std::vector<row_case> c;
    c.push_back({"both empty", make_result({"a"}, {}), make_result({"b", "c"}, {}), 1.0, 1.0, 1.0});
    c.push_back({"gold empty", make_result({"a"}, {}), make_result({"a"}, {{1}}), 0.0, 0.0, 0.0});
    c.push_back({"prediction empty", make_result({"a"}, {{1}}), make_result({"a"}, {}), 0.0, 0.0, 0.0});
    c.push_back({"rows in another order: BIRD pairs by position",
                 make_result({"a", "b"}, {{1, "a"}, {2, "b"}}), make_result({"a", "b"}, {{2, "b"}, {1, "a"}}),
                 0.0, 1.0, 1.0});
    c.push_back({"repeated rows dropped, keeping the first", make_result({"a"}, {{1}, {1}, {2}}),
                 make_result({"a"}, {{1}, {2}, {2}}), 1.0, 1.0, 1.0});
    c.push_back({"a value anywhere in the other row matches", make_result({"a", "b"}, {{1, 2}}),
                 make_result({"b", "a"}, {{2, 1}}), 1.0, 1.0, 0.0});
    c.push_back({"an extra predicted row counts 1 as pred-only", make_result({"a"}, {{1}}),
                 make_result({"a"}, {{1}, {3}}), 2.0 / 3.0, 2.0 / 3.0, 0.0});
    c.push_back({"an extra gold row counts 1 as gold-only", make_result({"a"}, {{1}, {3}}),
                 make_result({"a"}, {{1}}), 2.0 / 3.0, 2.0 / 3.0, 0.0});
    c.push_back({"counts are divided by the gold row's length", make_result({"a", "b", "c"}, {{1, 2, 3}}),
                 make_result({"a"}, {{1}}), 0.5, 0.5, 0.0});
    c.push_back({"NULL is an ordinary value", make_result({"a"}, {{nullptr}}),
                 make_result({"a"}, {{nullptr}}), 1.0, 1.0, 1.0});
    // pred 1.0 and 1 are both in the gold row (match 1); the gold's '1' is not in the pred row
    // (truth-only 1/2): P = 1, R = 2/3.
    c.push_back({"1 equals 1.0, '1' does not", make_result({"a", "b"}, {{1, "1"}}),
                 make_result({"a", "b"}, {{1.0, 1}}), 0.8, 0.8, 0.0});
    c.push_back({"a shifted result: one missing row moves every pair",
                 make_result({"a"}, {{1}, {2}, {3}, {4}}), make_result({"a"}, {{2}, {3}, {4}}), 0.0,
                 6.0 / 7.0, 0.0});
    return c;
  }();
  for (const row_case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    const scores bird = evaluate("bird_soft_f1", c.gold, c.pred);
    const scores matched = evaluate("soft_f1_matched", c.gold, c.pred);
    CHECK(*bird.f1 == doctest::Approx(c.bird).epsilon(1e-12));
    CHECK(*bird.f1 == doctest::Approx(bird_f1_oracle(c.gold, c.pred)).epsilon(1e-15));
    CHECK(*matched.f1 == doctest::Approx(c.matched).epsilon(1e-12));
    CHECK(*bird.ex == c.ex);
    CHECK(*matched.ex == c.ex);
  }
  // EXP and EXR are the precision and recall F1 is made of.
  const scores s = evaluate("bird_soft_f1", make_result({"a"}, {{1}}), make_result({"a"}, {{1}, {3}}));
  CHECK(*s.exp == doctest::Approx(0.5));
  CHECK(*s.exr == doctest::Approx(1.0));
}

TEST_CASE("soft_f1_matched: identical rows paired, the rest by the assignment with the most matched share") {
  // Brute force over every pairing of the rows left after identical ones are paired.
  const auto matcher = test::registry().create<row_matcher>(core::component_spec("bird_soft_matched"));
  const auto positional = test::registry().create<row_matcher>(core::component_spec("bird_soft_positional"));
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> size(0, 5);
  for (int i = 0; i < 1500; ++i) {
    const std::size_t columns = 1 + size(rng) % 3;
    const result g = random_result(rng, size(rng), columns);
    const result p = random_result(rng, size(rng), columns);
    const match_input in{g, p, "", ""};
    const row_match ours = matcher->match(in, column_alignment::ignoring_columns());
    // Reorder the rows of the larger side every possible way: positional pairing then tries every
    // pairing of rows, and the best tp among them is the optimum.
    // (On the sides without repeated rows, which is what both matchers pair.)
    const auto distinct = [](const result& r) {
      result out;
      out.set_columns(r.column_names());
      for (std::size_t k = 0; k < r.row_count(); ++k) {
        bool seen = false;
        for (std::size_t j = 0; j < out.row_count() && !seen; ++j) seen = rows_equal(out.row(j), r.row(k));
        if (!seen) {
          for (const value& v : r.row(k)) out.append(v);
        }
      }
      return out;
    };
    const result dg = distinct(g);
    const result dp = distinct(p);
    const bool permute_gold = dg.row_count() >= dp.row_count();
    const result& larger = permute_gold ? dg : dp;
    std::vector<std::size_t> order(larger.row_count());
    std::iota(order.begin(), order.end(), 0);
    double best = 0;
    do {
      result q;
      q.set_columns(larger.column_names());
      for (const std::size_t r : order) {
        for (const value& v : larger.row(r)) q.append(v);
      }
      const match_input shuffled = permute_gold ? match_input{q, dp, "", ""} : match_input{dg, q, "", ""};
      best = std::max(best, positional->match(shuffled, column_alignment::ignoring_columns()).counts.matched);
    } while (std::next_permutation(order.begin(), order.end()));
    CAPTURE(i);
    std::string shown;
    for (const result* r : {&g, &p}) {
      shown += r == &g ? "gold:" : " pred:";
      for (std::size_t k = 0; k < r->row_count(); ++k) {
        shown += " (";
        for (const value& v : r->row(k))
          shown += python_str(v) + std::string(python_type_name(v.kind())) + ",";
        shown += ")";
      }
    }
    CAPTURE(shown);
    // Never below BIRD's own pairing, and at the optimum whenever no row repeats a value.
    CHECK(ours.counts.matched + 1e-12 >=
          positional->match(in, column_alignment::ignoring_columns()).counts.matched);
    bool repeats_inside_rows = false;
    for (const result* r : {&g, &p}) {
      for (std::size_t k = 0; k < r->row_count(); ++k) {
        const auto row = r->row(k);
        for (std::size_t a = 0; a < row.size(); ++a) {
          for (std::size_t b = a + 1; b < row.size(); ++b)
            repeats_inside_rows |= reference_equal(row[a], row[b]);
        }
      }
    }
    if (!repeats_inside_rows) CHECK(ours.counts.matched == doctest::Approx(best).epsilon(1e-12));
  }
}

TEST_CASE("bird_ves maps the mean time ratio to BIRD's rewards") {
  struct reward_case {
    double ratio;
    double reward;
  };
  // Each ratio given for every iteration: σ = 0 would drop them all, so one slightly different
  // value is added far inside 3σ.
  for (const reward_case& c : std::vector<reward_case>{{5.0, 1.25},
                                                       {2.0, 1.25},
                                                       {1.999, 1.0},
                                                       {1.0, 1.0},
                                                       {0.999, 0.75},
                                                       {0.5, 0.75},
                                                       {0.499, 0.5},
                                                       {0.25, 0.5},
                                                       {0.249, 0.25},
                                                       {0.01, 0.25}}) {
    CAPTURE(c.ratio);
    std::vector<double> ratios(9, c.ratio);
    ratios.push_back(c.ratio);
    ratios[0] = c.ratio * (1 + 1e-12);
    ratios[1] = c.ratio * (1 - 1e-12);
    const scores s = ves_with_ratios(ratios);
    CHECK(*s.ex == 1.0);
    CHECK(reward_of(s) == c.reward);
    CHECK(std::get<double>(*extra(s, "time_ratio")) == doctest::Approx(c.ratio).epsilon(1e-9));
    CHECK(std::get<std::int64_t>(*extra(s, "iterations")) == 10);
  }
}

TEST_CASE("bird_ves drops ratios outside mean ± 3σ (strictly) before averaging") {
  // 20 ratios of 1 and one of 100: mean 5.71, σ 21.1, so 100 is an outlier; the mean of the rest
  // is 1 (reward 1), where the plain mean would give 1.25.
  std::vector<double> ratios(20, 1.0);
  ratios.push_back(100.0);
  ratios[0] = 1.0 + 1e-9;
  const scores s = ves_with_ratios(ratios);
  CHECK(reward_of(s) == 1.0);
  CHECK(std::get<double>(*extra(s, "time_ratio")) == doctest::Approx(1.0));
  // Nine ratios of 0.25 and one of 2.75: mean 0.5, σ 0.75 (all exact in binary), so 2.75 lies exactly
  // on mean + 3σ and is dropped too (BIRD keeps only x < mean + 3σ): the mean of the rest is 0.25.
  std::vector<double> edge(9, 0.25);
  edge.push_back(2.75);
  const scores e = ves_with_ratios(edge);
  CHECK(std::get<double>(*extra(e, "time_ratio")) == 0.25);
  CHECK(reward_of(e) == 0.5);
  // Every ratio equal: σ = 0 keeps none, BIRD divides by zero and scores 0.
  const scores same = ves_with_ratios(std::vector<double>(5, 1.5));
  CHECK(reward_of(same) == 0.0);
  CHECK(std::holds_alternative<std::nullptr_t>(*extra(same, "time_ratio")));
}

TEST_CASE("bird_ves times only a correct prediction, and scores failures 0") {
  const auto ves = test::registry().create<scorer>(core::component_spec("bird_ves"));
  timed_runs fast;
  fast.gold_ms.assign(100, 2.0);
  fast.pred_ms.assign(100, 1.0);
  fast.gold_ms[0] = 2.5;
  {
    injected_timer timer(fast);
    const result g = make_result({"a"}, {{1}});
    const result p = make_result({"a"}, {{2}});
    const scores s = ves->score(match_input{g, p, "", "", &timer}, {}, {});
    CHECK(timer.calls == 0);  // rows differ: never timed
    CHECK(*s.ex == 0.0);
    CHECK(reward_of(s) == 0.0);
    CHECK(std::get<std::int64_t>(*extra(s, "iterations")) == 0);
  }
  {
    injected_timer timer(fast);
    const result g = make_result({"a"}, {{1}, {1}});
    const result p = make_result({"b"}, {{1}});  // BIRD compares sets of rows
    const scores s = ves->score(match_input{g, p, "", "", &timer}, {}, {});
    CHECK(timer.asked == 100);  // BIRD's default
    CHECK(reward_of(s) == 1.25);
  }
  {
    timed_runs out_of_time = fast;
    out_of_time.status = query_status::timeout;
    injected_timer timer(out_of_time);
    const result g = make_result({"a"}, {{1}});
    const scores s = ves->score(match_input{g, g, "", "", &timer}, {}, {});
    CHECK(reward_of(s) == 0.0);
  }
  {
    timed_runs zero = fast;
    zero.pred_ms[3] = 0.0;  // BIRD would divide by zero: 0
    injected_timer timer(zero);
    const result g = make_result({"a"}, {{1}});
    CHECK(reward_of(ves->score(match_input{g, g, "", "", &timer}, {}, {})) == 0.0);
  }
  // Without a timer (a caller that cannot execute) the example fails instead of scoring.
  const result g = make_result({"a"}, {{1}});
  CHECK_THROWS_AS(ves->score(match_input{g, g, "", ""}, {}, {}), std::logic_error);
  // A failed example reports reward 0, so it counts in R-VES.
  const scores failed = zero_scores(ves->metrics());
  CHECK(reward_of(failed) == 0.0);
  // One iteration can never be kept by the outlier rule.
  const std::string refused = test::usage_error_of([] {
    test::registry().create<scorer>(core::component_spec("bird_ves").with("iterations", std::int64_t{1}));
  });
  CHECK(refused.find("at least 2") != std::string::npos);
}
