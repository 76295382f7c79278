// examples.jsonl: one line per example and system with the question, both SQL texts, their
// features and what each query returned (typed rows, within --keep-rows); identical answers share
// their evidence; summary.json's by_feature and QVT equal what is computed here from the two files.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "eval/example_evidence.hpp"
#include "eval/sql_features.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

const char* gold_sql =
    "SELECT name, salary FROM employees WHERE dept = 'eng' ORDER BY salary DESC\tdemo\n"
    "SELECT count(*) FROM projects\tdemo\n"
    "SELECT count(*) FROM projects\tdemo\n"
    "SELECT d.name, count(*) FROM departments AS d JOIN employees AS e ON e.dept = d.name GROUP BY "
    "d.name\tdemo\n";

std::filesystem::path make_run(const test::temp_dir& dir, const std::vector<std::string>& extra) {
  write_file(dir.path() / "gold.sql", gold_sql);
  const std::string good =
      "SELECT name, salary FROM employees WHERE dept = 'eng' ORDER BY salary DESC\n"
      "SELECT count(*) FROM projects\nSELECT count(id) FROM projects\n"
      "SELECT d.name, count(*) FROM departments AS d JOIN employees AS e ON e.dept = d.name GROUP BY "
      "d.name\n";
  write_file(dir.path() / "good.sql", good);
  write_file(dir.path() / "same.sql", good);  // identical answers: evaluated once, evidence shared
  write_file(dir.path() / "poor.sql", "SELECT name FROM employees\nSELECT count(*) FROM nowhere\nSELECT 7\n");
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(test::build_dir() / "examples/demo/demo.sqlite",
                             dir.path() / "dbs/demo/demo.sqlite");
  const auto out = dir.path() / "out";
  std::vector<std::string> args = {"--config",     (test::source_dir() / "sqlmorph.toml").string(),
                                   "-q",           "eval",
                                   "--benchmark",  "spider",
                                   "--gold",       (dir.path() / "gold.sql").string(),
                                   "--pred",       "good=" + (dir.path() / "good.sql").string(),
                                   "--pred",       "same=" + (dir.path() / "same.sql").string(),
                                   "--pred",       "poor=" + (dir.path() / "poor.sql").string(),
                                   "--db-root",    (dir.path() / "dbs").string(),
                                   "--techniques", "execution_accuracy,exact_column_and_partial_cell",
                                   "--out",        out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_sqlmorph(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return out;
}

}  // namespace

TEST_CASE("examples.jsonl: one line per example with both queries, their features and their typed rows") {
  test::temp_dir dir;
  const auto out = make_run(dir, {"--keep-rows", "2"});
  const auto lines = test::read_jsonl(out / "examples.jsonl");
  const auto records = test::read_jsonl(out / "results.jsonl");
  REQUIRE(lines.size() == 12);
  // In the order of the records' examples.
  std::vector<std::string> order;
  for (const json& r : records) {
    if (order.empty() || order.back() != r["id"].get<std::string>())
      order.push_back(r["id"].get<std::string>());
  }
  REQUIRE(order.size() == lines.size());
  std::map<std::string, json> by_id;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    CHECK(lines[i]["id"] == order[i]);
    by_id[lines[i]["id"].get<std::string>()] = lines[i];
  }
  const json& first = by_id.at("good:0");
  CHECK(first["system"] == "good");
  CHECK(first["db_id"] == "demo");
  CHECK(first["evaluated_by"] == "execution_accuracy");
  CHECK(first["gold"] == "SELECT name, salary FROM employees WHERE dept = 'eng' ORDER BY salary DESC");
  CHECK(first["features"]["gold"]["order_by"] == true);
  CHECK(first["features"]["gold"]["conditions"] == 1);
  const json& gold = first["gold_result"];
  CHECK(gold["status"] == "ok");
  CHECK(gold["columns"] == json::array({"name", "salary"}));
  CHECK(gold["row_count"].get<int>() > 2);
  CHECK(gold["rows_kept"] == 2);
  REQUIRE(gold["rows"].size() == 2);
  CHECK(gold["rows"][0][0].is_string());
  CHECK(gold["rows"][0][1].is_number_integer());  // the type is kept
  CHECK(gold["rows"][0][1].get<long>() >= gold["rows"][1][1].get<long>());
  // Identical answers share their evidence (their own id and system).
  for (int i = 0; i < 4; ++i) {
    json a = by_id.at("good:" + std::to_string(i));
    json b = by_id.at("same:" + std::to_string(i));
    a.erase("id"), a.erase("system"), b.erase("id"), b.erase("system");
    CHECK(a == b);
  }
  // A failing prediction, a missing one.
  const json& failed = by_id.at("poor:1");
  CHECK(failed["pred_result"]["status"] == "error");
  CHECK(failed["pred_result"]["error"].get<std::string>().find("nowhere") != std::string::npos);
  CHECK_FALSE(failed["pred_result"].contains("rows"));
  const json& missing = by_id.at("poor:3");
  CHECK(missing["pred"].is_null());
  CHECK(missing["pred_result"].is_null());
  CHECK(missing["features"]["pred"].is_null());
  CHECK(missing["features"]["gold"]["joins"] == 1);

  // --keep-rows 0: counts and columns, no rows.
  test::temp_dir none_dir;
  const auto none = make_run(none_dir, {"--keep-rows", "0"});
  const auto bare = test::read_jsonl(none / "examples.jsonl");
  CHECK(bare[0]["gold_result"]["rows"] == json::array());
  CHECK(bare[0]["gold_result"]["rows_kept"] == 0);
  CHECK(bare[0]["gold_result"]["row_count"] == gold["row_count"]);
  const auto bad = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "eval",
                                 "--cases", (test::source_dir() / "examples/demo/cases.jsonl").string(),
                                 "--keep-rows", "-1", "--out", (none_dir.path() / "x").string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--keep-rows") != std::string::npos);
}

TEST_CASE("summary.json by_feature and QVT equal what examples.jsonl and results.jsonl give") {
  test::temp_dir dir;
  const auto out = make_run(dir, {});
  std::map<std::string, json> evidence;
  for (const json& line : test::read_jsonl(out / "examples.jsonl"))
    evidence[line["id"].get<std::string>()] = line;
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  REQUIRE(summary.contains("by_feature"));
  // (system, feature, present) -> EX values of execution_accuracy; system -> gold -> (n, right).
  std::map<std::tuple<std::string, std::string, bool>, std::vector<double>> ex;
  std::map<std::string, std::map<std::string, std::pair<int, int>>> qvt;
  for (const json& r : test::read_jsonl(out / "results.jsonl")) {
    if (r["technique"] != "execution_accuracy") continue;
    const json& e = evidence.at(r["id"].get<std::string>());
    const std::string system = r["system"].get<std::string>();
    core::sql_features f;
    REQUIRE(core::features_from_json(e["features"]["gold"], f));
    for (std::size_t k = 0; k < core::feature_names.size(); ++k) {
      auto& values = ex[{system, core::feature_names[k], core::has_feature(f, k)}];
      if (!r["EX"].is_null()) values.push_back(r["EX"].get<double>());
    }
    if (!r["EX"].is_null()) {
      auto& g = qvt[system][e["gold"].get<std::string>()];
      ++g.first;
      g.second += r["EX"].get<double>() >= 1;
    }
  }
  std::size_t checked = 0;
  for (const json& s : summary["by_feature"]) {
    if (s["technique"] != "execution_accuracy") continue;
    const auto& values =
        ex.at({s["system"].get<std::string>(), s["feature"].get<std::string>(), s["present"].get<bool>()});
    double sum = 0;
    for (const double v : values) sum += v;
    CHECK(s["scored"] == values.size());
    CHECK(s["EX"].get<double>() == doctest::Approx(sum / static_cast<double>(values.size())));
    ++checked;
  }
  // 3 systems × 12 features, each present or absent in some gold query... or not: only slices with records.
  CHECK(checked == ex.size());
  for (const json& q : summary["qvt"]) {
    if (q["technique"] != "execution_accuracy") continue;
    double sum = 0;
    int groups = 0;
    for (const auto& [g, counts] : qvt.at(q["system"].get<std::string>())) {
      if (counts.first < 2 || counts.second == 0) continue;
      sum += static_cast<double>(counts.second) / counts.first;
      ++groups;
    }
    CHECK(q["groups"] == groups);
    if (groups > 0) CHECK(q["QVT"].get<double>() == doctest::Approx(sum / groups));
  }
  // The two count(*) questions share a gold query: good answers both right, poor neither.
  for (const json& q : summary["qvt"]) {
    if (q["technique"] != "execution_accuracy") continue;
    if (q["system"] == "good") CHECK(q["QVT"] == 1.0);
    if (q["system"] == "poor") CHECK(q["QVT"].is_null());
  }
}

TEST_CASE(
    "evidence values: integers, reals, text, null, blobs as base64, non-finite reals, the byte budget") {
  result rows;
  rows.set_columns({"i", "r", "t", "n", "b"});
  for (int k = 0; k < 3; ++k) {
    rows.append(value::integer(k));
    rows.append(value::real(k == 1 ? std::nan("") : 0.5));
    rows.append(value::text("x\"y"));
    rows.append(value());
    rows.append(value::blob(std::string_view("\x00\x01\xfe", 3)));
  }
  query_outcome o;
  o.rows = std::move(rows);
  core::example ex;
  ex.id = "e";
  ex.gold = "SELECT 1";
  ex.pred = "SELECT 1";
  core::query_evidence side{"SELECT 1", &o, ""};
  const std::string line =
      core::evidence_line(ex, core::evidence_body(ex, "t", &side, &side, core::evidence_options{2, 1 << 20}));
  const json j = json::parse(line);
  const json& g = j["gold_result"];
  CHECK(g["row_count"] == 3);
  CHECK(g["rows_kept"] == 2);
  CHECK(g["rows"][0] == json::parse(R"([0, 0.5, "x\"y", null, {"$blob": "AAH+"}])"));
  CHECK(g["rows"][1][1] == "NaN");
  // A budget for about one row in all: the gold side keeps one, the predicted side none.
  const json small = json::parse(
      core::evidence_line(ex, core::evidence_body(ex, "t", &side, &side, core::evidence_options{20, 50})));
  CHECK(small["gold_result"]["rows_kept"] == 1);
  CHECK(small["pred_result"]["rows_kept"] == 0);
  CHECK(small["pred_result"]["row_count"] == 3);
}

TEST_CASE("sqlmorph explain: one example's queries, both results with unmatched rows marked, every score") {
  test::temp_dir dir;
  const auto out = make_run(dir, {});
  const auto r = run_sqlmorph({"explain", out.string(), "poor:0"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("poor:0  system poor  database demo") != std::string::npos);
  CHECK(r.out.find("gold: SELECT name, salary FROM employees WHERE dept = 'eng' ORDER BY salary DESC") !=
        std::string::npos);
  CHECK(r.out.find("pred: SELECT name FROM employees") != std::string::npos);
  CHECK(r.out.find("columns paired by name: name; only in the gold: salary") != std::string::npos);
  CHECK(r.out.find("gold result: ") != std::string::npos);
  CHECK(r.out.find("predicted result: ") != std::string::npos);
  CHECK(r.out.find("\n*") != std::string::npos);  // employees outside 'eng' are predicted, not gold
  CHECK(r.out.find("execution_accuracy") != std::string::npos);
  CHECK(r.out.find("exact_column_and_partial_cell") != std::string::npos);
  // The right answer: nothing marked.
  const auto good = run_sqlmorph({"explain", out.string(), "good:0", "--technique", "execution_accuracy"});
  REQUIRE(good.exit_code == 0);
  CHECK(good.out.find("\n*") == std::string::npos);
  CHECK(good.out.find("exact_column_and_partial_cell") == std::string::npos);
  // A missing prediction, an unknown id, a folder without a run.
  const auto missing = run_sqlmorph({"explain", out.string(), "poor:3"});
  REQUIRE(missing.exit_code == 0);
  CHECK(missing.out.find("pred: (no prediction)") != std::string::npos);
  CHECK(missing.out.find("pred_missing") != std::string::npos);
  const auto unknown = run_sqlmorph({"explain", out.string(), "good:9"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("no example 'good:9'") != std::string::npos);
  CHECK(unknown.err.find("nearest ids: good:0") != std::string::npos);
  const auto empty = run_sqlmorph({"explain", dir.path().string(), "x"});
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("examples.jsonl does not exist") != std::string::npos);
}

TEST_CASE("Lua experiments filter examples by the SQL features of their queries") {
  test::temp_dir dir;
  write_file(dir.path() / "gold.sql", gold_sql);
  write_file(dir.path() / "pred.sql",
             "SELECT name FROM employees\nSELECT count(*) FROM projects\nSELECT 1\n"
             "SELECT d.name FROM departments AS d JOIN employees AS e ON e.dept = d.name\n");
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(test::build_dir() / "examples/demo/demo.sqlite",
                             dir.path() / "dbs/demo/demo.sqlite");
  write_file(dir.path() / "filter.lua", R"(
local dir = ...
local all = sqlmorph.spider{ gold = dir .. "/gold.sql", db_root = dir .. "/dbs", systems = { s = dir .. "/pred.sql" } }
local joins = all:filter{ gold_has = "join" }
local plain = all:filter{ gold_lacks = {"join", "order_by"} }
local both = all:filter{ gold_has = {"join", "group_by"}, pred_lacks = "group_by" }
print(string.format("all=%d joins=%d plain=%d both=%d", #all, #joins, #plain, #both))
local result = sqlmorph.evaluate{ examples = joins, techniques = {"execution_accuracy"} }
print("evaluated=" .. result.examples)
)");
  const auto r = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "run",
                               (dir.path() / "filter.lua").string(), dir.path().string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("all=4 joins=1 plain=2 both=1") != std::string::npos);
  CHECK(r.out.find("evaluated=1") != std::string::npos);
  write_file(dir.path() / "bad.lua",
             "local all = sqlmorph.spider{ gold = ... .. '/gold.sql', db_root = ... .. '/dbs', systems = { s "
             "= ... .. "
             "'/pred.sql' } }\nall:filter{ gold_has = 'joins' }\n");
  const auto bad = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "run",
                                 (dir.path() / "bad.lua").string(), dir.path().string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("bad.lua:2: examples:filter: unknown SQL feature 'joins' (known: join, subquery") !=
        std::string::npos);
}
