// Judges from the command line and inside runs: `sqlmorph judge`, `eval --judges`, judge lines in
// results.jsonl, the summary's agreement with EX, --resume, and `judges = {...}` in Lua experiments.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "output/statistics.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;

namespace {

using test::read_jsonl;
using test::write_file;

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

// A shop database and four cases whose EX and sql_correctness labels are known:
//   good      EX 1, binds      -> judge 1, EX 1
//   fewer     EX 0, binds      -> judge 1, EX 0
//   typo      pred_error (EX 0), does not bind -> judge 0, EX 0
//   other_db  EX 1 on another database, binds  -> judge 1, EX 1
struct shop {
  test::temp_dir dir;
  std::filesystem::path db = dir.path() / "shop.sqlite";
  std::filesystem::path cases = dir.path() / "cases.jsonl";
  shop() {
    test::create_sqlite(db,
                        "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL);"
                        "INSERT INTO items VALUES (1, 'apple', 1.5), (2, 'pear', 2.5), (3, 'plum', 0.5);");
    test::create_sqlite(dir.path() / "depot.sqlite",
                        "CREATE TABLE stock(item TEXT, qty INTEGER); INSERT INTO stock VALUES ('apple', 3);");
    write_file(
        cases,
        R"({"id": "good", "db": "shop.sqlite", "db_id": "shop", "question": "Names of all items?", "gold": "SELECT name FROM items", "pred": "SELECT name FROM items"}
{"id": "fewer", "db": "shop.sqlite", "db_id": "shop", "question": "Names of all items?", "evidence": "all = every row", "gold": "SELECT name FROM items", "pred": "SELECT name FROM items WHERE price > 1"}
{"id": "typo", "db": "shop.sqlite", "db_id": "shop", "question": "Prices of all items?", "gold": "SELECT price FROM items", "pred": "SELECT prise FROM items"}
{"id": "other_db", "db": "depot.sqlite", "db_id": "depot", "question": "How many apples?", "gold": "SELECT qty FROM stock", "pred": "SELECT qty FROM stock WHERE item = 'apple'"}
)");
  }
};

}  // namespace

TEST_CASE("sqlmorph judge --help lists its options") {
  const auto r = run_sqlmorph({"judge", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* option : {"--question", "--sql", "--judges", "--db", "--db-id", "--db-root", "--backend",
                             "--schema", "--schema-from", "--dialect", "--hints", "--timeout", "--json"}) {
    CAPTURE(option);
    CHECK(r.out.find(option) != std::string::npos);
  }
}

TEST_CASE("sqlmorph judge with sql_correctness: good SQL gets 1, an unknown column 0 naming the column") {
  shop s;
  const auto good =
      run_sqlmorph({"--config", config_arg(), "judge", "--question", "Names of all items?", "--sql",
                    "SELECT name FROM items", "--db", s.db.string(), "--judges", "sql_correctness"});
  CAPTURE(good.err);
  REQUIRE(good.exit_code == 0);
  CHECK(good.out.find("dialect: sqlite") != std::string::npos);
  CHECK(good.out.find("sql_correctness") != std::string::npos);
  CHECK(good.out.find("no problem") == std::string::npos);

  const auto bad =
      run_sqlmorph({"--config", config_arg(), "judge", "--question", "Names of all items?", "--sql",
                    "SELECT nme FROM items", "--db", s.db.string(), "--judges", "sql_correctness", "--json"});
  CAPTURE(bad.err);
  REQUIRE(bad.exit_code == 0);
  const json j = json::parse(bad.out);
  CHECK(j["question"] == "Names of all items?");
  CHECK(j["sql"] == "SELECT nme FROM items");
  CHECK(j["dialect"] == "sqlite");
  CHECK(j["database"] == s.db.string());
  CHECK(j["schema_source"] == s.db.string());
  REQUIRE(j["judges"].size() == 1);
  const json& v = j["judges"][0];
  CHECK(v["judge"] == "sql_correctness");
  CHECK(v["plugin"] == "sql_correctness");
  CHECK(v["status"] == "ok");
  CHECK(v["label"] == 0);
  CHECK(v["confidence"] == 100.0);
  CHECK(v["votes"] == json::array({0}));
  REQUIRE(v["rationales"].size() == 1);
  CHECK(v["rationales"][0].get<std::string>().find("nme") != std::string::npos);
  CHECK(v["extra"]["problem"] == "unknown_column");
  CHECK(v["prompt_tokens"] == 0);
  CHECK(v["error"].is_null());
}

TEST_CASE("sqlmorph judge: --db-id with --db-root, --schema-from, a judge_error without a database") {
  shop s;
  // DB_ROOT/ID/ID.sqlite
  std::filesystem::create_directories(s.dir.path() / "root" / "shop");
  std::filesystem::copy_file(s.db, s.dir.path() / "root" / "shop" / "shop.sqlite");
  const auto by_id =
      run_sqlmorph({"--config", config_arg(), "judge", "--question", "q", "--sql", "SELECT name FROM items",
                    "--db-id", "shop", "--db-root", (s.dir.path() / "root").string(), "--json"});
  CAPTURE(by_id.err);
  REQUIRE(by_id.exit_code == 0);
  CHECK(json::parse(by_id.out)["judges"][0]["label"] == 1);

  // --schema-from alone: the schema and the database checked against.
  const auto from = run_sqlmorph({"--config", config_arg(), "judge", "--question", "q", "--sql",
                                  "SELECT nme FROM items", "--schema-from", s.db.string(), "--json"});
  CAPTURE(from.err);
  REQUIRE(from.exit_code == 0);
  const json f = json::parse(from.out);
  CHECK(f["database"] == s.db.string());
  CHECK(f["schema_source"] == s.db.string());
  CHECK(f["judges"][0]["label"] == 0);

  // A schema file, no database: sql_correctness cannot decide; the command still succeeds.
  const auto ddl = s.dir.path() / "schema.sql";
  write_file(ddl, "CREATE TABLE items(id INTEGER, name TEXT);\n");
  const auto no_db = run_sqlmorph({"--config", config_arg(), "judge", "--question", "q", "--sql", "SELECT 1",
                                   "--schema", ddl.string(), "--json"});
  CAPTURE(no_db.err);
  REQUIRE(no_db.exit_code == 0);
  const json j = json::parse(no_db.out);
  CHECK(j["database"].is_null());
  CHECK(j["schema_source"] == ddl.string());
  CHECK(j["judges"][0]["status"] == "judge_error");
  CHECK(j["judges"][0]["label"].is_null());
  CHECK(j["judges"][0]["error"].get<std::string>().find("needs a connection") != std::string::npos);
  const auto table =
      run_sqlmorph({"--config", config_arg(), "judge", "--question", "q", "--sql", "SELECT 1"});
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("judge_error") != std::string::npos);
}

TEST_CASE("sqlmorph judge: bad usage and unreadable input exit with 2 naming the problem") {
  shop s;
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"judge", "--sql", "SELECT 1"}, "--question is required"},
      {{"judge", "--question", "q"}, "--sql is required"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--judges", "nope"},
       "unknown judge 'nope'; known judges:"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--db", (s.dir.path() / "missing.sqlite").string()},
       "--db: cannot open"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--schema", (s.dir.path() / "none.sql").string()},
       "--schema " + (s.dir.path() / "none.sql").string() + " is not a readable file"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--db", s.db.string(), "--db-id", "shop"},
       "not both"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--db-id", "shop"}, "--db-id needs --db-root"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--schema", "a", "--schema-from", "b"}, "not both"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"--config", config_arg()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_sqlmorph(args);
    CAPTURE(c.message);
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
  }
}

TEST_CASE("eval --judges sql_correctness: judge lines in results.jsonl, agreement with EX in summary.json") {
  shop s;
  const auto out = s.dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "eval", "--cases", s.cases.string(), "--techniques",
                    "execution_accuracy", "--judges", "sql_correctness", "--out", out.string(), "-j", "2"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("judges:") != std::string::npos);
  CHECK(r.out.find("agree EX") != std::string::npos);

  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 8);
  const std::map<std::string, int> labels = {{"good", 1}, {"fewer", 1}, {"typo", 0}, {"other_db", 1}};
  for (std::size_t i = 0; i < results.size(); i += 2) {
    const json& t = results[i];
    const json& j = results[i + 1];
    CHECK(t["technique"] == "execution_accuracy");
    CHECK(j["technique"] == "judge:sql_correctness");
    CHECK(j["id"] == t["id"]);
    CHECK(j["status"] == "ok");
    CAPTURE(j.dump());
    CHECK(j["label"] == labels.at(j["id"]));
    CHECK(j["confidence"] == 100.0);
    CHECK(j["votes"] == json::array({labels.at(j["id"])}));
    CHECK(j["rationales"].size() == 1);
    CHECK(j["prompt_tokens"] == 0);
    CHECK(j["completion_tokens"] == 0);
    CHECK(j["EX"].is_null());
    CHECK(j.contains("problem"));
  }
  CHECK(results[5]["rationales"][0].get<std::string>().find("prise") != std::string::npos);

  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  REQUIRE(summary["judges"].size() == 1);
  const json& g = summary["judges"][0];
  CHECK(g["judge"] == "sql_correctness");
  CHECK(g["count"] == 4);
  CHECK(g["labelled"] == 4);
  CHECK(g["mean_label"] == 0.75);
  CHECK(g["mean_confidence"] == 100.0);
  // The intervals: the bootstrap of the labels in record order; every confidence is 100.
  std::vector<double> judged;
  for (const json& x : results)
    if (x["technique"] == "judge:sql_correctness") judged.push_back(x["label"].get<double>());
  const output::interval expected = output::bootstrap_mean(judged);
  CHECK(g["interval"]["mean_label"][0].get<double>() == doctest::Approx(expected.low));
  CHECK(g["interval"]["mean_label"][1].get<double>() == doctest::Approx(expected.high));
  CHECK(g["interval"]["mean_confidence"] == json::array({100.0, 100.0}));
  CHECK(g["statuses"] == json{{"ok", 4}});
  CHECK(g["agreement_with_ex"]["compared"] == 4);
  CHECK(g["agreement_with_ex"]["agreement"] == 0.75);
  CHECK(g["agreement_with_ex"]["counts"] ==
        json{{"judge1_ex1", 2}, {"judge1_ex0", 1}, {"judge0_ex1", 0}, {"judge0_ex0", 1}});
  // Techniques are summarised as before; judges are not techniques.
  REQUIRE(summary["techniques"].size() == 1);
  CHECK(summary["techniques"][0]["technique"] == "execution_accuracy");

  const json run = json::parse(test::file_bytes(out / "run.json"));
  REQUIRE(run["judges"].size() == 1);
  CHECK(run["judges"][0]["name"] == "sql_correctness");
  CHECK(run["judges"][0]["plugin"] == "sql_correctness");
  CHECK(run["judges"][0]["declared_at"] == "component");
}

TEST_CASE("eval --judges without execution_accuracy: agreement is null, [judges.NAME] from sqlmorph.toml") {
  shop s;
  const auto config = s.dir.path() / "sqlmorph.toml";
  write_file(config, "[judges.binds]\nplugin = \"sql_correctness\"\noptions = { timeout = 3.0 }\n");
  const auto out = s.dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config.string(), "eval", "--cases", s.cases.string(), "--techniques",
                    "exact_column_and_partial_cell", "--judges", "binds", "--out", out.string()});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  REQUIRE(summary["judges"].size() == 1);
  CHECK(summary["judges"][0]["judge"] == "binds");
  CHECK(summary["judges"][0]["agreement_with_ex"].is_null());
  const json run = json::parse(test::file_bytes(out / "run.json"));
  CHECK(run["judges"][0]["options"]["timeout"] == 3.0);
  CHECK(run["judges"][0]["declared_at"].get<std::string>().find("sqlmorph.toml:1:1") != std::string::npos);
  std::set<std::string> techniques;
  for (const json& line : read_jsonl(out / "results.jsonl")) techniques.insert(line["technique"]);
  CHECK(techniques.count("judge:binds") == 1);

  const auto unknown = run_sqlmorph({"--config", config.string(), "eval", "--cases", s.cases.string(),
                                     "--judges", "binds,nope", "--out", out.string()});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown judge 'nope'; known judges: binds") != std::string::npos);
}

TEST_CASE("eval --judges --resume after a partial results file: no judge line is duplicated") {
  shop s;
  const auto out = s.dir.path() / "out";
  const std::vector<std::string> command = {"--config",
                                            config_arg(),
                                            "eval",
                                            "--cases",
                                            s.cases.string(),
                                            "--techniques",
                                            "execution_accuracy",
                                            "--judges",
                                            "sql_correctness",
                                            "--out",
                                            out.string(),
                                            "-j",
                                            "1"};
  REQUIRE(run_sqlmorph(command).exit_code == 0);
  const auto complete = read_jsonl(out / "results.jsonl");
  REQUIRE(complete.size() == 8);
  // Cut the file inside the third example: its technique line stays, its judge line is lost.
  {
    std::ifstream in(out / "results.jsonl");
    std::string text, line;
    for (int i = 0; i < 5 && std::getline(in, line); ++i) text += line + "\n";
    write_file(out / "results.jsonl", text);
  }
  std::vector<std::string> resume = command;
  resume.push_back("--resume");
  const auto r = run_sqlmorph(resume);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const auto resumed = read_jsonl(out / "results.jsonl");
  REQUIRE(resumed.size() == complete.size());
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < resumed.size(); ++i) {
    CHECK(seen.insert({resumed[i]["id"].get<std::string>(), resumed[i]["technique"].get<std::string>()})
              .second);
    CHECK(resumed[i]["id"] == complete[i]["id"]);
    CHECK(resumed[i]["technique"] == complete[i]["technique"]);
    CHECK(resumed[i].value("label", json()) == complete[i].value("label", json()));
  }
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  CHECK(summary["judges"][0]["count"] == 4);
  CHECK(summary["judges"][0]["agreement_with_ex"]["compared"] == 4);

  // Another set of judges is another run: --resume refuses it.
  std::vector<std::string> other = {
      "--config",     config_arg(),         "eval",  "--cases",    s.cases.string(),
      "--techniques", "execution_accuracy", "--out", out.string(), "--resume"};
  const auto refused = run_sqlmorph(other);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("cannot resume") != std::string::npos);
}

TEST_CASE("sqlmorph run: judges = {...} in a Lua experiment") {
  shop s;
  const auto script = s.dir.path() / "judged.lua";
  write_file(script, R"(
local cases, out = ...
local examples = sqlmorph.cases{ file = cases, system = "lua-system" }
local result = sqlmorph.evaluate{ examples = examples, techniques = {"execution_accuracy"}, out = out,
                                  judges = { "sql_correctness", strict = sqlmorph.judges.sql_correctness{ timeout = 2 } } }
for _, j in ipairs(result.judges) do
  print(string.format("%s %s count=%d mean_label=%.2f agreement=%.2f j1e0=%d", j.system, j.judge, j.count,
                      j.mean_label, j.agreement, j.counts.judge1_ex0))
end
)");
  const auto out = s.dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "run", script.string(), s.cases.string(), out.string()});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("lua-system sql_correctness count=4 mean_label=0.75 agreement=0.75 j1e0=1") !=
        std::string::npos);
  CHECK(r.out.find("lua-system strict count=4 mean_label=0.75 agreement=0.75 j1e0=1") != std::string::npos);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 12);
  CHECK(results[1]["technique"] == "judge:sql_correctness");
  CHECK(results[2]["technique"] == "judge:strict");
  const json run = json::parse(test::file_bytes(out / "run.json"));
  REQUIRE(run["judges"].size() == 2);
  CHECK(run["judges"][1]["options"]["timeout"] == 2);

  write_file(
      script,
      "sqlmorph.evaluate{ examples = sqlmorph.cases{ file = ... }, judges = { sqlmorph.normalizers.trim{} "
      "} }\n");
  const auto wrong = run_sqlmorph({"--config", config_arg(), "run", script.string(), s.cases.string()});
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.err.find("judges[1] must be a judge") != std::string::npos);
}

TEST_CASE("Spider: the judges read the questions of dev.json next to the gold file, or --questions") {
  test::temp_dir dir;
  std::filesystem::create_directories(dir.path() / "db" / "shop");
  test::create_sqlite(dir.path() / "db" / "shop" / "shop.sqlite",
                      "CREATE TABLE items(id INTEGER, name TEXT); INSERT INTO items VALUES (1, 'apple');");
  write_file(dir.path() / "gold.sql", "SELECT name FROM items\tshop\nSELECT id FROM items\tshop\n");
  write_file(dir.path() / "pred.sql", "SELECT name FROM items\nSELECT idd FROM items\n");
  write_file(dir.path() / "dev.json",
             R"([{"db_id": "shop", "question": "Item names?"}, {"db_id": "shop", "question": "Item ids?"}])");
  const auto out = dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "spider", "--gold",
                    (dir.path() / "gold.sql").string(), "--pred", (dir.path() / "pred.sql").string(),
                    "--db-root", (dir.path() / "db").string(), "--techniques", "execution_accuracy",
                    "--judges", "sql_correctness", "--out", out.string()});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 4);
  CHECK(results[1]["label"] == 1);
  CHECK(results[3]["label"] == 0);

  write_file(dir.path() / "other.json", R"([{"db_id": "elsewhere", "question": "?"}])");
  const auto mismatch = run_sqlmorph(
      {"--config", config_arg(), "eval", "--benchmark", "spider", "--gold",
       (dir.path() / "gold.sql").string(), "--pred", (dir.path() / "pred.sql").string(), "--db-root",
       (dir.path() / "db").string(), "--questions", (dir.path() / "other.json").string(), "--judges",
       "sql_correctness", "--out", out.string()});
  CHECK(mismatch.exit_code == 2);
  CHECK(mismatch.err.find("is about db_id 'elsewhere'") != std::string::npos);
}
