// The official test-suite evaluation (test-suite-sql-eval, exec_eval.eval_exec_match) on database
// variants made here: tests/fixtures/spider_test_suite/variants.json says how each variant is made
// from a Spider dev database, official_verdicts.jsonl what the official function returned on those
// folders for each case (make_official_verdicts.py, run outside the project, says how it was made).
// spider_official_exec must give the single-database verdict, spider_test_suite the suite verdict
// (with the variant that first disagreed), and both with --plug-value the official plug_value one.

#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

std::filesystem::path fixture_dir() {
  return test::source_dir() / "tests/fixtures/spider_test_suite";
}

// Copies of the Spider dev databases with the variants of variants.json, in `root`/<db_id>/.
void build_variant_folders(const std::filesystem::path& root) {
  const json spec = json::parse(std::ifstream(fixture_dir() / "variants.json"));
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev/database";
  for (const json& db : spec["databases"]) {
    const std::string db_id = db["db_id"];
    const auto original = spider / db_id / (db_id + ".sqlite");
    std::filesystem::create_directories(root / db_id);
    std::filesystem::copy_file(original, root / db_id / (db_id + ".sqlite"));
    for (const json& v : db["variants"]) {
      const auto file = root / db_id / v["name"].get<std::string>();
      std::filesystem::copy_file(original, file);
      std::string sql;
      for (const json& statement : v["sql"]) sql += statement.get<std::string>() + ";\n";
      test::create_sqlite(file, sql);
    }
  }
}

std::optional<sqlmorph::field_value> extra(const core::record& r, const std::string& name) {
  for (const auto& [key, v] : r.scores.extra) {
    if (key == name) return v;
  }
  return std::nullopt;
}

const core::record& record_of(const std::vector<core::record>& records, const std::string& technique) {
  for (const core::record& r : records) {
    if (r.technique == technique) return r;
  }
  throw std::runtime_error("no record of " + technique);
}

// The official verdict: 0, 1, or "gold_error" (its assertion).
std::string official(const json& v) {
  return v.is_string() ? v.get<std::string>() : std::to_string(v.get<int>());
}
std::string ours(const core::record& r) {
  if (r.status == core::example_status::gold_error) return "gold_error";
  return r.scores.ex ? std::to_string(static_cast<int>(*r.scores.ex)) : "null";
}

}  // namespace

TEST_CASE("spider_test_suite agrees with the official eval_exec_match on variant folders") {
  if (test::skip_without_shared("spider_test_suite against the official verdicts")) return;
  test::temp_dir dir;
  build_variant_folders(dir.path());
  const auto& catalog = test::catalog();
  const auto plain = catalog.assemble({"spider_official_exec", "spider_test_suite"},
                                      core::penalize_choice::yes, test::registry());
  const auto plugged = catalog.assemble({"spider_official_exec", "spider_test_suite"},
                                        core::penalize_choice::yes, test::registry(), true);
  core::query_runner runner(exec_limits{});
  core::example_evaluator without_plug(runner, plain, test::sqlite_routes());
  core::example_evaluator with_plug(runner, plugged, test::sqlite_routes());

  std::ifstream in(fixture_dir() / "official_verdicts.jsonl");
  std::string line;
  std::map<std::string, std::size_t> seen;
  std::size_t cases = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json c = json::parse(line);
    core::example ex;
    ex.id = c["id"];
    ex.db_id = c["db_id"];
    ex.db = (dir.path() / ex.db_id / (ex.db_id + ".sqlite")).string();
    ex.gold = c["gold"];
    ex.pred = c["pred"];
    CAPTURE(ex.id);
    CAPTURE(ex.gold);
    CAPTURE(ex.pred);
    ++cases;
    const auto records = without_plug.evaluate(ex);
    const core::record& single = record_of(records, "spider_official_exec");
    const core::record& suite = record_of(records, "spider_test_suite");
    CHECK(ours(single) == official(c["single"]));
    CHECK(ours(suite) == official(c["suite"]));
    ++seen["single " + official(c["single"]) + ", suite " + official(c["suite"])];
    CHECK(extra(suite, "variants") == sqlmorph::field_value(c["variants"].get<std::int64_t>()));
    if (c["failed_variant"].is_null()) {
      CHECK(extra(suite, "failed_variant") == sqlmorph::field_value(nullptr));
    } else {
      const std::string failed = c["failed_variant"];
      CHECK(extra(suite, "failed_variant") == sqlmorph::field_value(failed));
      if (suite.status == core::example_status::gold_error)
        CHECK(suite.error.find(failed) != std::string::npos);
    }

    const auto plug_records = with_plug.evaluate(ex);
    CHECK(ours(record_of(plug_records, "spider_test_suite")) == official(c["suite_plug"]));
    if (official(c["suite_plug"]) != official(c["suite"])) ++seen["plug_value changes the verdict"];
  }
  std::cout << "spider_test_suite against the official verdicts: " << cases << " cases";
  for (const auto& [what, n] : seen) std::cout << "; " << what << ": " << n;
  std::cout << "\n";
  // The fixture holds every interesting kind of case.
  CHECK(seen["single 1, suite 0"] > 0);
  CHECK(seen["single 1, suite gold_error"] > 0);
  CHECK(seen["plug_value changes the verdict"] > 0);
}

TEST_CASE("spider_official_exec with --plug-value agrees with the official plug_value on Spider dev") {
  if (test::skip_without_shared("plug_value against the official verdicts")) return;
  const auto shared = *test::shared_dir();
  std::map<std::string, std::string> verdicts;
  {
    std::ifstream in(fixture_dir() / "official_plug_value_spider_dev.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const json v = json::parse(line);
      verdicts[v["id"]] = official(v["plug_value"]);
    }
  }
  REQUIRE(verdicts.size() == 4 * 972);
  const auto plugged =
      test::catalog().assemble({"spider_official_exec"}, core::penalize_choice::yes, test::registry(), true);
  core::query_runner runner(exec_limits{});
  core::example_evaluator evaluator(runner, plugged, test::sqlite_routes());
  std::size_t checked = 0;
  std::size_t mismatches = 0;
  std::size_t rescued = 0;  // correct only thanks to a plugged alternative
  for (const auto& f : std::filesystem::directory_iterator(shared / "parity/spider-dev")) {
    std::ifstream in(f.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const json c = json::parse(line);
      core::example ex;
      ex.id = c["id"];
      ex.db = (shared / "benchmarks/spider-dev" / c["db"].get<std::string>()).string();
      ex.gold = c["gold"];
      ex.pred = c["pred"];
      const core::record r = evaluator.evaluate(ex).at(0);
      const auto want = verdicts.find(ex.id);
      REQUIRE(want != verdicts.end());
      ++checked;
      if (ours(r) != want->second) {
        ++mismatches;
        FAIL_CHECK(ex.id << ": official " << want->second << ", ours " << ours(r) << " (" << r.error << ")");
      }
      rescued += ours(r) == "1" && r.status == core::example_status::ok && extra(r, "candidates").has_value();
    }
  }
  std::cout << "plug_value against the official verdicts: " << checked << " Spider dev pairs, " << mismatches
            << " mismatches, " << rescued << " correct through a plugged alternative\n";
  CHECK(checked == verdicts.size());
  CHECK(rescued > 0);
}
