// `sqlmorph eval --benchmark spider --techniques spider_exact_match`: records, the official table in
// summary.json and on stdout, --tables and its default, and the run over Spider dev against the
// official evaluator's per-example numbers.

#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "output/statistics.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::read_jsonl;
using test::write_file;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

const char* tables_json = R"([{"db_id": "concert", "table_names_original": ["singer", "stadium"],
  "column_names_original": [[-1, "*"], [0, "singer_id"], [0, "name"], [0, "age"], [1, "stadium_id"], [1, "name"]],
  "foreign_keys": []}])";

// Three examples: an exact match (values and case differ), a wrong column, an unparsable prediction.
void write_benchmark(const std::filesystem::path& dir, bool with_tables) {
  std::filesystem::create_directories(dir / "database");  // nothing is executed: no database file
  write_file(dir / "gold.sql",
             "SELECT name FROM singer WHERE age > 20\tconcert\n"
             "SELECT name FROM singer\tconcert\n"
             "SELECT count(*) FROM stadium\tconcert\n");
  write_file(dir / "pred.sql",
             "select NAME from singer where age > 99\n"
             "SELECT age FROM singer\n"
             "SELECT height FROM stadium\n");
  if (with_tables) write_file(dir / "tables.json", tables_json);
}

std::vector<std::string> eval_args(const std::filesystem::path& dir, std::vector<std::string> extra,
                                   const std::string& out = "out") {
  std::vector<std::string> args = {"--config",    config_arg(),
                                   "-q",          "eval",
                                   "--benchmark", "spider",
                                   "--gold",      (dir / "gold.sql").string(),
                                   "--pred",      (dir / "pred.sql").string(),
                                   "--db-root",   (dir / "database").string(),
                                   "--out",       (dir / out).string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

TEST_CASE(
    "spider_exact_match: records with EM and partial scores, the official table, tables.json beside the "
    "gold") {
  test::temp_dir dir;
  write_benchmark(dir.path(), true);
  const auto r = test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "spider_exact_match"}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Spider, as the official evaluator prints it (pred):") != std::string::npos);
  CHECK(r.out.find("EXACT MATCHING ACCURACY") != std::string::npos);
  CHECK(r.out.find("PARTIAL MATCHING F1") != std::string::npos);
  // No execution technique: one count row, no execution block.
  CHECK(r.out.find("count (exact match)") == std::string::npos);
  CHECK(r.out.find("EXECUTION ACCURACY") == std::string::npos);
  // No empty EX row for it in the execution table by difficulty (here the only technique: no such table).
  CHECK(r.out.find("by difficulty") == std::string::npos);
  const auto records = read_jsonl(dir.path() / "out" / "results.jsonl");
  REQUIRE(records.size() == 3);
  CHECK(records[0]["technique"] == "spider_exact_match");
  CHECK(records[0]["EX"].is_null());
  CHECK(records[0]["EM"] == 1);
  CHECK(records[1]["EM"] == 0);
  CHECK(records[1]["partial"]["select"]["f1"] == 0);
  CHECK(records[1]["partial"]["select"]["label_total"] == 1);
  CHECK(records[2]["EM"] == 0);
  CHECK(records[2]["pred_parsed"] == false);
  CHECK(records[2]["partial"]["select"]["pred_total"] == 0);
  CHECK(records[2]["partial"].size() == 10);
  CHECK(records[2]["partial"]["group(no Having)"].size() == 5);
  std::ifstream in(dir.path() / "out" / "summary.json");
  const json summary = json::parse(in);
  const json& em = summary["spider_exact_match"].at(0);
  CHECK(em["system"] == "pred");
  CHECK(em["by_difficulty"]["all"]["count"] == 3);
  CHECK(em["by_difficulty"]["all"]["EM"].get<double>() == doctest::Approx(1.0 / 3));
  CHECK(em["by_difficulty"]["easy"]["EM"].get<double>() == doctest::Approx(1.0 / 3));
  // Its interval: the bootstrap of the examples' EM in record order; no example at the other levels.
  std::vector<double> em_values;
  for (const json& x : records) em_values.push_back(x["EM"].get<double>());
  const output::interval expected = output::bootstrap_mean(em_values);
  CHECK(em["by_difficulty"]["all"]["interval"]["EM"][0].get<double>() == doctest::Approx(expected.low));
  CHECK(em["by_difficulty"]["all"]["interval"]["EM"][1].get<double>() == doctest::Approx(expected.high));
  CHECK(em["by_difficulty"]["easy"]["interval"]["EM"] == em["by_difficulty"]["all"]["interval"]["EM"]);
  CHECK(em["by_difficulty"]["hard"]["interval"]["EM"].is_null());
  // select: acc over the 2 examples that predicted a select clause, rec over all 3 gold clauses.
  CHECK(em["by_difficulty"]["all"]["partial"]["select"]["acc"].get<double>() == doctest::Approx(0.5));
  CHECK(em["by_difficulty"]["all"]["partial"]["select"]["rec"].get<double>() == doctest::Approx(1.0 / 3));
}

TEST_CASE("spider_exact_match: --tables is read, a missing or bad tables.json is a usage error") {
  test::temp_dir dir;
  write_benchmark(dir.path(), false);
  const auto none = test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "spider_exact_match"}));
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("needs Spider's tables.json") != std::string::npos);
  write_file(dir.path() / "elsewhere.json", tables_json);
  const auto given =
      test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "spider_exact_match", "--tables",
                                                (dir.path() / "elsewhere.json").string()}));
  INFO(given.err);
  CHECK(given.exit_code == 0);
  write_file(dir.path() / "bad.json", "[{\"db_id\": 3}]");
  const auto bad =
      test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "spider_exact_match", "--tables",
                                                (dir.path() / "bad.json").string(), "--resume"}));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.json: entry 0") != std::string::npos);
  const auto unused =
      test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "execution_accuracy", "--tables",
                                                (dir.path() / "elsewhere.json").string()}));
  CHECK(unused.exit_code == 2);
  CHECK(unused.err.find("--tables is read by spider_exact_match only") != std::string::npos);
}

TEST_CASE(
    "spider_exact_match over Spider dev beside execution: every record as the official evaluator scores it") {
  if (test::skip_without_shared("spider exact match run")) return;
  const auto shared = *test::shared_dir();
  const auto spider = shared / "benchmarks/spider-dev";
  test::temp_dir dir;
  const auto r = test::run_sqlmorph(
      {"--config", config_arg(), "-q", "eval", "--benchmark", "spider", "--gold",
       (spider / "dev_gold.sql").string(), "--pred", (spider / "predictions/c3-gpt35.sql").string(),
       "--db-root", (spider / "database").string(), "--techniques",
       "spider_exact_match,execution_accuracy,spider_official_exec", "--out", dir.path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // One official table (print_scores, --etype all): the execution block over the 972 examples with
  // a database, the exact-match block over all 1034 (wta_1 is in tables.json, not on disk) with
  // its own count row; the numbers those of summary.json.
  {
    std::ifstream in(dir.path() / "summary.json");
    const json summary = json::parse(in);
    double exec_all = -1;
    for (const json& t : summary["techniques"]) {
      if (t["technique"] == "spider_official_exec") exec_all = t["EX"].get<double>();
    }
    const double em_all = summary["spider_exact_match"].at(0)["by_difficulty"]["all"]["EM"].get<double>();
    char exec_row[64];
    char em_row[64];
    std::snprintf(exec_row, sizeof exec_row, "%.3f\n", exec_all);
    std::snprintf(em_row, sizeof em_row, "%.3f\n", em_all);
    const auto at = [&](const std::string& text, std::size_t from = 0) { return r.out.find(text, from); };
    const std::size_t title = at("Spider, as the official evaluator prints it (c3-gpt35):\n");
    REQUIRE(title != std::string::npos);
    const std::size_t count = at("\ncount                ", title);
    const std::size_t exec = at("\nexecution            ", title);
    const std::size_t em_title =
        at("====================== EXACT MATCHING ACCURACY =====================\n", title);
    const std::size_t em_count = at("\ncount (exact match)  ", title);
    const std::size_t em = at("\nexact match          ", title);
    const std::size_t partial = at("PARTIAL MATCHING F1", title);
    CHECK(title < count);
    CHECK(count < exec);
    CHECK(exec < em_title);
    CHECK(em_title < em_count);
    CHECK(em_count < em);
    CHECK(em < partial);
    CHECK(partial != std::string::npos);
    // The last column ("all") of a row.
    const auto last_cell = [&](std::size_t row) {
      std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
      line.erase(line.find_last_not_of(' ') + 1);
      return line.substr(line.find_last_of(' ') + 1) + "\n";
    };
    CHECK(last_cell(exec) == exec_row);
    CHECK(last_cell(em) == em_row);
    CHECK(last_cell(count) == "972\n");
    CHECK(last_cell(em_count) == "1034\n");
    // The exact-match block is printed once.
    CHECK(r.out.find("EXACT MATCHING ACCURACY", em) == std::string::npos);
  }
  std::map<std::string, json> ours;
  for (const json& x : read_jsonl(dir.path() / "results.jsonl")) {
    if (x["technique"] == "spider_exact_match") ours[x["id"].get<std::string>()] = x;
  }
  CHECK(ours.size() == 1034);
  std::ifstream in(shared / "parity/spider-em/c3-gpt35.jsonl");
  std::size_t compared = 0;
  std::size_t mismatches = 0;
  for (std::string line; std::getline(in, line);) {
    const json rec = json::parse(line);
    const json& e = rec["expected"].at(0);
    const json& got = ours.at(rec["id"].get<std::string>());
    ++compared;
    bool same = got["EM"] == e["exact"] && got["pred_parsed"] == e["pred_parsed"] &&
                got["difficulty"] == e["hardness"];
    for (const auto& [clause, scores] : e["partial"].items()) {
      for (const auto& [name, value] : scores.items()) same = same && got["partial"][clause][name] == value;
    }
    if (!same && ++mismatches <= 5) MESSAGE(rec["id"] << " differs: " << got.dump());
  }
  CHECK(compared == 972);
  CHECK(mismatches == 0);
}

TEST_CASE("spider_exact_match: a database absent from tables.json is db_missing, the others are scored") {
  test::temp_dir dir;
  write_benchmark(dir.path(), true);
  write_file(dir.path() / "gold.sql", "SELECT name FROM singer\tconcert\nSELECT name FROM singer\tnosuch\n");
  write_file(dir.path() / "pred.sql", "SELECT name FROM singer\nSELECT name FROM singer\n");
  const auto r = test::run_sqlmorph(eval_args(dir.path(), {"--techniques", "spider_exact_match"}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto records = read_jsonl(dir.path() / "out" / "results.jsonl");
  REQUIRE(records.size() == 2);
  CHECK(records[0]["EM"] == 1);
  CHECK(records[1]["status"] == "db_missing");
  CHECK(records[1]["error"].get<std::string>().find("'nosuch' is not in tables.json") != std::string::npos);
  std::ifstream in(dir.path() / "out" / "summary.json");
  const json summary = json::parse(in);
  CHECK(summary["spider_exact_match"].at(0)["by_difficulty"]["all"]["count"] == 1);
}

TEST_CASE("spider_exact_match: shards merge into the run's records and table") {
  test::temp_dir dir;
  write_benchmark(dir.path(), true);
  for (const char* shard : {"0/2", "1/2"}) {
    const auto r = test::run_sqlmorph(eval_args(
        dir.path(), {"--techniques", "spider_exact_match", "--shard", shard}, std::string("out") + shard[0]));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
  }
  const auto merged =
      test::run_sqlmorph({"--config", config_arg(), "-q", "merge", "--out", (dir.path() / "merged").string(),
                          (dir.path() / "out0").string(), (dir.path() / "out1").string()});
  INFO(merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK(merged.out.find("EXACT MATCHING ACCURACY") != std::string::npos);
  const auto records = read_jsonl(dir.path() / "merged" / "results.jsonl");
  REQUIRE(records.size() == 3);
  CHECK(records[0]["EM"] == 1);
  std::ifstream in(dir.path() / "merged" / "summary.json");
  const json summary = json::parse(in);
  CHECK(summary["spider_exact_match"].at(0)["by_difficulty"]["all"]["count"] == 3);
  CHECK(summary["spider_exact_match"].at(0)["by_difficulty"]["all"]["EM"].get<double>() ==
        doctest::Approx(1.0 / 3));
}

TEST_CASE(
    "spider_exact_match in a Lua experiment: evaluate{tables = ...}, the result's exact_match, errors") {
  test::temp_dir dir;
  write_benchmark(dir.path(), true);
  const auto script = dir.path() / "em.lua";
  write_file(script, R"(
local dir = ...
local examples = sqlmorph.spider{ gold = dir .. "/gold.sql", db_root = dir .. "/database",
                                  systems = { { name = "s", pred = dir .. "/pred.sql" } } }
local result = sqlmorph.evaluate{ examples = examples, techniques = {"spider_exact_match"},
                                  tables = dir .. "/tables.json", out = dir .. "/lua-out" }
local em = result.exact_match[1]
print(string.format("system=%s count=%d EM=%.4f easy=%d/%.4f", em.system, em.count, em.EM,
                    em.by_difficulty.easy.count, em.by_difficulty.easy.EM))
)");
  const auto r = test::run_sqlmorph({"--config", config_arg(), "run", script.string(), dir.path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("system=s count=3 EM=0.3333 easy=3/0.3333") != std::string::npos);
  const auto records = read_jsonl(dir.path() / "lua-out" / "results.jsonl");
  REQUIRE(records.size() == 3);
  CHECK(records[0]["EM"] == 1);
  CHECK(records[1]["partial"]["select"]["label_total"] == 1);

  write_file(dir.path() / "no_tables.lua",
             "sqlmorph.evaluate{ examples = sqlmorph.spider{ gold = ... .. '/gold.sql', db_root = ... .. "
             "'/database', systems = { s = ... .. '/pred.sql' } }, techniques = {'spider_exact_match'} }\n");
  const auto none = test::run_sqlmorph(
      {"--config", config_arg(), "run", (dir.path() / "no_tables.lua").string(), dir.path().string()});
  CHECK(none.exit_code == 1);
  CHECK(none.err.find("spider_exact_match needs Spider's tables.json: sqlmorph.evaluate: 'tables' FILE") !=
        std::string::npos);
  write_file(dir.path() / "unused.lua",
             "sqlmorph.evaluate{ examples = sqlmorph.spider{ gold = ... .. '/gold.sql', db_root = ... .. "
             "'/database', systems = { s = ... .. '/pred.sql' } }, techniques = {'execution_accuracy'}, "
             "tables = 'x.json' }\n");
  const auto unused = test::run_sqlmorph(
      {"--config", config_arg(), "run", (dir.path() / "unused.lua").string(), dir.path().string()});
  CHECK(unused.exit_code == 1);
  CHECK(unused.err.find("sqlmorph.evaluate: 'tables' is read by spider_exact_match only") !=
        std::string::npos);
}

TEST_CASE("an answer copied from another question keeps the hardness exact match gives its gold query") {
  // Two questions without a difficulty, one gold query, the same answer: one unit of work, the second
  // answer a copy of the first's records.
  test::temp_dir dir;
  write_file(dir.path() / "tables.json", tables_json);
  std::string cases;
  for (const char* id : {"a", "b"}) {
    cases += json{{"id", id},
                  {"db_id", "concert"},
                  {"db", (dir.path() / "concert.sqlite").string()},
                  {"gold", "SELECT name FROM singer"},
                  {"pred", "SELECT name FROM singer"}}
                 .dump() +
             "\n";
  }
  write_file(dir.path() / "cases.jsonl", cases);
  const auto r = test::run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases",
                                     (dir.path() / "cases.jsonl").string(), "--techniques",
                                     "spider_exact_match", "--tables", (dir.path() / "tables.json").string(),
                                     "--out", (dir.path() / "out").string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto records = read_jsonl(dir.path() / "out/results.jsonl");
  REQUIRE(records.size() == 2);
  for (const json& record : records) {
    CAPTURE(record.dump());
    CHECK(record["difficulty"] == "easy");
  }
}
