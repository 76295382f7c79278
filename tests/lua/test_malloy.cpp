// The Malloy-style evaluator (scripts/lib/malloy.lua): the behaviour of its seed table, its options,
// and how its verdicts compare with the official Spider comparison on the Spider dev parity cases.

#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>
#include <sqlmorph/backend.hpp>

#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "lua/script_host.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using test::make_result;

namespace {

// The reference scripts, plus Malloy variants and the official comparison with one difference at a
// time switched to Malloy's side.
const char* variants_script = R"(
local malloy = require("malloy")
malloy.technique{ name = "malloy_tolerant", float_digits = 6, case_fold = true, trim = true }
local c, r, s = sqlmorph.columns, sqlmorph.rows, sqlmorph.scorers
local function spider(name, order_rule, quick_reject, typed)
  sqlmorph.technique{ name = name, normalize = typed and malloy.normalizers{} or {}, columns = c.any_order{},
    rows = r.permutation_equivalence{ order_rule = order_rule, quick_reject = quick_reject }, scorer = s.verdict{} }
end
-- one bit per difference: 1 = order rule from tokens, 2 = no quick rejection, 4 = numbers from text
for bits = 1, 7 do
  spider("switch_" .. bits, (bits & 1) ~= 0 and "sql_tokens" or "sql_substring", (bits & 2) == 0, (bits & 4) ~= 0)
end
)";

struct malloy_fixture {
  test::temp_dir dir;
  core::config config = core::default_config();
  core::technique_catalog catalog;
  std::unique_ptr<core::script_host> host;

  malloy_fixture() {
    std::ofstream(dir.path() / "variants.lua") << variants_script;
    config.lua.technique_dirs = {test::source_dir() / "scripts" / "techniques", dir.path()};
    config.lua.lib_dirs = {test::source_dir() / "scripts" / "lib"};
    host = std::make_unique<core::script_host>(config, test::registry(), catalog);
    host->load_technique_scripts();
  }

  // The verdict of a technique on two hand-made results (normalizers applied as in a run).
  double verdict(const std::string& technique, const result& gold, const result& pred,
                 const std::string& gold_sql = "SELECT x") {
    const auto t = catalog.assemble({technique}, core::penalize_choice::yes, test::registry()).front();
    result g = gold.clone();
    result p = pred.clone();
    for (const auto& n : t->normalizers()) {
      g = n->normalize(g);
      p = n->normalize(p);
    }
    core::match_memo memo;
    return *t->evaluate(match_input{g, p, gold_sql, "SELECT y"}, memo).ex;
  }
};

}  // namespace

TEST_CASE("Malloy: any column order") {
  malloy_fixture f;
  CHECK(f.verdict("malloy", make_result({"a", "b"}, {{1, "x"}, {2, "y"}}),
                  make_result({"b", "a"}, {{"x", 1}, {"y", 2}})) == 1);
  CHECK(f.verdict("malloy", make_result({"a", "b"}, {{1, "x"}}), make_result({"a", "b"}, {{"x", 2}})) == 0);
}

TEST_CASE("Malloy: rows as a multiset unless the gold orders its result with a top-level ORDER BY") {
  malloy_fixture f;
  const result g = make_result({"a"}, {{1}, {2}, {3}});
  const result shuffled = make_result({"a"}, {{3}, {1}, {2}});
  CHECK(f.verdict("malloy", g, shuffled, "SELECT a FROM t") == 1);
  CHECK(f.verdict("malloy", g, shuffled, "SELECT a FROM t ORDER BY a") == 0);
  CHECK(f.verdict("malloy", g, g.clone(), "SELECT a FROM t ORDER BY a") == 1);
  CHECK(f.verdict("malloy", g, shuffled, "SELECT a FROM t ORDER\nBY a") == 0);  // tokens, not a substring
  CHECK(f.verdict("malloy", g, shuffled, "SELECT a FROM (SELECT a FROM t ORDER BY a LIMIT 3)") ==
        1);                                                                              // a subquery's
  CHECK(f.verdict("malloy", g, shuffled, "SELECT a FROM t WHERE b = 'order by'") == 1);  // inside a string
  // The official rule, for contrast: a substring of the lower-cased SQL.
  CHECK(f.verdict("test_suite", g, shuffled, "SELECT a FROM t WHERE b = 'order by'") == 0);
  CHECK(f.verdict("test_suite", g, shuffled, "SELECT a FROM t ORDER\nBY a") == 1);
}

TEST_CASE("Malloy: 1 == 1.0 == \"1\", and NULL equals only NULL") {
  malloy_fixture f;
  const result one = make_result({"v"}, {{1}});
  CHECK(f.verdict("malloy", one, make_result({"v"}, {{1.0}})) == 1);
  CHECK(f.verdict("malloy", one, make_result({"v"}, {{"1"}})) == 1);
  CHECK(f.verdict("malloy", one, make_result({"v"}, {{" 1.0 "}})) == 1);
  CHECK(f.verdict("malloy", one, make_result({"v"}, {{"1e0"}})) == 1);
  CHECK(f.verdict("malloy", one, make_result({"v"}, {{"one"}})) == 0);
  CHECK(f.verdict("test_suite", one, make_result({"v"}, {{"1"}})) == 0);
  const result null = make_result({"v"}, {{nullptr}});
  CHECK(f.verdict("malloy", null, make_result({"v"}, {{nullptr}})) == 1);
  CHECK(f.verdict("malloy", null, make_result({"v"}, {{"None"}})) == 0);
  CHECK(f.verdict("malloy", null, make_result({"v"}, {{0}})) == 0);
  CHECK(f.verdict("malloy", null, make_result({"v"}, {{""}})) == 0);
  // No quick-rejection quirk: (1, 1.5) equals (1.0, 1.5).
  CHECK(f.verdict("malloy", make_result({"a", "b"}, {{1, 1.5}}), make_result({"a", "b"}, {{1.0, 1.5}})) == 1);
  CHECK(f.verdict("test_suite", make_result({"a", "b"}, {{1, 1.5}}), make_result({"a", "b"}, {{1.0, 1.5}})) ==
        0);
}

TEST_CASE("Malloy: duplicates are counted") {
  malloy_fixture f;
  const result g = make_result({"d"}, {{"x"}, {"x"}, {"y"}});
  CHECK(f.verdict("malloy", g, make_result({"d"}, {{"y"}, {"x"}, {"x"}})) == 1);
  CHECK(f.verdict("malloy", g, make_result({"d"}, {{"x"}, {"y"}, {"y"}})) == 0);
  CHECK(f.verdict("malloy", g, make_result({"d"}, {{"x"}, {"y"}})) == 0);
  CHECK(f.verdict("malloy", make_result({"d"}, {}), make_result({"e"}, {})) == 1);
}

TEST_CASE("Malloy options: float rounding, case folding, trimming (off by default)") {
  malloy_fixture f;
  const result g = make_result({"v", "t"}, {{0.3, "Ada"}});
  const result p = make_result({"v", "t"}, {{0.1 + 0.2, " ada"}});
  CHECK(f.verdict("malloy", g, p) == 0);
  CHECK(f.verdict("malloy_tolerant", g, p) == 1);
  CHECK(f.verdict("malloy_tolerant", g, make_result({"v", "t"}, {{0.31, "ada"}})) == 0);
  CHECK(f.verdict("malloy_tolerant", make_result({"t"}, {{"ΟΔΟΣ"}}), make_result({"t"}, {{"οδος"}})) == 1);
}

TEST_CASE("Malloy vs the official comparison on Spider dev: every disagreement has a documented cause") {
  if (test::skip_without_shared("malloy on spider dev")) return;
  malloy_fixture f;
  const auto shared = *test::shared_dir();
  std::vector<std::string> names = {"test_suite", "malloy"};
  for (int bits = 1; bits <= 7; ++bits) names.push_back("switch_" + std::to_string(bits));
  core::query_runner runner(exec_limits{});
  core::example_evaluator evaluator(
      runner, f.catalog.assemble(names, core::penalize_choice::yes, test::registry()), test::sqlite_routes());
  const char* causes[] = {"", "ORDER BY from tokens", "no quick rejection", "", "numbers from text"};
  std::map<std::string, int> by_cause;
  int agree = 0;
  int disagree = 0;
  for (const char* system : {"dail-sql-gpt4", "c3-gpt35", "din-sql-gpt4", "resdsql-3b"}) {
    std::ifstream in(shared / "parity/spider-dev" / (std::string(system) + ".jsonl"));
    for (std::string line; std::getline(in, line);) {
      const auto rec = nlohmann::json::parse(line);
      core::example ex;
      ex.id = rec["id"];
      ex.db = (shared / "benchmarks/spider-dev" / rec["db"].get<std::string>()).string();
      ex.gold = rec["gold"];
      ex.pred = rec["pred"];
      const auto r = evaluator.evaluate(ex);
      if (r[0].status != core::example_status::ok) continue;
      const double official = *r[0].scores.ex;
      const double malloy = *r[1].scores.ex;
      // Switching all three differences reproduces Malloy exactly: they are the only differences.
      CHECK(*r[8].scores.ex == malloy);
      if (official == malloy) {
        ++agree;
        continue;
      }
      ++disagree;
      // The cause: the smallest set of differences that alone turns the official verdict into Malloy's.
      int cause = 0;
      for (int size = 1; size <= 3 && cause == 0; ++size) {
        for (int bits = 1; bits <= 7 && cause == 0; ++bits) {
          if (__builtin_popcount(static_cast<unsigned>(bits)) == size && *r[1 + bits].scores.ex == malloy)
            cause = bits;
        }
      }
      REQUIRE_MESSAGE(cause != 0,
                      ex.id << ": official " << official << ", malloy " << malloy << " without a cause");
      std::string label;
      for (int bit : {1, 2, 4}) {
        if (cause & bit) label += (label.empty() ? "" : " + ") + std::string(causes[bit]);
      }
      if (by_cause[label]++ < 3)
        std::cout << "  " << ex.id << ": official " << official << ", malloy " << malloy << " — " << label
                  << "\n";
    }
  }
  std::cout << "Malloy vs official comparison on Spider dev: " << agree << " agree, " << disagree
            << " differ";
  for (const auto& [label, n] : by_cause) std::cout << "; " << label << ": " << n;
  std::cout << "\n";
  CHECK(agree > 3500);
  CHECK(disagree > 0);
}
