// The official metrics end to end: timed repetition through the worker's executor, R-VES and
// Soft-F1 records and BIRD's tables from `sqlmorph eval`, the test-suite technique's statuses
// (missing folders, backends that do not open files), --plug-value, and Spider's official table.
// Timings are never asserted: only what a repetition did and how it ended.

#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "eval/query_runner.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::read_jsonl;
using test::run_sqlmorph;
using test::write_file;

namespace {

std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

// A configuration loading the project's plugins and techniques plus the *.lua of `dir`.
std::filesystem::path config_in(const std::filesystem::path& dir, const std::string& more = "") {
  const auto file = dir / "sqlmorph.toml";
  write_file(file,
             "[plugins]\ndirs = [\"" + test::plugin_dir().string() + "\"]\n[lua]\ntechnique_dirs = [\"" +
                 (test::source_dir() / "scripts/techniques").string() + "\", \"" + dir.string() +
                 "\"]\nlib_dirs = [\"" + (test::source_dir() / "scripts/lib").string() + "\"]\n" + more);
  return file;
}

// A query that keeps SQLite busy far longer than any limit below.
constexpr const char* slow_query =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) "
    "FROM c";

}  // namespace

TEST_CASE("a timed repetition runs both queries the asked number of times, within one overall limit") {
  const auto routes = test::sqlite_routes();
  core::example ex;
  ex.db = demo_db().string();
  const core::query_target where = routes->target(ex, query_role::gold);
  core::query_runner runner(exec_limits{});
  const timed_runs runs = runner.repeat(where, "SELECT name FROM employees", where, "SELECT 1", 7);
  CHECK(runs.status == query_status::ok);
  CHECK(runs.gold_ms.size() == 7);
  CHECK(runs.pred_ms.size() == 7);
  for (double ms : runs.gold_ms) CHECK(ms >= 0.0);

  // The limit is iterations × the predicted queries' limit, for the whole repetition: a slow gold
  // query uses it up and the repetition ends with timeout, saying which query was running.
  exec_limits tight;
  tight.timeout_seconds = 0.05;
  core::query_runner limited(exec_limits{}, tight);
  const timed_runs out_of_time = limited.repeat(where, slow_query, where, "SELECT 1", 3);
  CHECK(out_of_time.status == query_status::timeout);
  CHECK(out_of_time.failed == query_role::gold);
  CHECK(out_of_time.message.find("3 x") != std::string::npos);
  CHECK(out_of_time.pred_ms.size() >= 1);

  const timed_runs failing = runner.repeat(where, "SELECT 1", where, "SELECT nope FROM nowhere", 3);
  CHECK(failing.status == query_status::error);
  CHECK(failing.failed == query_role::pred);
  CHECK(failing.pred_ms.empty());
}

TEST_CASE("eval with BIRD's metrics: Soft-F1 and R-VES records, BIRD's tables, failures counted as 0") {
  test::temp_dir dir;
  // R-VES with 3 iterations instead of 100, declared the way a user configures it.
  write_file(dir.path() / "ves_quick.lua",
             "sqlmorph.technique{ name = 'bird_ves_quick', columns = sqlmorph.columns.ignore_names{},\n"
             "  rows = sqlmorph.rows.none{}, scorer = sqlmorph.scorers.bird_ves{ iterations = 3 }, opt_in = "
             "true }\n");
  const auto config = config_in(dir.path());
  const std::string db = demo_db().string();
  std::string cases;
  const auto add = [&](const std::string& id, const std::string& difficulty, const std::string& gold,
                       const std::string& pred) {
    cases += json{{"id", id}, {"db", db}, {"gold", gold}, {"pred", pred}, {"difficulty", difficulty}}.dump() +
             "\n";
  };
  add("same", "simple", "SELECT name FROM employees", "SELECT name FROM employees");
  add("reordered", "simple", "SELECT name FROM employees ORDER BY name",
      "SELECT name FROM employees ORDER BY name DESC");
  add("wrong", "moderate", "SELECT name FROM employees WHERE dept = 'eng'", "SELECT name FROM employees");
  add("broken", "challenging", "SELECT name FROM employees", "SELECT nme FROM employees");
  write_file(dir.path() / "cases.jsonl", cases);
  const auto out = dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config.string(), "eval", "--cases", (dir.path() / "cases.jsonl").string(),
                    "--techniques", "execution_accuracy,bird_soft_f1,soft_f1_matched,bird_ves_quick", "--out",
                    out.string(), "--progress", "none", "-j", "1"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<std::string, json> records;
  for (const json& j : read_jsonl(out / "results.jsonl"))
    records[j["id"].get<std::string>() + "/" + j["technique"].get<std::string>()] = j;
  // Timed: a correct prediction, 3 iterations, a reward BIRD can give.
  const json& same = records["same/bird_ves_quick"];
  CHECK(same["status"] == "ok");
  CHECK(same["EX"] == 1);
  CHECK(same["iterations"] == 3);
  CHECK(same["time_ratio"].get<double>() > 0.0);
  const double reward = same["reward"];
  CHECK((reward == 0.25 || reward == 0.5 || reward == 0.75 || reward == 1.0 || reward == 1.25));
  // Rows in another order: still correct (BIRD compares sets), so timed.
  CHECK(records["reordered/bird_ves_quick"]["iterations"] == 3);
  // Positional Soft-F1 scores a reversed result low; the paired one does not.
  CHECK(records["reordered/bird_soft_f1"]["F1"].get<double>() < 1.0);
  CHECK(records["reordered/soft_f1_matched"]["F1"] == 1.0);
  // Incorrect: not timed, reward 0.
  CHECK(records["wrong/bird_ves_quick"]["reward"] == 0.0);
  CHECK(records["wrong/bird_ves_quick"]["iterations"] == 0);
  CHECK(records["wrong/bird_ves_quick"]["time_ratio"].is_null());
  // A failing prediction: pred_error, reward 0 all the same (it counts in R-VES).
  CHECK(records["broken/bird_ves_quick"]["status"] == "pred_error");
  CHECK(records["broken/bird_ves_quick"]["reward"] == 0.0);
  CHECK(records["broken/bird_soft_f1"]["F1"] == 0.0);

  // BIRD's tables, as print_data lays them out.
  CHECK(r.out.find("BIRD, as its evaluation scripts print it") != std::string::npos);
  CHECK(r.out.find(
            "                     simple               moderate             challenging          total") !=
        std::string::npos);
  CHECK(r.out.find("count                2                    1                    1                    4") !=
        std::string::npos);
  CHECK(r.out.find(
            "======================================    Soft-F1    =====================================") !=
        std::string::npos);
  CHECK(r.out.find(
            "EX                   100.00               0.00                 0.00                 50.00") !=
        std::string::npos);
  const json summary = json::parse(std::ifstream(out / "summary.json"));
  bool saw_ves = false;
  for (const json& t : summary["techniques"]) {
    if (t["technique"] != "bird_ves_quick") continue;
    saw_ves = true;
    // Mean of √reward × 100 over all four examples: the two incorrect ones count 0.
    const double r_ves = t["R-VES"];
    CHECK(r_ves >= 2 * std::sqrt(0.25) * 100 / 4);
    CHECK(r_ves <= 2 * std::sqrt(1.25) * 100 / 4);
  }
  CHECK(saw_ves);
}

TEST_CASE("bird_ves runs only when named: 'all' leaves it out") {
  const auto all = test::catalog().assemble({"all"}, core::penalize_choice::yes, test::registry());
  bool has_soft_f1 = false;
  for (const auto& t : all) {
    CHECK(t->name() != "bird_ves");
    has_soft_f1 = has_soft_f1 || t->name() == "bird_soft_f1";
  }
  CHECK(has_soft_f1);
  CHECK(test::catalog().assemble({"bird_ves"}, core::penalize_choice::yes, test::registry()).size() == 1);
}

TEST_CASE(
    "spider_test_suite: a folder without databases, a backend that opens no files, --plug-value misuse") {
  test::temp_dir dir;
  const auto config = config_in(dir.path(), "[backends.named]\nplugin = \"sqlite\"\ntarget = \"{db_id}\"\n");
  std::filesystem::create_directories(dir.path() / "empty");
  write_file(dir.path() / "cases.jsonl",
             json{{"id", "nowhere"},
                  {"db", (dir.path() / "empty/x.sqlite").string()},
                  {"gold", "SELECT 1"},
                  {"pred", "SELECT 1"}}
                     .dump() +
                 "\n" +
                 json{{"id", "demo"}, {"db", demo_db().string()}, {"gold", "SELECT 1"}, {"pred", "SELECT 1"}}
                     .dump() +
                 "\n");
  const auto run = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--config",
                                     config.string(),
                                     "eval",
                                     "--cases",
                                     (dir.path() / "cases.jsonl").string(),
                                     "--out",
                                     (dir.path() / "out").string(),
                                     "--progress",
                                     "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_sqlmorph(args);
  };
  const auto r = run({"--techniques", "spider_test_suite"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto records = read_jsonl(dir.path() / "out/results.jsonl");
  REQUIRE(records.size() == 2);
  CHECK(records[0]["status"] == "db_missing");
  CHECK(records[0]["error"].get<std::string>().find("no database (*.sqlite) in") != std::string::npos);
  CHECK(records[0]["EX"].is_null());
  // The demo folder holds one database: the suite is that database.
  CHECK(records[1]["status"] == "ok");
  CHECK(records[1]["EX"] == 1);
  CHECK(records[1]["variants"] == 1);
  CHECK(records[1]["failed_variant"].is_null());

  const auto named = run({"--techniques", "spider_test_suite", "--backend", "named", "--overwrite"});
  REQUIRE_MESSAGE(named.exit_code == 0, named.err);
  for (const json& j : read_jsonl(dir.path() / "out/results.jsonl")) {
    CHECK(j["status"] == "technique_error");
    CHECK(j["error"].get<std::string>().find("backend 'named' does not open database files") !=
          std::string::npos);
  }

  const auto misuse = run({"--techniques", "execution_accuracy", "--plug-value"});
  CHECK(misuse.exit_code == 2);
  CHECK(misuse.err.find("--plug-value applies to") != std::string::npos);
}

TEST_CASE("technique declarations: databases and opt_in are checked") {
  test::temp_dir dir;
  write_file(dir.path() / "bad.lua",
             "sqlmorph.technique{ name = 'x', databases = 'every', columns = sqlmorph.columns.any_order{},\n"
             "  rows = sqlmorph.rows.permutation_equivalence{}, scorer = sqlmorph.scorers.verdict{} }\n");
  const auto bad = run_sqlmorph({"--config", config_in(dir.path()).string(), "techniques"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'databases' must be \"example\" (the default) or \"variants\"") != std::string::npos);

  test::temp_dir dir2;
  write_file(
      dir2.path() / "cells.lua",
      "sqlmorph.technique{ name = 'y', databases = 'variants', columns = sqlmorph.columns.exact_names{},\n"
      "  rows = sqlmorph.rows.multiset{}, scorer = sqlmorph.scorers.sqlmorph_cells{} }\n");
  const auto cells = run_sqlmorph({"--config", config_in(dir2.path()).string(), "techniques"});
  CHECK(cells.exit_code == 2);
  CHECK(cells.err.find("needs a scorer whose only metric is EX") != std::string::npos);
}

TEST_CASE("eval --benchmark spider prints the official execution table with the test-suite accuracy") {
  if (test::skip_without_shared("Spider's official table")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  test::temp_dir dir;
  const auto r = run_sqlmorph(
      {"--config", (test::source_dir() / "sqlmorph.toml").string(), "eval", "--benchmark", "spider", "--gold",
       (spider / "dev_gold.sql").string(), "--pred", (spider / "predictions/dail-sql-gpt4.sql").string(),
       "--db-root", (spider / "database").string(), "--techniques", "spider_official_exec,spider_test_suite",
       "--out", (dir.path() / "out").string(), "--progress", "none"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("Spider, as the official evaluator prints it") != std::string::npos);
  CHECK(r.out.find(
            "                     easy                 medium               hard                 extra      "
            "          all") != std::string::npos);
  CHECK(r.out.find("=====================   EXECUTION ACCURACY     =====================") !=
        std::string::npos);
  // dail-sql-gpt4 on the 972 pairs with a database, as the official evaluator scores them.
  CHECK(r.out.find(
            "execution            0.914                0.897                0.787                0.598      "
            "          0.832") != std::string::npos);
  CHECK(r.out.find("test-suite           0.914") != std::string::npos);
}
