// Parity with BIRD's own Soft-F1 (mini-dev evaluation_f1.py, calculate_f1_score): every record of
// ../shared/parity/bird-soft-f1 (four systems' Spider dev pairs scored by BIRD's function) must
// give BIRD's F1 within 1e-9 and its EX (set equality); `error: true` (a query raised in BIRD's
// execute_sql) must be a failed example with F1 0.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

void bird_parity(const char* system) {
  if (test::skip_without_shared("BIRD Soft-F1 parity")) return;
  const auto shared = *test::shared_dir();
  const auto file = shared / "parity/bird-soft-f1" / (std::string(system) + ".jsonl");
  const auto db_base = shared / "benchmarks/spider-dev";
  core::query_runner runner(exec_limits{});
  core::example_evaluator evaluator(runner, {test::technique("bird_soft_f1")}, test::sqlite_routes());
  std::ifstream in(file);
  REQUIRE_MESSAGE(in, "cannot read " << file);
  std::string line;
  std::size_t records = 0;
  std::size_t errors = 0;
  std::size_t fractional = 0;
  int mismatches = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json c = json::parse(line);
    core::example ex;
    ex.id = c["id"];
    ex.db = (db_base / c["db"].get<std::string>()).string();
    ex.gold = c["gold"];
    ex.pred = c["pred"];
    const json& e = c["expected"].at(0);
    REQUIRE(e["technique"] == "bird_soft_f1");
    const std::vector<core::record> ours = evaluator.evaluate(ex);
    REQUIRE(ours.size() == 1);
    const core::record& r = ours[0];
    ++records;
    const double want_f1 = e["F1"].get<double>();
    const double want_ex = e["EX"].get<double>();
    const bool want_error = e["error"].get<bool>();
    errors += want_error;
    fractional += want_f1 != 0.0 && want_f1 != 1.0;
    const bool have_error = r.status != core::example_status::ok;
    const bool ok = want_error == have_error && r.scores.f1 && std::abs(*r.scores.f1 - want_f1) <= 1e-9 &&
                    r.scores.ex && *r.scores.ex == want_ex;
    if (!ok) {
      ++mismatches;
      FAIL_CHECK(ex.id << ": BIRD F1 " << want_f1 << " EX " << want_ex << (want_error ? " (error)" : "")
                       << ", ours F1 " << (r.scores.f1 ? std::to_string(*r.scores.f1) : "null") << " EX "
                       << (r.scores.ex ? std::to_string(*r.scores.ex) : "null") << " status "
                       << core::example_status_name(r.status) << " " << r.error);
    }
  }
  std::cout << "BIRD Soft-F1 parity " << system << ": " << records << " records (" << errors << " errors, "
            << fractional << " fractional F1), " << mismatches << " mismatches\n";
  CHECK(records > 0);
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("parity: BIRD Soft-F1, dail-sql-gpt4") {
  bird_parity("dail-sql-gpt4");
}
TEST_CASE("parity: BIRD Soft-F1, c3-gpt35") {
  bird_parity("c3-gpt35");
}
TEST_CASE("parity: BIRD Soft-F1, din-sql-gpt4") {
  bird_parity("din-sql-gpt4");
}
TEST_CASE("parity: BIRD Soft-F1, resdsql-3b") {
  bird_parity("resdsql-3b");
}
