// The reference techniques on hand-built results: each fast component agrees with a plain
// transcription of the reference algorithm (tests/support/reference_oracles.cpp) on thousands of
// random cases, and the documented quirks and rules hold.

#include <doctest/doctest.h>

#include <limits>
#include <numeric>
#include <random>

#include <sqlmorph/normalizer.hpp>
#include <sqlmorph/sql_rewriter.hpp>

#include "reference_oracles.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using test::make_result;

namespace {

scores evaluate(const std::shared_ptr<const core::technique>& t, const result& g, const result& p,
                std::string_view gold_sql = "SELECT", std::string_view pred_sql = "SELECT") {
  core::match_memo memo;
  return t->evaluate(match_input{g, p, gold_sql, pred_sql}, memo);
}

// Random results over a small pool of values, so rows collide, repeat and half-match often.
class random_results {
 public:
  explicit random_results(unsigned seed) : rng_(seed) {}

  result make(std::size_t rows, const std::vector<std::string>& names) {
    result r;
    r.set_columns(names);
    for (std::size_t i = 0; i < rows * names.size(); ++i) append_random(r);
    return r;
  }
  std::vector<std::string> names(std::size_t n) {
    static const char* pool[] = {"a", "b", "c", "d", "B"};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) out.emplace_back(pool[pick(5)]);
    return out;
  }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  void append_random(result& r) {
    switch (pick(10)) {
      case 0:
        r.append_null();
        break;
      case 1:
      case 2:
      case 3:
        r.append_integer(static_cast<long long>(pick(4)));
        break;
      case 4:
      case 5:
        r.append_real(static_cast<double>(pick(4)) / 2.0);
        break;
      case 6:
        r.append_text("1");
        break;
      case 7:
        r.append_text("None");
        break;
      default:
        r.append_text(pick(2) ? "x" : "y");
        break;
    }
  }
  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
};

void check_close(const scores& got, const scores& want) {
  REQUIRE(got.ex.has_value());
  CHECK(*got.ex == *want.ex);
  CHECK(*got.exp == doctest::Approx(*want.exp).epsilon(1e-12));
  CHECK(*got.exr == doctest::Approx(*want.exr).epsilon(1e-12));
  CHECK(*got.f1 == doctest::Approx(*want.f1).epsilon(1e-12));
}

}  // namespace

TEST_CASE("exact-column techniques equal the reference loops on random results") {
  random_results gen(20261122);
  const auto exact_t = test::technique("exact_column_and_exact_cell", true);
  const auto exact_f = test::technique("exact_column_and_exact_cell", false);
  const auto partial_t = test::technique("exact_column_and_partial_cell", true);
  const auto partial_f = test::technique("exact_column_and_partial_cell", false);
  for (int trial = 0; trial < 1500; ++trial) {
    const result g = gen.make(gen.pick(12), gen.names(1 + gen.pick(4)));
    const result p = gen.make(gen.pick(12), gen.names(1 + gen.pick(4)));
    CAPTURE(trial);
    check_close(evaluate(exact_t, g, p), oracle::sqlmorph_exact_column(g, p, false, true));
    check_close(evaluate(exact_f, g, p), oracle::sqlmorph_exact_column(g, p, false, false));
    const scores got = evaluate(partial_t, g, p);
    const scores want = oracle::sqlmorph_exact_column(g, p, true, true);
    check_close(got, want);
    // Bit for bit: the same additions in the same order.
    CHECK(*got.exp == *want.exp);
    check_close(evaluate(partial_f, g, p), oracle::sqlmorph_exact_column(g, p, true, false));
  }
}

TEST_CASE("no-column technique equals the reference loops on random results") {
  random_results gen(7);
  const auto t = test::technique("no_column_and_partial_cell", true);
  const auto f = test::technique("no_column_and_partial_cell", false);
  for (int trial = 0; trial < 1500; ++trial) {
    const result g = gen.make(gen.pick(12), gen.names(1 + gen.pick(4)));
    const result p = gen.make(gen.pick(12), gen.names(1 + gen.pick(4)));
    CAPTURE(trial);
    check_close(evaluate(t, g, p), oracle::sqlmorph_no_column(g, p, true));
    check_close(evaluate(f, g, p), oracle::sqlmorph_no_column(g, p, false));
  }
}

TEST_CASE(
    "partial matching of a few gold rows against a large result (rows scanned) equals the reference loops") {
  // A few gold rows ask for partners a few times: the predicted rows are scanned instead of
  // indexed, until scanning would have cost as much as the index; both give the same rows.
  random_results gen(4242);
  const auto exact = test::technique("exact_column_and_partial_cell", true);
  const auto none = test::technique("no_column_and_partial_cell", true);
  for (int trial = 0; trial < 60; ++trial) {
    const auto names = gen.names(1 + gen.pick(4));
    const result g = gen.make(1 + gen.pick(4), names);
    const result p = gen.make(150 + gen.pick(150), gen.pick(2) ? names : gen.names(1 + gen.pick(4)));
    CAPTURE(trial);
    check_close(evaluate(exact, g, p), oracle::sqlmorph_exact_column(g, p, true, true));
    check_close(evaluate(none, g, p), oracle::sqlmorph_no_column(g, p, true));
  }
}

TEST_CASE("no-column technique: values are the same item exactly when their str() is the same") {
  const auto t = test::technique("no_column_and_partial_cell", true);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // str(): 1 == "1", 1.0 == "1.0", NaN == NaN ("nan"), None == "None"; 1 != 1.0, -0.0 != 0.0.
  const result g = make_result({"a"}, {{1}, {1.0}, {nan}, {nullptr}, {-0.0}, {2}});
  const result p = make_result({"a"}, {{"1"}, {"1.0"}, {-nan}, {"None"}, {0.0}, {2.0}});
  const scores got = evaluate(t, g, p);
  check_close(got, oracle::sqlmorph_no_column(g, p, true));
  CHECK(*got.exp == doctest::Approx(4.0 / 6.0));
}

TEST_CASE("partial matching on wide rows (posting-list path) equals the reference loops") {
  random_results gen(99);
  const auto t = test::technique("exact_column_and_partial_cell", true);
  const auto n = test::technique("no_column_and_partial_cell", true);
  std::vector<std::string> names;
  for (int c = 0; c < 12; ++c) names.push_back("c" + std::to_string(c));
  for (int trial = 0; trial < 150; ++trial) {
    const result g = gen.make(gen.pick(10), names);
    const result p = gen.make(gen.pick(10), names);
    CAPTURE(trial);
    check_close(evaluate(t, g, p), oracle::sqlmorph_exact_column(g, p, true, true));
    check_close(evaluate(n, g, p), oracle::sqlmorph_no_column(g, p, true));
  }
}

TEST_CASE("Spider comparison equals result_eq with every permutation enumerated") {
  random_results gen(1234);
  const auto t = test::technique("test_suite");
  int equal_cases = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t cols = 1 + gen.pick(6);
    const std::size_t rows = gen.pick(7);
    const result g = gen.make(rows, gen.names(cols));
    // The prediction: gold with columns and rows shuffled, sometimes with one cell changed, or
    // sometimes unrelated rows.
    std::vector<std::size_t> perm(cols);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), gen.rng());
    std::vector<std::size_t> order(rows);
    std::iota(order.begin(), order.end(), 0);
    if (gen.pick(2)) std::shuffle(order.begin(), order.end(), gen.rng());
    result p;
    p.set_columns(gen.names(cols));
    const std::size_t change = gen.pick(3) == 0 && rows > 0 ? gen.pick(rows * cols) : SIZE_MAX;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        if (r * cols + c == change)
          gen.append_random(p);
        else
          p.append(g.cell(order[r], perm[c]));
      }
    }
    const bool ordered = gen.pick(2) == 1;
    const std::string gold_sql = ordered ? "SELECT x FROM t ORDER BY x" : "SELECT x FROM t";
    CAPTURE(trial);
    const bool want = oracle::spider_result_eq(g, p, ordered);
    const scores got = evaluate(t, g, p, gold_sql);
    CHECK(*got.ex == (want ? 1.0 : 0.0));
    equal_cases += want;
  }
  CHECK(equal_cases > 500);  // the generator does produce both outcomes
}

TEST_CASE("Spider comparison keeps the official quick-rejection quirk") {
  const auto t = test::technique("test_suite");
  // (1,) vs (1.0,): equal. (1, 1.5) vs (1.0, 1.5): rejected, because the values are sorted by
  // str(v) + type name before comparing ("1.5<class 'float'>" sorts before "1<class 'int'>").
  CHECK(*evaluate(t, make_result({"a"}, {{1}}), make_result({"a"}, {{1.0}})).ex == 1.0);
  CHECK(*evaluate(t, make_result({"a", "b"}, {{1, 1.5}}), make_result({"a", "b"}, {{1.0, 1.5}})).ex == 0.0);
  // Any column order; rows as a multiset unless the gold says "order by".
  const result g = make_result({"a", "b"}, {{1, "x"}, {2, "y"}, {2, "y"}});
  const result p = make_result({"b", "a"}, {{"y", 2}, {"x", 1}, {"y", 2}});
  CHECK(*evaluate(t, g, p, "SELECT a, b FROM t").ex == 1.0);
  CHECK(*evaluate(t, g, p, "SELECT a, b FROM t ORDER BY a").ex == 0.0);
  CHECK(*evaluate(t, g, make_result({"b", "a"}, {{"x", 1}, {"y", 2}, {"y", 2}}), "SELECT a FROM t order by a")
             .ex == 1.0);
  // Duplicates count.
  CHECK(*evaluate(t, g, make_result({"a", "b"}, {{1, "x"}, {1, "x"}, {2, "y"}})).ex == 0.0);
  // Both empty: equal whatever the columns.
  CHECK(*evaluate(t, make_result({"a"}, {}), make_result({"b", "c"}, {})).ex == 1.0);
  // The substring rule: a newline between ORDER and BY does not count.
  const scores s = evaluate(t, g, p, "SELECT a, b FROM t ORDER\nBY a");
  CHECK(*s.ex == 1.0);
  REQUIRE(s.extra.size() == 2);
  CHECK(s.extra[0].first == "order_matters");
  CHECK(std::get<bool>(s.extra[0].second) == false);
  // Then how the columns were paired (the Spider comparison tries every column order).
  CHECK(s.extra[1].first == "alignment");
  CHECK(std::get<std::string>(s.extra[1].second) == "(any column order)");
}

TEST_CASE("permutation search scales: 26 columns sharing one value set") {
  const auto t = test::technique("test_suite");
  std::mt19937 rng(5);
  const std::size_t cols = 26;
  const std::size_t rows = 1000;
  std::vector<std::vector<int>> columns(cols);
  for (auto& c : columns) {
    c.resize(rows);
    std::iota(c.begin(), c.end(), 0);
    std::shuffle(c.begin(), c.end(), rng);
  }
  std::vector<std::size_t> perm(cols);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  result g;
  result p;
  std::vector<std::string> names(cols, "c");
  g.set_columns(names);
  p.set_columns(names);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) g.append_integer(columns[c][r]);
    for (std::size_t c = 0; c < cols; ++c) p.append_integer(columns[perm[c]][(r * 7) % rows]);
  }
  CHECK(*evaluate(t, g, p).ex == 1.0);
  // Swap two values inside one column of the prediction: the column sets stay equal, the rows do not.
  result q;
  q.set_columns(names);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      std::size_t rr = (r * 7) % rows;
      if (c == 3 && rr == 0)
        rr = 1;
      else if (c == 3 && rr == 1)
        rr = 0;
      q.append_integer(columns[perm[c]][rr]);
    }
  }
  CHECK(*evaluate(t, g, q).ex == 0.0);
}

TEST_CASE("exact-column matching uses the last position of a duplicated name and code point order") {
  const auto t = test::technique("exact_column_and_exact_cell", true);
  // Gold columns name, name: the second one (d.name) is compared.
  const result g = make_result({"name", "name"}, {{"ann", "eng"}, {"bob", "ops"}});
  const result p = make_result({"name"}, {{"eng"}, {"zed"}});
  const scores s = evaluate(t, g, p);
  CHECK(*s.exp == 0.5);
  CHECK(*s.exr == 0.25);
  // Case-sensitive names: "B" and "b" are different columns.
  const scores none = evaluate(t, make_result({"B"}, {{1}}), make_result({"b"}, {{2}}));
  CHECK(*none.exp == 0.0);
  CHECK(*none.f1 == 0.0);
}

TEST_CASE("greedy partial matching breaks ties by the first pair in row-major order") {
  const auto t = test::technique("exact_column_and_partial_cell", true);
  // Every pair but (g1, p1) shares 2 of 3 cells. The reference takes (g0, p0) first — the first pair
  // in row-major order — which leaves g1 with p1 (1 of 3), although (g0, p1) + (g1, p0) would do
  // better: the result is 3 matched cells of 6, not 4.
  const result g = make_result({"a", "b", "c"}, {{1, 2, 3}, {1, 7, 0}});
  const result p = make_result({"a", "b", "c"}, {{1, 2, 0}, {1, 2, 4}});
  const scores s = evaluate(t, g, p);
  CHECK(*s.exp == 0.5);
  check_close(s, oracle::sqlmorph_exact_column(g, p, true, true));
}

TEST_CASE("custom cell matchers: an equivalence keeps the fast path, a similarity scores all pairs") {
  core::component_registry reg;
  reg.load_directories({test::plugin_dir(), test::build_dir() / "tests" / "test_plugins"});
  const core::technique_catalog& cat = test::catalog();
  core::technique_spec ci = *cat.find("exact_column_and_partial_cell");
  ci.rows.with("cells", std::string("case_insensitive"));
  const auto case_insensitive = core::technique::assemble(ci, reg);
  core::technique_spec tol = *cat.find("exact_column_and_partial_cell");
  tol.rows.with("cells", std::make_shared<const core::component_spec>(
                             core::component_spec("numeric_tolerance").with("tolerance", 0.05)));
  const auto tolerant = core::technique::assemble(tol, reg);

  const result g = make_result({"n", "v"}, {{"Ann", 1.0}, {"Bob", 2.0}});
  const result p = make_result({"n", "v"}, {{"ann", 1.01}, {"BOB", 2.0}});
  CHECK(*evaluate(test::technique("exact_column_and_partial_cell", true), g, p).exp == 0.25);
  CHECK(*evaluate(case_insensitive, g, p).exp == 0.75);
  CHECK(*evaluate(tolerant, g, p).exp == 0.5);
}

TEST_CASE("a run sweeps the option a scorer declares sweepable, whatever its name") {
  core::component_registry reg;
  reg.load_directories({test::plugin_dir(), test::build_dir() / "tests" / "test_plugins"});
  core::technique_catalog cat;
  core::technique_spec half = *test::catalog().find("exact_column_and_partial_cell");
  half.name = "half";
  half.scorer = core::component_spec("half_credit");
  cat.add(half);
  core::technique_spec fixed = half;
  fixed.name = "half_fixed";
  fixed.scorer.with("lenient", true);
  cat.add(fixed);

  const auto both = cat.assemble({"half", "half_fixed"}, core::penalize_choice::both, reg);
  REQUIRE(both.size() == 3);
  CHECK(both[0]->name() == "half");
  CHECK(both[0]->penalize_extra_pred_cols() == std::optional<bool>(true));
  CHECK(both[1]->name() == "half");
  CHECK(both[1]->penalize_extra_pred_cols() == std::optional<bool>(false));
  CHECK(both[2]->name() == "half_fixed");  // fixed by the technique: one variant, its value reported
  CHECK(both[2]->penalize_extra_pred_cols() == std::optional<bool>(true));
  const auto only_false = cat.assemble({"half"}, core::penalize_choice::no, reg);
  REQUIRE(only_false.size() == 1);
  CHECK(only_false[0]->penalize_extra_pred_cols() == std::optional<bool>(false));

  // The variants really differ: 2 of 4 gold cells match.
  const result g = make_result({"n", "v"}, {{"Ann", 1.0}, {"Bob", 2.0}});
  const result p = make_result({"n", "v"}, {{"Ann", 1.0}, {"Eve", 3.0}});
  CHECK(*evaluate(both[0], g, p).ex == 1.0);
  CHECK(*evaluate(both[1], g, p).ex == 0.0);
  CHECK(*evaluate(both[2], g, p).ex == 1.0);
}

TEST_CASE("the official rewrites: DISTINCT removed as tokens, spaced operators fixed, CURDATE year") {
  const auto& reg = test::registry();
  const auto remove = reg.create<sql_rewriter>(core::component_spec("spider_remove_distinct"));
  const auto keep =
      reg.create<sql_rewriter>(core::component_spec("spider_remove_distinct").with("keep_distinct", true));
  const auto ops = reg.create<sql_rewriter>(core::component_spec("spider_fix_spaced_operators"));
  const auto year = reg.create<sql_rewriter>(core::component_spec("spider_curdate_year"));
  const auto rw = [](const auto& r, std::string_view sql) { return r->rewrite(sql, query_role::pred).sql; };
  CHECK(rw(remove, "SELECT DISTINCT name FROM t") == "SELECT  name FROM t");
  CHECK(rw(remove, "select count(distinct a), 'distinct', \"distinct\" from t") ==
        "select count( a), 'distinct', \"distinct\" from t");
  CHECK(rw(remove, "SELECT distinct_count FROM t -- DISTINCT") == "SELECT distinct_count FROM t -- DISTINCT");
  CHECK(rw(remove, "SELECT DISTINCT a FROM t; DROP TABLE t") == "SELECT  a FROM t;");
  CHECK(rw(keep, "SELECT DISTINCT a FROM t; x") == "SELECT DISTINCT a FROM t; x");
  CHECK_FALSE(remove->rewrite("  \n", query_role::pred).ok);
  CHECK(rw(ops, "a > = 1 AND b < = 2 AND c ! = 3") == "a >= 1 AND b <= 2 AND c != 3");
  CHECK(rw(year, "SELECT year(curdate()) - 2000, YEAR ( CURDATE ( ) )  + 1") == "SELECT 2020- 2000, 2020+ 1");
}

TEST_CASE("normalizers copy a result only when a value changes, from the first value that does") {
  const auto& reg = test::registry();
  const auto numbers = reg.create<normalizer>(core::component_spec("numbers_from_text").with("trim", true));
  const auto fold = reg.create<normalizer>(core::component_spec("case_fold"));
  // Nothing to change: no copy, and normalize() still gives an equal result.
  std::vector<std::vector<test::cell>> rows;
  for (int i = 0; i < 10000; ++i) rows.push_back({i, "name_" + std::to_string(i), i / 4.0, nullptr});
  const result plain = make_result({"id", "name", "score", "none"}, rows);
  CHECK_FALSE(numbers->normalize_if_changed(plain).has_value());
  CHECK_FALSE(fold->normalize_if_changed(plain).has_value());
  const result same = numbers->normalize(plain);
  REQUIRE(same.row_count() == plain.row_count());
  CHECK(same.cell(9999, 1).bytes() == "name_9999");

  // A change deep inside: every value before it copied, the changed one normalized, the rest too.
  rows[7000][1] = " 42 ";
  rows[9000][1] = "3.5";
  const result mixed = make_result({"id", "name", "score", "none"}, rows);
  const std::optional<result> changed = numbers->normalize_if_changed(mixed);
  REQUIRE(changed.has_value());
  REQUIRE(changed->row_count() == mixed.row_count());
  CHECK(changed->column_names() == mixed.column_names());
  CHECK(changed->cell(6999, 1).bytes() == "name_6999");
  CHECK(changed->cell(7000, 1).kind() == value_kind::integer);
  CHECK(changed->cell(7000, 1).as_integer() == 42);
  CHECK(changed->cell(9000, 1).kind() == value_kind::real);
  CHECK(changed->cell(9999, 2).as_real() == 9999 / 4.0);
  CHECK(changed->cell(9999, 3).kind() == value_kind::null);

  // The first value already changes.
  const result upper = make_result({"n"}, {{"ABC"}, {"abc"}});
  const std::optional<result> folded = fold->normalize_if_changed(upper);
  REQUIRE(folded.has_value());
  CHECK(folded->cell(0, 0).bytes() == "abc");
  CHECK(folded->cell(1, 0).bytes() == "abc");
}
