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
#include "output/statistics.hpp"
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
    // Its interval: the bootstrap of the slice's values.
    const output::interval expected = output::bootstrap_mean(values);
    REQUIRE(s["interval"]["EX"].is_array());
    CHECK(s["interval"]["EX"][0].get<double>() == doctest::Approx(expected.low));
    CHECK(s["interval"]["EX"][1].get<double>() == doctest::Approx(expected.high));
    CHECK(s["interval"]["F1"].is_null());
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
    if (q["system"] == "good") {
      CHECK(q["QVT"] == 1.0);
      CHECK(q["interval"] == json::array({1.0, 1.0}));  // one group, both right
    }
    if (q["system"] == "poor") {
      CHECK(q["QVT"].is_null());
      CHECK(q["interval"].is_null());
    }
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

TEST_CASE("sqlmorph explain executes both queries again when the run kept no rows (--keep-rows 0)") {
  test::temp_dir dir;
  const auto out = make_run(dir, {"--keep-rows", "0"});
  const std::string config = (test::source_dir() / "sqlmorph.toml").string();
  const auto r = run_sqlmorph({"--config", config, "explain", out.string(), "poor:0", "--rows", "50"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("(the run kept no rows: both queries executed again on ") == 0);
  CHECK(r.out.find("columns paired by name: name; only in the gold: salary") != std::string::npos);
  CHECK(r.out.find("\n*") != std::string::npos);  // employees outside 'eng' are predicted, not gold
  CHECK(r.out.find("exact_column_and_partial_cell") != std::string::npos);  // the run's scores
  // --no-execute: only what the run kept, nothing marked.
  const auto kept = run_sqlmorph({"--config", config, "explain", out.string(), "poor:0", "--no-execute"});
  REQUIRE(kept.exit_code == 0);
  CHECK(kept.out.find("executed again") == std::string::npos);
  CHECK(kept.out.find("\n*") == std::string::npos);
  // A run that kept its rows is shown as it is, without executing.
  test::temp_dir other;
  const auto with_rows = make_run(other, {});
  const auto shown = run_sqlmorph({"--config", config, "explain", with_rows.string(), "poor:0"});
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.find("executed again") == std::string::npos);
  CHECK(shown.out.find("\n*") != std::string::npos);
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

TEST_CASE(
    "the ids of a cases file keep their JSON type in results.jsonl and examples.jsonl, explain and resume") {
  test::temp_dir dir;
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  const auto cases = dir.path() / "cases.jsonl";
  write_file(cases,
             "{\"id\": 7, \"db\": \"" + db +
                 "\", \"gold\": \"SELECT name, salary FROM employees\", \"pred\": \"SELECT name FROM "
                 "employees\"}\n"
                 "{\"id\": \"7b\", \"db\": \"" +
                 db +
                 "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT name FROM employees\"}\n"
                 "{\"id\": -2, \"db\": \"" +
                 db + "\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 1, 2\"}\n");
  const auto out = dir.path() / "out";
  const std::vector<std::string> args = {"--config",     (test::source_dir() / "sqlmorph.toml").string(),
                                         "-q",           "eval",
                                         "--cases",      cases.string(),
                                         "--techniques", "execution_accuracy,exact_column_and_partial_cell",
                                         "--out",        out.string()};
  const auto r = run_sqlmorph(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto check_ids = [](const std::vector<json>& lines) {
    std::set<std::string> seen;
    for (const json& x : lines) {
      const json& id = x["id"];
      if (id.is_number_integer()) {
        CHECK((id == 7 || id == -2));
        seen.insert(std::to_string(id.get<int>()));
      } else {
        CHECK(id == "7b");
        seen.insert(id.get<std::string>());
      }
    }
    CHECK(seen == std::set<std::string>{"7", "7b", "-2"});
  };
  const auto records = test::read_jsonl(out / "results.jsonl");
  REQUIRE(records.size() == 6);
  check_ids(records);
  check_ids(test::read_jsonl(out / "examples.jsonl"));
  const auto explained = run_sqlmorph({"explain", out.string(), "7"});
  REQUIRE_MESSAGE(explained.exit_code == 0, explained.err);
  CHECK(explained.out.rfind("7  database demo", 0) == 0);
  // Resuming the finished run reads the numeric ids back and adds nothing.
  std::vector<std::string> again = args;
  again.push_back("--resume");
  const auto resumed = run_sqlmorph(again);
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(test::read_jsonl(out / "results.jsonl").size() == 6);
  CHECK(test::read_jsonl(out / "examples.jsonl").size() == 3);
}

TEST_CASE(
    "records say what explains a cell-based number: the cells counted and how the columns were paired") {
  test::temp_dir dir;
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  const auto cases = dir.path() / "cases.jsonl";
  write_file(cases,
             "{\"id\": \"extra\", \"db\": \"" + db +
                 "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT salary, name FROM "
                 "employees\"}\n"
                 "{\"id\": \"fails\", \"db\": \"" +
                 db +
                 "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT nam FROM employees\"}\n");
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "-q", "eval",
                               "--cases", cases.string(), "--techniques",
                               "execution_accuracy,exact_column_and_partial_cell,no_column_and_partial_cell",
                               "--out", out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  int cell_records = 0;
  for (const json& x : test::read_jsonl(out / "results.jsonl")) {
    if (x["id"] == "fails") {
      CHECK_FALSE(x.contains("cells"));  // no rows, nothing counted
      continue;
    }
    CAPTURE(x.dump());
    REQUIRE(x.contains("alignment"));
    if (!x.contains("cells")) continue;
    ++cell_records;
    const json& c = x["cells"];
    const double matched = c["matched"].get<double>();
    CHECK(c["gold"].get<double>() > 0);
    CHECK(c["pred"].get<double>() == 2 * c["gold"].get<double>());  // two predicted columns, one gold
    CHECK(x["EXR"].get<double>() == doctest::Approx(matched / c["gold"].get<double>()));
    CHECK(matched == c["gold"].get<double>());  // every gold name is predicted
    if (x["technique"] == "exact_column_and_partial_cell") CHECK(x["alignment"] == "name→name");
    if (x["technique"] == "no_column_and_partial_cell") CHECK(x["alignment"] == "(column names ignored)");
  }
  CHECK(cell_records >= 2);
}

TEST_CASE("--sqlmorph-logs writes SQLMorph's log file per evaluation, names unique within a second") {
  test::temp_dir dir;
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  const auto cases = dir.path() / "cases.jsonl";
  std::string text;
  for (int i = 0; i < 5; ++i) {
    text += "{\"id\": " + std::to_string(i) + ", \"db\": \"" + db +
            "\", \"gold\": \"SELECT name, salary FROM employees\", \"pred\": \"SELECT name FROM employees" +
            (i % 2 == 0 ? "" : " WHERE salary > 0") + (i == 4 ? " WHERE nope" : "") + "\"}\n";
  }
  write_file(cases, text);
  const auto logs = dir.path() / "logs";
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph(
      {"--config", (test::source_dir() / "sqlmorph.toml").string(), "-q", "eval", "--cases", cases.string(),
       "--techniques", "execution_accuracy,exact_column_and_partial_cell", "--penalize-extra-pred-cols",
       "both", "--out", out.string(), "--sqlmorph-logs", logs.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<std::string, json> records;  // by id/technique/penalize
  for (const json& x : test::read_jsonl(out / "results.jsonl"))
    records[x["id"].dump() + "/" + x["technique"].get<std::string>() + "/" +
            x["penalize_extra_pred_cols"].dump()] = x;
  REQUIRE(records.size() == 15);
  std::size_t files = 0;
  std::set<std::string> seen;
  for (const char* technique : {"execution_accuracy", "exact_column_and_partial_cell"}) {
    REQUIRE(std::filesystem::is_directory(logs / technique));
    for (const auto& entry : std::filesystem::directory_iterator(logs / technique)) {
      ++files;
      const std::string name = entry.path().filename().string();
      CHECK(name.rfind("evaluation-", 0) == 0);
      CHECK(entry.path().extension() == ".json");
      const json log = json::parse(test::file_bytes(entry.path()));
      CAPTURE(log.dump());
      const std::string key =
          log["id"].dump() + "/" + technique + "/" + log["penalize_extra_pred_cols"].dump();
      CHECK(seen.insert(key).second);  // one file per evaluation
      REQUIRE(records.count(key) == 1);
      const json& rec = records[key];
      CHECK(log["technique"] == technique);
      CHECK(log["ground_truth_sql"] == "SELECT name, salary FROM employees");
      CHECK(log["metrics"]["EX"] == rec["EX"]);
      if (rec["F1"].is_number()) CHECK(log["metrics"]["F1"].get<double>() == rec["F1"].get<double>());
      CHECK(log["has_error"] == (rec["status"] != "ok"));
      CHECK(log["evaluation_timestamp"].get<std::string>().size() == 19);  // %Y-%m-%d_%H-%M-%S
      CHECK(log["latency"].is_number());
      if (rec["status"] == "ok") {
        CHECK(log["gt_cols"] == json::array({"name", "salary"}));
        CHECK(log["pred_cols"] == json::array({"name"}));
        CHECK(log["gt_rows"].size() == std::min<std::size_t>(20, log["gt_rows"].size()));
        CHECK(log["gt_rows"][0].size() == 2);
      } else {
        CHECK(log["error_message"].get<std::string>().find("nope") != std::string::npos);
      }
      if (std::string(technique) == "exact_column_and_partial_cell" && rec["status"] == "ok") {
        // EXR = matched / gold; EXP = matched / the cells counted for this variant.
        CHECK(rec["EXR"].get<double>() ==
              doctest::Approx(log["matched_cells"].get<double>() / log["ground_truth_cells"].get<double>()));
        CHECK(rec["EXP"].get<double>() ==
              doctest::Approx(log["matched_cells"].get<double>() / log["predicted_cells"].get<double>()));
      }
    }
  }
  CHECK(files == 15);
}
