// The sqlmorph executable: commands, output formats, exit codes, and end-to-end agreement with the
// reference on Spider dev prediction files.

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;

namespace {

using test::read_jsonl;
using test::write_file;

std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

}  // namespace

TEST_CASE("every command has --help") {
  for (const char* cmd : {"compare", "eval", "plugins", "techniques"}) {
    const auto r = run_sqlmorph({cmd, "--help"});
    CAPTURE(cmd);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Usage") != std::string::npos);
  }
  const auto top = run_sqlmorph({"--help"});
  CHECK(top.exit_code == 0);
  CHECK(top.out.find("compare") != std::string::npos);
}

TEST_CASE("bad usage exits with 2 and says what is wrong") {
  const auto missing = run_sqlmorph({"compare", "--db", "x.sqlite", "--gold", "SELECT 1"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--pred is required") != std::string::npos);
  const auto unknown =
      run_sqlmorph({"compare", "--db", "x", "--gold", "a", "--pred", "b", "--techniques", "nope"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown technique 'nope'; known techniques: execution_accuracy") !=
        std::string::npos);
  const auto penalize = run_sqlmorph(
      {"compare", "--db", "x", "--gold", "a", "--pred", "b", "--penalize-extra-pred-cols", "maybe"});
  CHECK(penalize.exit_code == 2);
  const auto nothing = run_sqlmorph({"eval"});
  CHECK(nothing.exit_code == 2);
  CHECK(nothing.err.find("nothing to evaluate") != std::string::npos);
}

TEST_CASE("a bad configuration file is refused with its line") {
  test::temp_dir dir;
  write_file(dir.path() / "sqlmorph.toml", "[run]\nmax_rowz = 3\n");
  const auto r = run_sqlmorph({"techniques"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("sqlmorph.toml:2:1: unknown key 'max_rowz' in [run]") != std::string::npos);
}

TEST_CASE("compare prints a table, or one JSON object with every technique variant") {
  const std::string db = demo_db().string();
  const auto table =
      run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold",
                    "SELECT name FROM employees WHERE dept = 'eng'", "--pred", "SELECT name FROM employees"});
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("exact_column_and_partial_cell") != std::string::npos);

  const auto r = run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold",
                               "SELECT name, salary FROM employees", "--pred",
                               "SELECT name AS who, salary FROM employees WHERE salary > 60000", "--json",
                               "--penalize-extra-pred-cols", "both"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  const auto& results = j["results"];
  REQUIRE(results.size() >= 9);  // every technique; the cell ones twice (both penalize values)
  std::map<std::string, json> by;
  for (const json& x : results)
    by[x["technique"].get<std::string>() + "/" + x["penalize_extra_pred_cols"].dump()] = x;
  const json& ea = by["execution_accuracy/null"];
  CHECK(ea["status"] == "ok");
  CHECK(ea["EX"] == 0);
  CHECK(ea["EXP"].is_null());
  CHECK(ea["error"].is_null());
  CHECK(ea["gold_ms"].is_number());
  const json& ts = by["test_suite/null"];
  CHECK(ts["EX"] == 0);
  CHECK(ts["F1"].is_null());
  CHECK(ts["order_matters"] == false);
  const json& pt = by["exact_column_and_partial_cell/true"];
  const json& pf = by["exact_column_and_partial_cell/false"];
  CHECK(pt["EXP"].get<double>() <
        pf["EXP"].get<double>());  // the unmatched "who" column counts when penalizing
  for (const char* key : {"technique", "penalize_extra_pred_cols", "status", "EX", "EXP", "EXR", "F1",
                          "error", "gold_ms", "pred_ms", "technique_ms"}) {
    CHECK(pt.contains(key));
  }
}

TEST_CASE("compare --show-rows shows both results side by side with the unmatched rows marked") {
  const std::string db = demo_db().string();
  const auto r = run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold",
                               "SELECT name FROM employees WHERE dept = 'eng'", "--pred",
                               "SELECT name, salary FROM employees", "--techniques",
                               "execution_accuracy,exact_column_and_partial_cell", "--show-rows", "50"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("gold: SELECT name FROM employees WHERE dept = 'eng'") != std::string::npos);
  CHECK(r.out.find("columns paired by name: name; only in the prediction: salary") != std::string::npos);
  CHECK(r.out.find("gold result: ") != std::string::npos);
  CHECK(r.out.find("\n*") != std::string::npos);  // employees outside 'eng' are predicted, not gold
  CHECK(r.out.find("exact_column_and_partial_cell") != std::string::npos);
  // Without a count: 20 rows; with --json the evidence is an examples.jsonl line under "example".
  const auto j = run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold",
                               "SELECT name FROM employees", "--pred", "SELECT name FROM employees",
                               "--techniques", "execution_accuracy", "--json", "--show-rows"});
  REQUIRE_MESSAGE(j.exit_code == 0, j.err);
  const json parsed = json::parse(j.out);
  REQUIRE(parsed.contains("example"));
  const json& gold = parsed["example"]["gold_result"];
  CHECK(gold["columns"] == json::array({"name"}));
  CHECK(gold["rows"].size() == std::min<std::size_t>(20, gold["row_count"].get<std::size_t>()));
  CHECK(parsed["results"][0]["EX"] == 1);
  const auto bad = run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold", "SELECT 1",
                                 "--pred", "SELECT 1", "--show-rows", "many"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--show-rows") != std::string::npos);
}

TEST_CASE("compare reports failures as statuses, never crashes") {
  const std::string db = demo_db().string();
  const auto status_of = [&](const std::string& gold, const std::string& pred,
                             std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--config", config_arg(), "compare",      "--db",
                                     db,         "--gold",     gold,           "--pred",
                                     pred,       "--json",     "--techniques", "execution_accuracy"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_sqlmorph(args);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out)["results"][0];
  };
  CHECK(status_of("SELECT 1", "SELEC 1")["status"] == "pred_error");
  CHECK(status_of("SELECT nope FROM employees", "SELECT 1")["status"] == "gold_error");
  const json drop = status_of("SELECT 1", "DROP TABLE employees");
  CHECK(drop["status"] == "pred_error");
  CHECK(drop["error"].get<std::string>().find("not authorized") != std::string::npos);
  CHECK(status_of("SELECT 1", "SELECT 1; SELECT 2")["status"] == "pred_error");
  const json slow = status_of(
      "SELECT 1", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
      {"--timeout", "0.5"});
  CHECK(slow["status"] == "timeout");
  const json big =
      status_of("SELECT 1", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c",
                {"--max-rows", "50"});
  CHECK(big["status"] == "truncated");
  const auto missing = run_sqlmorph({"--config", config_arg(), "compare", "--db", "/no/such.sqlite", "--gold",
                                     "SELECT 1", "--pred", "SELECT 1", "--json"});
  CHECK(missing.exit_code == 0);
  CHECK(json::parse(missing.out)["results"][0]["status"] == "db_missing");
  CHECK(json::parse(missing.out)["results"][0]["EX"].is_null());
}

TEST_CASE("eval on a cases file writes results.jsonl and summary.json") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  write_file(
      cases,
      "{\"id\": \"ok\", \"db\": \"" + demo_db().string() +
          "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT name FROM employees\"}\n"
          "{\"id\": \"bad\", \"db\": \"" +
          demo_db().string() +
          "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT nam FROM employees\"}\n"
          "{\"id\": \"gone\", \"db\": \"missing.sqlite\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 1\"}\n");
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config_arg(), "eval", "--cases", cases.string(), "--out",
                               out.string(), "--penalize-extra-pred-cols", "both"});
  REQUIRE(r.exit_code == 0);
  const auto results = read_jsonl(out / "results.jsonl");
  const auto variants = static_cast<int>(results.size() / 3);
  CHECK(variants >= 9);
  CHECK(results.size() == static_cast<std::size_t>(3 * variants));
  CHECK(results[0]["id"] == "ok");
  CHECK(results[0]["db_id"] == "demo");
  CHECK(results[0]["EX"] == 1);
  std::map<std::string, int> statuses;
  for (const json& x : results) ++statuses[x["status"]];
  CHECK(statuses["ok"] == variants);
  CHECK(statuses["pred_error"] == variants);
  CHECK(statuses["db_missing"] == variants);
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  CHECK(summary["examples"] == 3);
  REQUIRE(summary["techniques"].size() == static_cast<std::size_t>(variants));
  const json& first = summary["techniques"][0];
  CHECK(first["technique"] == "execution_accuracy");
  CHECK(first["count"] == 3);
  CHECK(first["scored"] == 2);
  CHECK(first["EX"] == 0.5);
  CHECK(first["statuses"]["db_missing"] == 1);
  CHECK(r.out.find("execution_accuracy") != std::string::npos);

  write_file(dir.path() / "broken.jsonl", "{\"id\": \"x\"}\n");
  const auto broken = run_sqlmorph({"--config", config_arg(), "eval", "--cases",
                                    (dir.path() / "broken.jsonl").string(), "--out", out.string()});
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("broken.jsonl:1: missing field 'gold'") != std::string::npos);
  write_file(dir.path() / "no_db.jsonl", "{\"id\": \"x\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 1\"}\n");
  const auto no_db = run_sqlmorph({"--config", config_arg(), "eval", "--cases",
                                   (dir.path() / "no_db.jsonl").string(), "--out", out.string()});
  CHECK(no_db.exit_code == 2);
  CHECK(no_db.err.find("no_db.jsonl:1: give 'db' (a database file) or 'db_id'") != std::string::npos);
}

TEST_CASE("sqlmorph plugins lists components and refused libraries") {
  test::temp_dir dir;
  write_file(dir.path() / "sqlmorph.toml", "[plugins]\ndirs = [\"" + test::plugin_dir().string() + "\", \"" +
                                               test::bad_plugin_dir().string() + "\"]\n");
  const auto r = run_sqlmorph({"plugins"}, dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("backend sqlite 1.0.0") != std::string::npos);
  CHECK(r.out.find("penalize_extra_pred_cols (bool, sweepable, default true)") != std::string::npos);
  CHECK(r.out.find("refused libraries:") != std::string::npos);
  CHECK(r.out.find("sqlmorph_bad_wrong_abi.so: has plugin ABI version 999") != std::string::npos);
  const auto j = run_sqlmorph({"plugins", "--json"}, dir.path());
  const json parsed = json::parse(j.out);
  CHECK(parsed["refused"].size() == 7);
  int sweepable = 0;
  for (const json& c : parsed["components"]) {
    for (const json& o : c["options"]) {
      if (o["sweepable"] == true) {
        ++sweepable;
        CHECK(o["name"] == "penalize_extra_pred_cols");
      }
    }
  }
  CHECK(sweepable == 2);  // sqlmorph_cells and semantic_cells
  CHECK(parsed["components"].size() > 10);
  // Backends show their capabilities (an instance made with the default options).
  CHECK(r.out.find("capabilities: dialect sqlite; statements checked by the engine; check without executing: "
                   "yes; schema description: yes") != std::string::npos);
  bool saw_odbc = false;
  for (const json& c : parsed["components"]) {
    if (c["kind"] == "backend" && c["name"] == "odbc") {
      saw_odbc = true;
      CHECK(c["capabilities"]["statement_gate"] == "sdk");
      CHECK(c["capabilities"]["checks_without_executing"] == false);
      CHECK(c["capabilities"]["describes_schema"] == false);
    }
  }
  CHECK(saw_odbc);
  // The option tables of the plugin READMEs, generated from the manifests.
  const auto md = run_sqlmorph({"plugins", "--markdown"}, dir.path());
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("## backend_sqlite\n") != std::string::npos);
  CHECK(md.out.find("<!-- options: backend sqlite -->\n| option | type | default | |\n|---|---|---|---|\n"
                    "| `immutable` | bool | `false` | ") != std::string::npos);
  CHECK(md.out.find("<!-- /options -->") != std::string::npos);
}

TEST_CASE("a technique declared in sqlmorph.toml uses a plugin written against the SDK alone") {
  test::temp_dir dir;
  write_file(dir.path() / "sqlmorph.toml",
             "[plugins]\ndirs = [\"" + test::plugin_dir().string() + "\", \"" +
                 (test::build_dir() / "examples/plugins").string() +
                 "\"]\n"
                 "[techniques.folded_column_and_partial_cell]\n"
                 "description = \"exact_column_and_partial_cell, names compared ignoring case\"\n"
                 "columns = { name = \"folded_names\", trim = true }\n"
                 "rows = \"greedy_partial\"\n"
                 "scorer = \"sqlmorph_cells\"\n");
  const auto listed = run_sqlmorph({"techniques"}, dir.path());
  CHECK(listed.exit_code == 0);
  CHECK(listed.out.find("folded_column_and_partial_cell  (sqlmorph.toml:3:1)") != std::string::npos);
  const auto r =
      run_sqlmorph({"compare", "--db", demo_db().string(), "--gold", "SELECT name, dept FROM employees",
                    "--pred", "SELECT name AS NAME, dept AS \"Dept \" FROM employees WHERE id <= 4",
                    "--techniques", "exact_column_and_partial_cell,folded_column_and_partial_cell", "--json"},
                   dir.path());
  REQUIRE(r.exit_code == 0);
  const json results = json::parse(r.out)["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["EXP"] == 0.0);  // exact names: "NAME" is not "name"
  CHECK(results[1]["technique"] == "folded_column_and_partial_cell");
  CHECK(results[1]["EXP"] == 1.0);  // 4 predicted rows, all in the gold
  CHECK(results[1]["EXR"] == 0.5);  // of 8 gold rows
  write_file(dir.path() / "sqlmorph.toml",
             "[techniques.broken]\ncolumns = \"no_such\"\nrows = \"multiset\"\nscorer = \"verdict\"\n");
  const auto broken = run_sqlmorph({"compare", "--db", demo_db().string(), "--gold", "SELECT 1", "--pred",
                                    "SELECT 1", "--techniques", "broken"},
                                   dir.path());
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("technique 'broken' (sqlmorph.toml:1:1): unknown column_matcher 'no_such'") !=
        std::string::npos);
}

TEST_CASE("a semantic technique uses an embedder plugin written against the SDK alone") {
  // examples/plugins/embedder_letters: vectors of letter counts, so a column renamed to an anagram
  // of its name ("budget" -> "tegdub") has the same description vector as the gold column.
  test::temp_dir dir;
  write_file(dir.path() / "sqlmorph.toml", "[plugins]\ndirs = [\"" + test::plugin_dir().string() + "\", \"" +
                                               (test::build_dir() / "examples/plugins").string() +
                                               "\"]\n"
                                               "[embedders.letters]\n"
                                               "plugin = \"letter_counts\"\n"
                                               "options = { fold_case = true }\n"
                                               "[techniques.letters_column_and_exact_cell]\n"
                                               "columns = { name = \"semantic\", embedder = \"letters\" }\n"
                                               "rows = \"multiset\"\n"
                                               "scorer = \"semantic_cells\"\n");
  const auto listed = run_sqlmorph({"plugins"}, dir.path());
  CHECK(listed.out.find("letter_counts") != std::string::npos);
  const auto cache = dir.path() / "embeddings.sqlite";
  const auto r =
      run_sqlmorph({"compare", "--db", demo_db().string(), "--gold", "SELECT name, budget FROM departments",
                    "--pred", "SELECT budget AS tegdub, name AS eman FROM departments", "--techniques",
                    "exact_column_and_exact_cell,letters_column_and_exact_cell", "--embedding-cache",
                    cache.string(), "--json"},
                   dir.path());
  REQUIRE(r.exit_code == 0);
  const json results = json::parse(r.out)["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["EXP"] == 0.0);  // no common name
  CHECK(results[1]["technique"] == "letters_column_and_exact_cell");
  CHECK(results[1]["status"] == "ok");
  CHECK(results[1]["EXP"] == 1.0);  // eman ~ name, tegdub ~ budget: every cell matches in pair order
  CHECK(results[1]["EXR"] == 1.0);
  // The vectors came from the plugin, through the host's cache (keyed by the plugin's model_id).
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(cache.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT model, count(*) FROM embeddings GROUP BY model", -1, &st, nullptr) ==
          SQLITE_OK);
  std::map<std::string, int> per_model;
  while (sqlite3_step(st) == SQLITE_ROW) {
    per_model[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = sqlite3_column_int(st, 1);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  CHECK(per_model.size() == 1);
  CHECK(per_model["letter-counts-v1-folded"] == 4);  // two gold and two predicted column descriptions
}

TEST_CASE("eval on Spider dev prediction files agrees with the reference, record by record") {
  if (test::skip_without_shared("spider eval")) return;
  const auto shared = *test::shared_dir();
  const auto spider = shared / "benchmarks/spider-dev";
  const std::pair<const char*, const char*> systems[] = {{"dail-sql-gpt4", "dail-sql-gpt4.sql"},
                                                         {"c3-gpt35", "c3-gpt35.sql"},
                                                         {"resdsql-3b", "resdsql-3b.sql"},
                                                         {"din-sql-gpt4", "din-sql-gpt4.csv"}};
  for (const auto& [system, file] : systems) {
    CAPTURE(system);
    test::temp_dir dir;
    const auto r =
        run_sqlmorph({"--config", config_arg(), "-q", "eval", "--benchmark", "spider", "--gold",
                      (spider / "dev_gold.sql").string(), "--pred", (spider / "predictions" / file).string(),
                      "--db-root", (spider / "database").string(), "--system", system,
                      "--penalize-extra-pred-cols", "both", "--out", dir.path().string()});
    REQUIRE(r.exit_code == 0);
    std::map<std::string, json> ours;
    std::size_t missing_db = 0;
    for (const json& x : read_jsonl(dir.path() / "results.jsonl")) {
      ours[x["id"].get<std::string>() + "|" + x["technique"].get<std::string>() + "|" +
           x["penalize_extra_pred_cols"].dump()] = x;
      if (x["status"] == "db_missing") ++missing_db;
    }
    const std::size_t variants = ours.size() / 1034;
    CHECK(variants >= 9);
    CHECK(ours.size() == 1034 * variants);
    CHECK(missing_db == 62 * variants);  // wta_1 is not available
    std::ifstream in(shared / "parity/spider-dev" / (std::string(system) + ".jsonl"));
    std::string line;
    std::size_t compared = 0;
    std::size_t mismatches = 0;
    while (std::getline(in, line)) {
      const json rec = json::parse(line);
      for (const json& e : rec["expected"]) {
        const std::string t = e["technique"];
        // The semantic techniques run with hash_trigram, the default embedder; unified is float32.
        const double tolerance = t == "unified_column_and_semantic_row" ? 1e-5 : 1e-9;
        const json penalize =
            e.contains("penalize_extra_pred_cols") ? e["penalize_extra_pred_cols"] : json(nullptr);
        const auto it = ours.find(rec["id"].get<std::string>() + "|" + t + "|" + penalize.dump());
        REQUIRE(it != ours.end());
        const json& x = it->second;
        ++compared;
        bool same = true;
        if (t == "spider_official_exec") {
          same = x["EX"] == e["score"];
        } else if (t == "test_suite") {
          same = x["EX"] == (e["equal"].get<bool>() ? 1 : 0);
        } else {
          for (const char* m : {"EX", "EXP", "EXR", "F1"}) {
            if (e.contains(m)) same = same && std::abs(x[m].get<double>() - e[m].get<double>()) <= tolerance;
          }
          same = same && (e["error"].get<bool>() == (x["status"] != "ok"));
        }
        if (!same) {
          ++mismatches;
          FAIL_CHECK(rec["id"] << " " << t << " " << penalize << ": expected " << e.dump() << ", got "
                               << x.dump());
        }
      }
    }
    CHECK(compared > 972 * 12);  // 11,760 or more per system with the semantic techniques
    CHECK(mismatches == 0);
  }
}

TEST_CASE("sqlmorph run: an experiment script evaluates, reports and writes files") {
  test::temp_dir dir;
  const auto script = dir.path() / "experiment.lua";
  write_file(script, R"(
local name, out = ...
local examples = sqlmorph.cases{ file = name, db_root = arg[3], system = "demo-system" }
local result = sqlmorph.evaluate{ examples = examples, techniques = {"execution_accuracy", "malloy"}, out = out,
                                  timeout = 2, max_rows = 1000 }
local rows = {}
for _, row in ipairs(result.rows) do rows[#rows + 1] = { row.technique, row.count, row.EX } end
print(sqlmorph.format_table({"technique", "count", "EX"}, rows))
sqlmorph.write_file(out .. "/note.txt", "examples=" .. result.examples)
)");
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config_arg(), "run", script.string(),
                               (test::source_dir() / "examples/demo/cases.jsonl").string(), out.string(),
                               (test::build_dir() / "examples/demo").string()});
  CHECK(r.exit_code == 0);
  CAPTURE(r.err);
  CHECK(r.out.find("execution_accuracy") != std::string::npos);
  CHECK(r.out.find("malloy") != std::string::npos);
  CHECK(test::file_bytes(out / "note.txt") == "examples=20");
  const auto results = read_jsonl(out / "results.jsonl");
  CHECK(results.size() == 40);
  CHECK(results[0]["system"] == "demo-system");
  CHECK(std::filesystem::exists(out / "summary.json"));
}

TEST_CASE("sqlmorph run: script errors name the file and line, with a traceback") {
  test::temp_dir dir;
  write_file(dir.path() / "syntax.lua", "local x = = 1\n");
  const auto syntax = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "syntax.lua").string()});
  CHECK(syntax.exit_code == 1);
  CHECK(syntax.err.find("syntax.lua:1: unexpected symbol near '='") != std::string::npos);
  write_file(dir.path() / "runtime.lua", "local function f(t)\n  return t.missing.field\nend\nf({})\n");
  const auto runtime = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "runtime.lua").string()});
  CHECK(runtime.exit_code == 1);
  CHECK(runtime.err.find("runtime.lua:2: attempt to index a nil value (field 'missing')") !=
        std::string::npos);
  CHECK(runtime.err.find("stack traceback:") != std::string::npos);
  CHECK(runtime.err.find("runtime.lua:4: in main chunk") != std::string::npos);
  write_file(dir.path() / "unknown.lua",
             "sqlmorph.evaluate{ examples = sqlmorph.cases{ file = 'x.jsonl' } }\n");
  const auto unreadable =
      run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "unknown.lua").string()});
  CHECK(unreadable.exit_code == 1);
  CHECK(unreadable.err.find("unknown.lua:1: x.jsonl: cannot be read") != std::string::npos);
  const auto missing = run_sqlmorph({"run", (dir.path() / "nope.lua").string()});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("nope.lua does not exist") != std::string::npos);
}

TEST_CASE("sqlmorph run examples/spider_dev.lua compares the four systems") {
  if (test::skip_without_shared("spider_dev.lua")) return;
  test::temp_dir dir;
  const auto r = run_sqlmorph(
      {"--config", config_arg(), "-q", "run", (test::source_dir() / "examples/spider_dev.lua").string(),
       (*test::shared_dir() / "benchmarks/spider-dev").string(), dir.path().string()});
  REQUIRE(r.exit_code == 0);
  for (const char* expected : {"dail-sql-gpt4", "c3-gpt35", "din-sql-gpt4", "resdsql-3b",
                               "execution_accuracy", "malloy", "exact_column_and_partial_cell (penalize)"}) {
    CHECK(r.out.find(expected) != std::string::npos);
  }
  CHECK(test::file_bytes(dir.path() / "comparison.txt").find("spider_official_exec") != std::string::npos);
  const json summary = json::parse(test::file_bytes(dir.path() / "summary.json"));
  CHECK(summary["examples"] == 4 * 1034);
  // The official score of DAIL-SQL (GPT-4) over the 972 scorable examples.
  for (const json& t : summary["techniques"]) {
    if (t["system"] == "dail-sql-gpt4" && t["technique"] == "spider_official_exec") CHECK(t["scored"] == 972);
  }
}
