// The runner at benchmark scale: parallel workers with deterministic output, each query executed
// once, separate time limits, kill -9 and resume, interrupts, the gold cache, several systems, BIRD.

#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;

namespace {

using test::read_jsonl;

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}
std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

// results.jsonl without the timings, which differ from run to run.
std::string without_timings(const std::filesystem::path& file) {
  std::string out;
  for (json j : read_jsonl(file)) {
    j.erase("gold_ms");
    j.erase("pred_ms");
    j.erase("technique_ms");
    out += j.dump() + "\n";
  }
  return out;
}

std::size_t line_count(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

// A cases file whose predictions take a few tens of milliseconds each.
std::filesystem::path slow_cases(const test::temp_dir& dir, int count) {
  const auto file = dir.path() / "slow.jsonl";
  std::ofstream out(file);
  for (int i = 0; i < count; ++i) {
    out << json{{"id", "slow" + std::to_string(i)},
                {"db", demo_db().string()},
                {"gold", "SELECT " + std::to_string(i)},
                {"pred", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT " +
                             std::to_string(200000 + i) + ") SELECT count(*) - count(*) + " +
                             std::to_string(i % 3) + " FROM c"}}
               .dump()
        << "\n";
  }
  return file;
}

// Two backends: the built-in one on the benchmark's files (dbs/demo/demo.sqlite), and `frozen`, an
// immutable-mode one reaching, through the db_id, a copy of the database holding one more project —
// so the two engines' numbers differ, as different engines' may. Returns the configuration file.
std::filesystem::path two_sqlite_backends(const test::temp_dir& dir) {
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(demo_db(), dir.path() / "dbs/demo/demo.sqlite");
  std::filesystem::create_directories(dir.path() / "copy/demo");
  std::filesystem::copy_file(demo_db(), dir.path() / "copy/demo/demo.sqlite");
  test::create_sqlite(dir.path() / "copy/demo/demo.sqlite",
                      "INSERT INTO projects(title) VALUES ('one more')");
  const auto config = dir.path() / "sqlmorph.toml";
  std::ofstream(config) << "[plugins]\ndirs = [\"" << test::plugin_dir().string() << "\"]\n"
                        << "[backends.frozen]\nplugin = \"sqlite\"\ntarget = \""
                        << (dir.path() / "copy").string()
                        << "/{db_id}/{db_id}.sqlite\"\noptions = { immutable = true }\n";
  return config;
}

json run_json(const std::filesystem::path& out) {
  return json::parse(test::file_bytes(out / "run.json"));
}

}  // namespace

TEST_CASE("results are identical whatever the number of workers") {
  test::temp_dir dir;
  const std::string cases = (test::source_dir() / "examples/demo/cases.jsonl").string();
  std::string first;
  for (const char* jobs : {"1", "2", "4"}) {
    CAPTURE(jobs);
    const auto out = dir.path() / (std::string("jobs") + jobs);
    const auto r =
        run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases, "--db-root",
                      (test::build_dir() / "examples/demo").string(), "--timeout", "1", "--max-rows", "5000",
                      "--penalize-extra-pred-cols", "both", "-j", jobs, "--out", out.string()});
    REQUIRE(r.exit_code == 0);
    const std::string results = without_timings(out / "results.jsonl");
    if (first.empty()) first = results;
    CHECK(results == first);
    CHECK(run_json(out)["settings"]["jobs"] == std::stoi(jobs));
  }
  if (test::skip_without_shared("spider jobs")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  std::string spider_first;
  for (const char* jobs : {"1", "2"}) {
    const auto out = dir.path() / (std::string("spider") + jobs);
    const auto r = run_sqlmorph({"--config", config_arg(), "-q", "eval", "--benchmark", "spider", "--gold",
                                 (spider / "dev_gold.sql").string(), "--pred",
                                 (spider / "predictions/dail-sql-gpt4.sql").string(), "--pred",
                                 (spider / "predictions/resdsql-3b.sql").string(), "--db-root",
                                 (spider / "database").string(), "-j", jobs, "--out", out.string()});
    REQUIRE(r.exit_code == 0);
    const std::string results = without_timings(out / "results.jsonl");
    if (spider_first.empty()) spider_first = results;
    CHECK(results == spider_first);
    CHECK(test::file_bytes(out / "summary.json").size() > 0);
  }
}

TEST_CASE("every technique record carries technique_ms: null when it did not score, else >= 0") {
  test::temp_dir dir;
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases",
                               (test::source_dir() / "examples/demo/cases.jsonl").string(), "--db-root",
                               (test::build_dir() / "examples/demo").string(), "--penalize-extra-pred-cols",
                               "both", "--out", out.string()});
  REQUIRE(r.exit_code == 0);
  std::set<std::string> timed;
  std::size_t ok = 0;
  for (const json& j : read_jsonl(out / "results.jsonl")) {
    CAPTURE(j.dump());
    REQUIRE(j.contains("technique_ms"));
    const json& ms = j["technique_ms"];
    if (j["status"] == "ok") {
      ++ok;
      REQUIRE(ms.is_number());
      CHECK(ms.get<double>() >= 0.0);
      timed.insert(j["technique"].get<std::string>());
    } else if (j["status"] == "pred_error" || j["status"] == "gold_error" || j["status"] == "db_missing") {
      CHECK(ms.is_null());  // a query failed: the technique never scored
    }
  }
  CHECK(ok > 0);
  CHECK(timed.count("execution_accuracy") == 1);
  CHECK(timed.count("unified_column_and_semantic_row") == 1);
  CHECK(timed.count("test_suite") == 1);  // a suite technique: summed over what it tried
  // A resumed run reads the records back and writes them unchanged, technique_ms included.
  const std::string before = test::file_bytes(out / "results.jsonl");
  const auto again = run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases",
                                   (test::source_dir() / "examples/demo/cases.jsonl").string(), "--db-root",
                                   (test::build_dir() / "examples/demo").string(),
                                   "--penalize-extra-pred-cols", "both", "--out", out.string(), "--resume"});
  REQUIRE(again.exit_code == 0);
  CHECK(test::file_bytes(out / "results.jsonl") == before);
}

TEST_CASE("each distinct query executes once per run, gold queries once for all systems") {
  if (test::skip_without_shared("execute once")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  test::temp_dir dir;
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config",     config_arg(),
                               "-q",           "eval",
                               "--benchmark",  "spider",
                               "--gold",       (spider / "dev_gold.sql").string(),
                               "--pred",       (spider / "predictions/dail-sql-gpt4.sql").string(),
                               "--pred",       (spider / "predictions/c3-gpt35.sql").string(),
                               "--pred",       (spider / "predictions/resdsql-3b.sql").string(),
                               "--db-root",    (spider / "database").string(),
                               "--techniques", "execution_accuracy,exact_column_and_partial_cell,test_suite",
                               "-j",           "2",
                               "--out",        out.string()});
  REQUIRE(r.exit_code == 0);
  // The distinct (database, SQL) pairs the run needs, gold and predicted alike.
  // (A database missing from ../shared — wta_1 — runs nothing: its queries are counted apart, as
  // db_missing_queries.)
  std::set<std::string> gold;
  std::set<std::string> all;
  std::set<std::string> missing;  // the queries of a database that is not there
  std::vector<std::string> db_ids;
  {
    std::ifstream in(spider / "dev_gold.sql");
    for (std::string line; std::getline(in, line);) {
      const std::string db = line.substr(line.rfind('\t') + 1);
      db_ids.push_back(db);
      const std::string key = db + "|" + line.substr(0, line.rfind('\t'));
      gold.insert(key);
      if (!std::filesystem::exists(spider / "database" / db / (db + ".sqlite"))) missing.insert(key);
    }
  }
  all = gold;
  for (const char* file : {"dail-sql-gpt4.sql", "c3-gpt35.sql", "resdsql-3b.sql"}) {
    std::ifstream in(spider / "predictions" / file);
    std::size_t i = 0;
    for (std::string line; std::getline(in, line); ++i) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const auto b = line.find_first_not_of(" \t");
      line = b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t") - b + 1);
      const std::string key = db_ids[i] + "|" + line.substr(0, line.find('\t'));
      all.insert(key);
      if (!std::filesystem::exists(spider / "database" / db_ids[i] / (db_ids[i] + ".sqlite")))
        missing.insert(key);
    }
  }
  // Every distinct query ran exactly once. (A predicted query that equals another item's gold query
  // is counted under whichever role asked first, so only the total is fixed.)
  const json stats = run_json(out)["statistics"];
  CHECK(stats["gold_executed"].get<std::size_t>() + stats["pred_executed"].get<std::size_t>() ==
        all.size() - missing.size());
  CHECK(stats["db_missing_queries"].get<std::size_t>() == missing.size());
  CHECK(stats["gold_executed"].get<std::size_t>() <= gold.size());
  CHECK(stats["gold_executed"].get<std::size_t>() > gold.size() * 9 / 10);
}

TEST_CASE(
    "identical answers of several systems are evaluated once, a system's records do not depend on the "
    "others") {
  if (test::skip_without_shared("shared answers")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  const auto preds = spider / "predictions/nl2sql360";
  test::temp_dir dir;
  const auto run = [&](const std::vector<std::string>& systems, const std::filesystem::path& out) {
    std::vector<std::string> args = {
        "--config",
        config_arg(),
        "-q",
        "eval",
        "--benchmark",
        "spider",
        "--gold",
        (spider / "dev_gold.sql").string(),
        "--db-root",
        (spider / "database").string(),
        "--techniques",
        "execution_accuracy,exact_column_and_partial_cell,no_column_and_partial_cell,test_suite,malloy",
        "--penalize-extra-pred-cols",
        "both",
        "--out",
        out.string()};
    for (const std::string& s : systems) {
      args.push_back("--pred");
      args.push_back(s + "=" + (preds / (s + ".sql")).string());
    }
    REQUIRE(run_sqlmorph(args).exit_code == 0);
  };
  // Two checkpoints of one model: many identical answers.
  run({"CodeLlama-7B-2000"}, dir.path() / "alone");
  run({"CodeLlama-7B-1000", "CodeLlama-7B-2000"}, dir.path() / "together");
  // The second system's records, alone and next to the first, are the same (timings aside).
  std::string alone;
  for (json j : read_jsonl(dir.path() / "alone/results.jsonl")) {
    j.erase("gold_ms");
    j.erase("pred_ms");
    j.erase("technique_ms");
    alone += j.dump() + "\n";
  }
  std::string together;
  for (json j : read_jsonl(dir.path() / "together/results.jsonl")) {
    if (j["system"] != "CodeLlama-7B-2000") continue;
    j.erase("gold_ms");
    j.erase("pred_ms");
    j.erase("technique_ms");
    together += j.dump() + "\n";
  }
  CHECK(together == alone);
  // Many of its answers equal the first system's (same item, same SQL): those were not evaluated again.
  // Nor were the answers that repeat the system's own answer to the question before, when both
  // questions ask for the same gold query (Spider asks most twice): the two form one unit of work.
  std::vector<std::string> a;
  std::vector<std::string> b;
  std::vector<std::string> gold;
  for (const auto& [file, lines] :
       {std::pair{preds / "CodeLlama-7B-1000.sql", &a}, std::pair{preds / "CodeLlama-7B-2000.sql", &b},
        std::pair{spider / "dev_gold.sql", &gold}}) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) lines->push_back(line);
  }
  std::erase_if(gold,
                [](const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; });
  const auto trim = [](std::string x) {
    const auto first = x.find_first_not_of(" \t\r");
    return first == std::string::npos ? std::string()
                                      : x.substr(first, x.find_last_not_of(" \t\r") - first + 1);
  };
  const auto answer = [&](const std::vector<std::string>& lines, std::size_t i) {
    return i < lines.size() ? trim(lines[i]) : std::string();
  };
  // Repeated answers within each unit (one question, or two asking for the same gold query), the
  // systems' answers to a question in order.
  const auto repeated = [&](const std::vector<const std::vector<std::string>*>& systems) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < gold.size();) {
      const std::size_t end = i + 1 < gold.size() && trim(gold[i + 1]) == trim(gold[i]) ? i + 2 : i + 1;
      std::set<std::string> seen;
      for (std::size_t q = i; q < end; ++q) {
        for (const auto* lines : systems) {
          const std::string sql = answer(*lines, q);
          if (!sql.empty() && !seen.insert(sql).second) ++count;
        }
      }
      i = end;
    }
    return count;
  };
  std::size_t same = 0;  // the second system's answers equal to the first's
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    same += !answer(a, i).empty() && answer(a, i) == answer(b, i);
  CHECK(same > 100);
  CHECK(repeated({&b}) > 100);
  CHECK(repeated({&a, &b}) > same);
  CHECK(run_json(dir.path() / "together")["statistics"]["shared_answers"].get<std::size_t>() ==
        repeated({&a, &b}));
  CHECK(run_json(dir.path() / "alone")["statistics"]["shared_answers"].get<std::size_t>() == repeated({&b}));
  // Other answers with other SQL but equal results took copies of the scores (the records compared
  // above are the same nonetheless).
  CHECK(run_json(dir.path() / "together")["statistics"]["shared_scores"].get<std::size_t>() > 0);
}

TEST_CASE(
    "answers with equal results share a technique's scores only when the technique reads nothing but the "
    "results") {
  test::temp_dir dir;
  std::filesystem::create_directories(dir.path() / "techniques");
  // A Lua scorer reads the predicted SQL: two answers with equal results score differently under it.
  std::ofstream(dir.path() / "techniques" / "sql_length.lua")
      << "sqlmorph.technique{ name = 'sql_length', description = 'the length of the predicted SQL',\n"
         "  columns = sqlmorph.columns.positional{}, rows = sqlmorph.rows.none{},\n"
         "  scorer = sqlmorph.scorer(function(gold, pred, context)\n"
         "    return { EX = 1, EXP = 1, EXR = 1, F1 = 1, sql_length = #context.pred_sql } end) }\n";
  const auto config = dir.path() / "sqlmorph.toml";
  std::ofstream(config) << "[plugins]\ndirs = [\"" << test::plugin_dir().string()
                        << "\"]\n[lua]\ntechnique_dirs = [\""
                        << (test::source_dir() / "scripts/techniques").string() << "\", \""
                        << (dir.path() / "techniques").string() << "\"]\nlib_dirs = [\""
                        << (test::source_dir() / "scripts/lib").string() << "\"]\n";
  // System b answers q1 with other SQL but the same rows as a, and q2 with other rows.
  const auto write_cases = [&](const std::filesystem::path& file, const std::vector<std::string>& systems) {
    std::ofstream out(file);
    const std::map<std::string, std::vector<std::string>> answers = {
        {"a", {"SELECT name FROM employees", "SELECT name FROM employees"}},
        {"b", {"SELECT name FROM employees WHERE 1 = 1", "SELECT dept FROM employees"}}};
    for (const std::string& system : systems) {
      for (int q = 0; q < 2; ++q) {
        out << json{{"id", "q" + std::to_string(q + 1)},
                    {"db", demo_db().string()},
                    {"system", system},
                    {"gold", "SELECT name FROM employees WHERE dept = 'eng'"},
                    {"pred", answers.at(system)[q]}}
                   .dump()
            << "\n";
      }
    }
  };
  write_cases(dir.path() / "both.jsonl", {"a", "b"});
  write_cases(dir.path() / "b.jsonl", {"b"});
  const auto run = [&](const std::filesystem::path& cases, const std::filesystem::path& out) {
    REQUIRE(
        run_sqlmorph({"--config", config.string(), "-q", "eval", "--cases", cases.string(), "--techniques",
                      "exact_column_and_partial_cell,unified_column_and_semantic_row,sql_length",
                      "--penalize-extra-pred-cols", "both", "--out", out.string()})
            .exit_code == 0);
  };
  run(dir.path() / "both.jsonl", dir.path() / "both");
  run(dir.path() / "b.jsonl", dir.path() / "alone");
  // b's q1 took a's scores under the three variants that read only results (exact_column_and_partial_cell
  // both ways, unified_column_and_semantic_row, which has no penalize variants): no other scores were copied.
  CHECK(run_json(dir.path() / "both")["statistics"]["shared_scores"] == 3);
  // a's answer to q2 repeats its answer to q1, which asks for the same gold query (one unit of work): a
  // copy of its records, not a copy of scores.
  CHECK(run_json(dir.path() / "both")["statistics"]["shared_answers"] == 1);
  CHECK(run_json(dir.path() / "alone")["statistics"]["shared_scores"] == 0);
  std::map<std::string, json> both;  // system/id/technique/penalize -> record, timings aside
  for (json j : read_jsonl(dir.path() / "both/results.jsonl")) {
    for (const char* timing : {"gold_ms", "pred_ms", "technique_ms"}) j.erase(timing);
    both[j["system"].get<std::string>() + "/" + j["id"].get<std::string>() + "/" +
         j["technique"].get<std::string>() + "/" + j["penalize_extra_pred_cols"].dump()] = j;
  }
  REQUIRE(both.size() == 2 * 2 * 4);
  CHECK(both.count("b/q1/unified_column_and_semantic_row/null") == 1);
  CHECK(both["a/q1/sql_length/null"]["sql_length"] == 26);
  CHECK(both["b/q1/sql_length/null"]["sql_length"] == 38);
  // Different results are scored each on their own.
  CHECK(both["a/q2/exact_column_and_partial_cell/true"]["EXR"] == 1);
  CHECK(both["b/q2/exact_column_and_partial_cell/true"]["EXR"] == 0);
  // b's records are those of b evaluated alone.
  std::size_t compared = 0;
  for (json j : read_jsonl(dir.path() / "alone/results.jsonl")) {
    for (const char* timing : {"gold_ms", "pred_ms", "technique_ms"}) j.erase(timing);
    const std::string key = "b/" + j["id"].get<std::string>() + "/" + j["technique"].get<std::string>() +
                            "/" + j["penalize_extra_pred_cols"].dump();
    CHECK(both.at(key) == j);
    ++compared;
  }
  CHECK(compared == 2 * 4);
}

TEST_CASE("gold and predicted queries have their own time limits, enforced by the engine") {
  test::temp_dir dir;
  const std::string slow =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
  const auto compare = [&](const std::string& gold, const std::string& pred, std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "--config", config_arg(), "compare", "--db",         demo_db().string(),   "--gold",
        gold,       "--pred",     pred,      "--techniques", "execution_accuracy", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_sqlmorph(args);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(r.exit_code == 0);
    return std::make_pair(json::parse(r.out)["results"][0], seconds);
  };
  auto [pred_slow, t1] = compare("SELECT 1", slow, {"--gold-timeout", "30", "--pred-timeout", "0.3"});
  CHECK(pred_slow["status"] == "timeout");
  CHECK(pred_slow["error"].get<std::string>().find(
            "pred query timed out: exceeded the time limit of 0.3 s") == 0);
  CHECK(t1 < 20);  // generous: proves it stopped, not how fast
  auto [gold_slow, t2] = compare(slow, "SELECT 1", {"--gold-timeout", "0.3", "--pred-timeout", "30"});
  CHECK(gold_slow["status"] == "timeout");
  CHECK(gold_slow["error"].get<std::string>().find("gold query timed out") == 0);
  CHECK(t2 < 20);  // generous: proves it stopped, not how fast
}

TEST_CASE("kill -9 in the middle of a run, then --resume: the same results as an uninterrupted run") {
  test::temp_dir dir;
  const auto cases = slow_cases(dir, 60);
  const std::vector<std::string> base = {"--config",     config_arg(),
                                         "-q",           "eval",
                                         "--cases",      cases.string(),
                                         "--techniques", "execution_accuracy,exact_column_and_partial_cell",
                                         "-j",           "1"};
  // The reference: an uninterrupted run.
  const auto full = dir.path() / "full";
  std::vector<std::string> args = base;
  args.insert(args.end(), {"--out", full.string()});
  REQUIRE(run_sqlmorph(args).exit_code == 0);
  // A run killed with SIGKILL once a few examples are written.
  const auto out = dir.path() / "killed";
  args = base;
  args.insert(args.end(), {"--out", out.string()});
  const int pid = test::start_sqlmorph(args, dir.path() / "o", dir.path() / "e");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (line_count(out / "results.jsonl") < 10 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  CHECK(test::wait_for(pid) == 128 + SIGKILL);
  const std::size_t written = line_count(out / "results.jsonl");
  CHECK(written >= 10);
  CHECK(written < 120);
  CHECK(run_json(out)["status"] == "running");
  CHECK_FALSE(std::filesystem::exists(out / "summary.json"));
  // Resume: the rest is evaluated, nothing duplicated, nothing lost.
  args.push_back("--resume");
  const auto resumed = run_sqlmorph(args);
  REQUIRE(resumed.exit_code == 0);
  CHECK(without_timings(out / "results.jsonl") == without_timings(full / "results.jsonl"));
  CHECK(test::file_bytes(out / "examples.jsonl") == test::file_bytes(full / "examples.jsonl"));
  CHECK(run_json(out)["status"] == "complete");
  CHECK(run_json(out)["statistics"]["resumed_units"].get<int>() * 2 >= 10);
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  const json full_summary = json::parse(test::file_bytes(full / "summary.json"));
  CHECK(summary["techniques"] == full_summary["techniques"]);
  // A torn last line (a kill in the middle of a write) is cut off and redone.
  {
    std::string text = test::file_bytes(out / "results.jsonl");
    text.resize(text.size() - 25);
    std::ofstream(out / "results.jsonl", std::ios::trunc) << text;
  }
  REQUIRE(run_sqlmorph(args).exit_code == 0);
  CHECK(without_timings(out / "results.jsonl") == without_timings(full / "results.jsonl"));
  CHECK(test::file_bytes(out / "examples.jsonl") == test::file_bytes(full / "examples.jsonl"));
  // A torn examples.jsonl (its unit is written before the unit's records): that unit and the
  // records after it are evaluated again, nothing duplicated.
  {
    std::string text = test::file_bytes(out / "examples.jsonl");
    text.resize(text.size() / 2);
    std::ofstream(out / "examples.jsonl", std::ios::trunc) << text;
  }
  const auto again = run_sqlmorph(args);
  REQUIRE(again.exit_code == 0);
  CHECK(run_json(out)["statistics"]["resumed_units"].get<int>() < 60);
  CHECK(without_timings(out / "results.jsonl") == without_timings(full / "results.jsonl"));
  CHECK(test::file_bytes(out / "examples.jsonl") == test::file_bytes(full / "examples.jsonl"));
  const json again_summary = json::parse(test::file_bytes(out / "summary.json"));
  CHECK(again_summary["by_feature"] == full_summary["by_feature"]);
}

TEST_CASE("--resume notices an edited line: that unit and the rest are evaluated again, with a warning") {
  test::temp_dir dir;
  const std::string cases = (test::source_dir() / "examples/demo/cases.jsonl").string();
  const std::string root = (test::build_dir() / "examples/demo").string();
  const auto run = [&](const std::filesystem::path& out, bool resume) {
    std::vector<std::string> args = {"--config",
                                     config_arg(),
                                     "eval",
                                     "--cases",
                                     cases,
                                     "--db-root",
                                     root,
                                     "--techniques",
                                     "execution_accuracy,exact_column_and_partial_cell",
                                     "--out",
                                     out.string(),
                                     "--progress",
                                     "none",
                                     "-j",
                                     "1",
                                     "--timeout",
                                     "2",
                                     "--max-rows",
                                     "5000"};  // the demo's endless query stops at the row cap in
                                               // milliseconds, however loaded the machine
    if (resume) args.push_back("--resume");
    return run_sqlmorph(args);
  };
  const auto full = dir.path() / "full";
  REQUIRE(run(full, false).exit_code == 0);
  const auto out = dir.path() / "edited";
  REQUIRE(run(out, false).exit_code == 0);
  // Line 5 stays a valid record of the same example, with another EX.
  std::vector<std::string> lines;
  {
    std::ifstream in(out / "results.jsonl");
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  REQUIRE(lines.size() == 40);
  json edited = json::parse(lines[4]);
  REQUIRE(edited["EX"].is_number());
  const int ex = edited["EX"].get<int>();
  edited["EX"] = 1 - ex;
  lines[4] = edited.dump();
  {
    std::ofstream rewrite(out / "results.jsonl", std::ios::trunc | std::ios::binary);
    for (const auto& line : lines) rewrite << line << "\n";
  }
  const auto resumed = run(out, true);
  REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(resumed.err.find("results.jsonl lines 5-6 differ from what this run wrote") != std::string::npos);
  CHECK(without_timings(out / "results.jsonl") == without_timings(full / "results.jsonl"));
  CHECK(json::parse(test::file_bytes(out / "summary.json"))["techniques"] ==
        json::parse(test::file_bytes(full / "summary.json"))["techniques"]);
  // Lines 1-4 are one unit: the demo's first two examples ask for the same gold query.
  CHECK(run_json(out)["statistics"]["resumed_units"] == 1);
}

TEST_CASE("--resume refuses a folder that holds another run") {
  test::temp_dir dir;
  const auto out = dir.path() / "out";
  const std::string cases = (test::source_dir() / "examples/demo/cases.jsonl").string();
  const std::string root = (test::build_dir() / "examples/demo").string();
  REQUIRE(run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases, "--db-root", root,
                        "--techniques", "execution_accuracy", "--timeout", "1", "--out", out.string()})
              .exit_code == 0);
  const auto other =
      run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases, "--db-root", root,
                    "--techniques", "test_suite", "--timeout", "1", "--out", out.string(), "--resume"});
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("cannot resume the run in " + out.string() +
                       ": it was made with other examples, techniques") != std::string::npos);
}

TEST_CASE("SIGINT stops the run after the examples in progress, --resume continues") {
  test::temp_dir dir;
  const auto cases = slow_cases(dir, 60);
  const auto out = dir.path() / "out";
  std::vector<std::string> args = {
      "--config", config_arg(), "eval",       "--cases", cases.string(), "--techniques", "execution_accuracy",
      "-j",       "1",          "--progress", "none",    "--out",        out.string()};
  const int pid = test::start_sqlmorph(args, dir.path() / "o", dir.path() / "e");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (line_count(out / "results.jsonl") < 5 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGINT);
  CHECK(test::wait_for(pid) == 130);
  CHECK(test::file_bytes(dir.path() / "e").find("interrupted; what was evaluated is in") !=
        std::string::npos);
  CHECK(run_json(out)["status"] == "interrupted");
  CHECK(line_count(out / "results.jsonl") < 60);
  args.push_back("--resume");
  REQUIRE(run_sqlmorph(args).exit_code == 0);
  CHECK(line_count(out / "results.jsonl") == 60);
}

TEST_CASE("the gold cache: a re-run executes no gold query, a changed database invalidates its entries") {
  test::temp_dir dir;
  const auto db = dir.path() / "shop.sqlite";
  test::create_sqlite(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);");
  const auto cases = dir.path() / "cases.jsonl";
  {
    std::ofstream out(cases);
    for (int i = 0; i < 5; ++i) {
      out << json{{"id", "c" + std::to_string(i)},
                  {"db", db.string()},
                  {"gold", "SELECT x FROM t WHERE x > " + std::to_string(i % 3)},
                  {"pred", "SELECT x FROM t"}}
                 .dump()
          << "\n";
    }
  }
  const auto cache = dir.path() / "cache";
  const auto eval = [&](const std::string& name) {
    const auto out = dir.path() / name;
    const auto r =
        run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases.string(), "--techniques",
                      "execution_accuracy", "--cache", cache.string(), "--out", out.string()});
    REQUIRE(r.exit_code == 0);
    return std::make_pair(run_json(out)["statistics"], read_jsonl(out / "results.jsonl"));
  };
  auto [first, r1] = eval("first");
  CHECK(first["gold_executed"] == 3);
  CHECK(first["gold_from_disk_cache"] == 0);
  auto [second, r2] = eval("second");
  CHECK(second["gold_executed"] == 0);
  CHECK(second["gold_from_disk_cache"] == 3);
  CHECK(r2[0]["EX"] == r1[0]["EX"]);
  // Change the database: its cached gold results no longer apply.
  test::create_sqlite(db, "DELETE FROM t WHERE x = 3;");
  auto [third, r3] = eval("third");
  CHECK(third["gold_executed"] == 3);
  // Gold "x > 0" is now {1, 2}, like the prediction: EX = 1. The stale cached gold {1, 2, 3} would give 0.
  CHECK(r1[0]["EX"] == 1);
  CHECK(r3[0]["EX"] == 1);
  CHECK(r3[1]["EX"] == 0);
}

TEST_CASE(
    "the gold cache: a database changed to the same size with its mtime restored serves no stale result") {
  test::temp_dir dir;
  const auto db = dir.path() / "shop.sqlite";
  test::create_sqlite(db, "CREATE TABLE t(x TEXT); INSERT INTO t VALUES ('aaa'), ('bbb');");
  const auto cases = dir.path() / "cases.jsonl";
  std::ofstream(cases) << json{{"id", "c0"},
                               {"db", db.string()},
                               {"gold", "SELECT x FROM t ORDER BY x"},
                               {"pred", "SELECT 'aaa' UNION ALL SELECT 'ccc'"}}
                              .dump()
                       << "\n";
  const auto cache = dir.path() / "cache";
  const auto eval = [&](const std::string& name) {
    const auto out = dir.path() / name;
    const auto r =
        run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases.string(), "--techniques",
                      "execution_accuracy", "--cache", cache.string(), "--out", out.string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return read_jsonl(out / "results.jsonl")[0]["EX"];
  };
  CHECK(eval("first") == 0);  // gold {aaa, bbb}: the prediction {aaa, ccc} is wrong
  // The same number of bytes, another value; then the modification time put back.
  const auto size = std::filesystem::file_size(db);
  const auto mtime = std::filesystem::last_write_time(db);
  test::create_sqlite(db, "UPDATE t SET x = 'ccc' WHERE x = 'bbb';");
  std::filesystem::last_write_time(db, mtime);
  REQUIRE(std::filesystem::file_size(db) == size);
  REQUIRE(std::filesystem::last_write_time(db) == mtime);
  // Gold is now {aaa, ccc}: EX 1. A cache keyed by size and mtime would serve {aaa, bbb}: EX 0.
  CHECK(eval("second") == 1);
}

TEST_CASE("several systems in one run: a side-by-side table, summaries per system") {
  test::temp_dir dir;
  const auto gold = dir.path() / "gold.sql";
  std::ofstream(gold)
      << "SELECT name FROM employees WHERE dept = 'eng'\tdemo\nSELECT count(*) FROM projects\tdemo\n";
  std::ofstream(dir.path() / "good.sql")
      << "SELECT name FROM employees WHERE dept = 'eng'\nSELECT count(*) FROM projects\n";
  std::ofstream(dir.path() / "poor.sql") << "SELECT name FROM employees\n";
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(demo_db(), dir.path() / "dbs/demo/demo.sqlite");
  const auto out = dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "spider", "--gold", gold.string(),
                    "--pred", "good=" + (dir.path() / "good.sql").string(), "--pred",
                    "poor=" + (dir.path() / "poor.sql").string(), "--db-root", (dir.path() / "dbs").string(),
                    "--techniques", "execution_accuracy", "--out", out.string(), "--progress", "lines"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("technique           metric    good    poor") != std::string::npos);
  CHECK(r.out.find("execution_accuracy  EX      1.0000  0.0000") != std::string::npos);
  CHECK(r.err.find("the last 1 examples are pred_missing") != std::string::npos);
  CHECK(r.err.find("progress: 4/4 examples (100.0%)") != std::string::npos);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 4);
  // Units in benchmark order: both systems' answers to item 0, then to item 1.
  CHECK(results[0]["id"] == "good:0");
  CHECK(results[1]["id"] == "poor:0");
  CHECK(results[3]["status"] == "pred_missing");
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  CHECK(summary["techniques"].size() == 2);
  CHECK(summary["by_difficulty"].size() >= 2);
  CHECK(summary["by_database"][0]["db_id"] == "demo");
}

TEST_CASE(
    "backends side by side (--backends), gold and predictions on different backends, routes in run.json") {
  test::temp_dir dir;
  const auto config = two_sqlite_backends(dir);
  const auto gold = dir.path() / "gold.sql";
  std::ofstream(gold)
      << "SELECT name FROM employees WHERE dept = 'eng'\tdemo\nSELECT count(*) FROM projects\tdemo\n";
  const auto pred = dir.path() / "pred.sql";
  std::ofstream(pred) << "SELECT name FROM employees WHERE dept = 'eng'\nSELECT 5\n";
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config.string(), "eval", "--benchmark", "spider", "--gold",
                               gold.string(), "--pred", "sys=" + pred.string(), "--db-root",
                               (dir.path() / "dbs").string(), "--techniques", "execution_accuracy",
                               "--backends", "sqlite,frozen", "--out", out.string(), "--progress", "none"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("technique           metric  sys@sqlite  sys@frozen") != std::string::npos);
  CHECK(r.out.find("execution_accuracy  EX          0.5000      1.0000") != std::string::npos);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 4);
  CHECK(results[0]["id"] == "sys:0@sqlite");
  CHECK(results[1]["id"] == "sys:0@frozen");
  const json routes = run_json(out)["settings"]["backends"];
  REQUIRE(routes["backends"].size() == 2);
  CHECK(routes["backends"][0]["name"] == "frozen");
  CHECK(routes["backends"][0]["target"].get<std::string>().find("{db_id}/{db_id}.sqlite") !=
        std::string::npos);
  // What each backend can do is recorded with it.
  CHECK(routes["backends"][0]["capabilities"] == json({{"dialect", "sqlite"},
                                                       {"statement_gate", "engine"},
                                                       {"checks_without_executing", true},
                                                       {"describes_schema", true}}));

  // Gold on one backend, predictions on the other; an unknown backend is a usage error (exit 2).
  const auto mixed = run_sqlmorph({"--config",
                                   config.string(),
                                   "-q",
                                   "eval",
                                   "--benchmark",
                                   "spider",
                                   "--gold",
                                   gold.string(),
                                   "--pred",
                                   pred.string(),
                                   "--db-root",
                                   (dir.path() / "dbs").string(),
                                   "--techniques",
                                   "execution_accuracy",
                                   "--gold-backend",
                                   "frozen",
                                   "--pred-backend",
                                   "sqlite",
                                   "--out",
                                   (dir.path() / "mixed").string()});
  REQUIRE(mixed.exit_code == 0);
  const json mixed_routes = run_json(dir.path() / "mixed")["settings"]["backends"];
  CHECK(mixed_routes["gold"] == "frozen");
  CHECK(mixed_routes["pred"] == "sqlite");
  const auto mixed_results = read_jsonl(dir.path() / "mixed/results.jsonl");
  REQUIRE(mixed_results.size() == 2);
  CHECK(mixed_results[1]["EX"] == 1);  // gold counted on the copy (5 projects), prediction SELECT 5
  const auto unknown =
      run_sqlmorph({"--config", config.string(), "eval", "--benchmark", "spider", "--gold", gold.string(),
                    "--pred", pred.string(), "--db-root", (dir.path() / "dbs").string(), "--pred-backend",
                    "oracle", "--out", (dir.path() / "x").string()});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--pred-backend: unknown backend 'oracle'") != std::string::npos);
}

TEST_CASE(
    "gold and prediction on different backends: a normalized result is never taken from the other backend") {
  // The same SQL text on two backends that hold different data: the normalizing technique (malloy)
  // must normalize each backend's own rows, as execution_accuracy compares them (a cache keyed by
  // SQL text alone gave malloy EX 1 here).
  test::temp_dir dir;
  const auto config = two_sqlite_backends(dir);
  const auto gold = dir.path() / "gold.sql";
  std::ofstream(gold)
      << "SELECT CAST(count(*) AS TEXT) FROM projects\tdemo\nSELECT title FROM projects\tdemo\n";
  const auto pred = dir.path() / "pred.sql";
  std::ofstream(pred) << "SELECT CAST(count(*) AS TEXT) FROM projects\nSELECT title FROM projects\n";
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config",
                               config.string(),
                               "-q",
                               "eval",
                               "--benchmark",
                               "spider",
                               "--gold",
                               gold.string(),
                               "--pred",
                               "sys=" + pred.string(),
                               "--db-root",
                               (dir.path() / "dbs").string(),
                               "--techniques",
                               "execution_accuracy,malloy",
                               "--gold-backend",
                               "frozen",
                               "--pred-backend",
                               "sqlite",
                               "--out",
                               out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 4);
  for (const json& x : results) {
    CAPTURE(x.dump());
    CHECK(x["status"] == "ok");
    CHECK(x["EX"] == 0);  // one project more on the gold's backend
  }
}

TEST_CASE("BIRD mini-dev: questions, evidence and difficulty read, predictions paired by key") {
  if (test::skip_without_shared("bird mini-dev")) return;
  const auto bird = *test::shared_dir() / "benchmarks/bird-minidev";
  // Empty databases built from the published DDL: enough to tell valid SQL from invalid.
  test::temp_dir dir;
  for (const auto& f : std::filesystem::directory_iterator(bird / "schemas")) {
    const std::string db_id = f.path().stem().string();
    std::filesystem::create_directories(dir.path() / db_id);
    test::create_sqlite(dir.path() / db_id / (db_id + ".sqlite"), test::file_bytes(f.path()));
  }
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold",
                               (bird / "mini_dev_sqlite.json").string(), "--pred",
                               (bird / "predictions/predict_mini_dev_gpt-4-turbo_sqlite.json").string(),
                               "--db-root", dir.path().string(), "--techniques", "execution_accuracy,malloy",
                               "--out", out.string(), "--progress", "none"});
  REQUIRE(r.exit_code == 0);
  const auto results = read_jsonl(out / "results.jsonl");
  CHECK(results.size() == 1000);
  CHECK(results[0]["id"] == "predict_mini_dev_gpt-4-turbo_sqlite:0");
  CHECK(results[0]["db_id"] == "debit_card_specializing");
  std::map<std::string, int> difficulty;
  for (const json& x : results) ++difficulty[x["difficulty"].get<std::string>()];
  CHECK(difficulty["simple"] == 2 * 148);
  CHECK(difficulty["moderate"] == 2 * 250);
  CHECK(difficulty["challenging"] == 2 * 102);
  CHECK(r.out.find("by difficulty:") != std::string::npos);
  CHECK(r.out.find("simple") != std::string::npos);
  // The PostgreSQL prediction file parses too (executing it needs a PostgreSQL server).
  std::ofstream(dir.path() / "shuffled.json")
      << R"({"2": "SELECT 2\t----- bird -----\tcard_games", "0": "SELECT 1\t----- bird -----\tdebit_card_specializing"})";
  const auto partial =
      run_sqlmorph({"--config", config_arg(), "-q", "eval", "--benchmark", "bird", "--gold",
                    (bird / "mini_dev_sqlite.json").string(), "--pred",
                    (dir.path() / "shuffled.json").string(), "--db-root", dir.path().string(), "--techniques",
                    "execution_accuracy", "--out", (dir.path() / "partial").string()});
  REQUIRE(partial.exit_code == 0);
  const auto p = read_jsonl(dir.path() / "partial/results.jsonl");
  REQUIRE(p.size() == 500);
  CHECK(p[0]["status"] != "pred_missing");
  CHECK(p[1]["status"] == "pred_missing");
  CHECK(p[2]["status"] != "pred_missing");
}

TEST_CASE("beyond 8 systems the terminal shows a ranked list, not a table 9 systems wide") {
  test::temp_dir dir;
  const auto gold = dir.path() / "gold.sql";
  std::ofstream(gold)
      << "SELECT name FROM employees WHERE dept = 'eng'\tdemo\nSELECT count(*) FROM projects\tdemo\n";
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(demo_db(), dir.path() / "dbs/demo/demo.sqlite");
  std::vector<std::string> args = {"--config",     config_arg(),
                                   "-q",           "eval",
                                   "--benchmark",  "spider",
                                   "--gold",       gold.string(),
                                   "--db-root",    (dir.path() / "dbs").string(),
                                   "--techniques", "execution_accuracy,exact_column_and_partial_cell",
                                   "--out",        (dir.path() / "out").string()};
  for (int i = 0; i < 9; ++i) {
    const auto pred = dir.path() / ("s" + std::to_string(i) + ".sql");
    // s4 answers both right, the others one.
    std::ofstream(pred) << (i == 4 ? "SELECT name FROM employees WHERE dept = 'eng'\n" : "SELECT 1\n")
                        << "SELECT count(*) FROM projects\n";
    args.push_back("--pred");
    args.push_back("s" + std::to_string(i) + "=" + pred.string());
  }
  const auto r = run_sqlmorph(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("9 systems, ranked by execution_accuracy EX:") != std::string::npos);
  CHECK(r.out.find("   1  s4  ") != std::string::npos);
  CHECK(r.out.find("technique                                 metric") == std::string::npos);
  CHECK(r.out.find("sqlmorph report " + (dir.path() / "out").string() + " -o report.html") !=
        std::string::npos);
}

TEST_CASE("eval and a Lua experiment write the same run.json fields, with how the run was made") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  std::ofstream(cases)
      << "{\"id\": \"a\", \"db\": \"" << demo_db().string()
      << "\", \"gold\": \"SELECT name FROM employees\", \"pred\": \"SELECT name FROM employees\"}\n";
  const auto from_eval = dir.path() / "eval";
  const auto r = run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases.string(),
                               "--techniques", "execution_accuracy", "--out", from_eval.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto from_lua = dir.path() / "lua";
  const auto script = dir.path() / "experiment.lua";
  std::ofstream(script) << "sqlmorph.evaluate{ examples = sqlmorph.cases{ file = '" << cases.string()
                        << "' }, techniques = {'execution_accuracy'}, out = '" << from_lua.string()
                        << "' }\n";
  const auto l = run_sqlmorph({"--config", config_arg(), "-q", "run", script.string()});
  REQUIRE_MESSAGE(l.exit_code == 0, l.err);
  const json a = run_json(from_eval);
  const json b = run_json(from_lua);
  std::vector<std::string> keys_a, keys_b;
  for (const auto& [key, value] : a.items()) keys_a.push_back(key);
  for (const auto& [key, value] : b.items()) keys_b.push_back(key);
  CHECK(keys_a == keys_b);
  for (const char* key : {"configuration", "plugins", "build_fingerprint"}) {
    REQUIRE(a.contains(key));
    CHECK(a[key] == b[key]);
  }
  CHECK(a["plugins"].size() >= 1);
  // The command that made each run.
  CHECK(a["command"].dump().find("\"eval\"") != std::string::npos);
  CHECK(b["command"].dump().find("\"run\"") != std::string::npos);
  CHECK(b["command"].dump().find("experiment.lua") != std::string::npos);
}

namespace {

// Example "stuck" runs until its 3 s timeout stops it (however fast the machine); the 40 others
// are instant and finish on the other worker meanwhile, past the example the writer waits for.
// A case line whose prediction counts without end (it stops at its time limit), gold SELECT 1.
std::string stuck_case(const std::string& id) {
  return json{{"id", id},
              {"db", demo_db().string()},
              {"gold", "SELECT 1"},
              {"pred",
               "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"}}
             .dump() +
         "\n";
}

std::filesystem::path stuck_then_quick(const test::temp_dir& dir) {
  const auto cases = dir.path() / "cases.jsonl";
  {
    std::ofstream out(cases);
    out << stuck_case("stuck");
    for (int i = 0; i < 40; ++i)
      out << json{{"id", "quick" + std::to_string(i)},
                  {"db", demo_db().string()},
                  {"gold", "SELECT " + std::to_string(i)},
                  {"pred", "SELECT " + std::to_string(i % 2)}}
                 .dump()
          << "\n";
  }
  return cases;
}

}  // namespace

TEST_CASE("progress counts the examples the workers finished and names the one running long") {
  test::temp_dir dir;
  const auto cases = stuck_then_quick(dir);
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", config_arg(), "eval", "--cases", cases.string(), "--techniques",
                               "execution_accuracy", "-j", "2", "--pred-timeout", "3", "--out", out.string(),
                               "--progress", "bar"});
  REQUIRE(r.exit_code == 0);
  // While "stuck" ran, the bar showed the 40 quick examples done (not 0: nothing was written yet) and
  // named it.
  CHECK(r.err.find("40/41 examples") != std::string::npos);
  CHECK(r.err.find("running: stuck (demo) for ") != std::string::npos);
  CHECK(r.err.find("41/41 examples 100.0%") != std::string::npos);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 41);
  CHECK(results[0]["status"] == "timeout");
}

TEST_CASE("progress names both questions of a unit that joins two asking for the same gold query") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  {
    std::ofstream out(cases);
    out << stuck_case("stuck") << stuck_case("after");  // (the same answer: "after" is a copy)
  }
  const auto r = run_sqlmorph({"--config", config_arg(), "eval", "--cases", cases.string(), "--techniques",
                               "execution_accuracy", "--pred-timeout", "3", "--out",
                               (dir.path() / "out").string(), "--progress", "bar"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("running: stuck and after (demo) for ") != std::string::npos);
  CHECK(run_json(dir.path() / "out")["statistics"]["units"] == 1);
}

TEST_CASE("an answer copied within a unit keeps its own example's difficulty, in its records and evidence") {
  // Two questions asking for one gold query, the same answer, different difficulties: one unit, and
  // the second is evaluated on its own (its evidence names its difficulty), not copied.
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  {
    std::ofstream out(cases);
    for (const char* level : {"easy", "hard"}) {
      out << json{{"id", level},
                  {"db", demo_db().string()},
                  {"difficulty", level},
                  {"gold", "SELECT name FROM employees"},
                  {"pred", "SELECT name FROM employees"}}
                 .dump()
          << "\n";
    }
  }
  const auto out = dir.path() / "out";
  REQUIRE(run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", cases.string(), "--techniques",
                        "execution_accuracy", "--out", out.string()})
              .exit_code == 0);
  CHECK(run_json(out)["statistics"]["units"] == 1);
  CHECK(run_json(out)["statistics"]["shared_answers"] == 0);
  for (const auto& file : {"results.jsonl", "examples.jsonl"}) {
    const auto lines = read_jsonl(out / file);
    REQUIRE(lines.size() == 2);
    for (const json& line : lines) {
      CAPTURE(line.dump());
      CHECK(line["difficulty"] == line["id"]);
    }
  }
}

TEST_CASE("SIGINT behind a slow example keeps every example the workers finished") {
  test::temp_dir dir;
  const auto cases = stuck_then_quick(dir);
  const auto out = dir.path() / "out";
  std::vector<std::string> args = {"--config",
                                   config_arg(),
                                   "eval",
                                   "--cases",
                                   cases.string(),
                                   "--techniques",
                                   "execution_accuracy",
                                   "-j",
                                   "2",
                                   "--pred-timeout",
                                   "3",
                                   "--progress",
                                   "bar",
                                   "--out",
                                   out.string()};
  const int pid = test::start_sqlmorph(args, dir.path() / "o", dir.path() / "e");
  // Interrupted once the 40 quick examples are finished, while "stuck" (unit 0) still runs: nothing
  // is written yet.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (test::file_bytes(dir.path() / "e").find("40/41 examples") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGINT);
  CHECK(test::wait_for(pid) == 130);
  CHECK(run_json(out)["status"] == "interrupted");
  // "stuck" ended (its timeout), then everything finished behind it was written.
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 41);
  CHECK(results[0]["status"] == "timeout");
  args.push_back("--resume");
  REQUIRE(run_sqlmorph(args).exit_code == 0);
  CHECK(line_count(out / "results.jsonl") == 41);
  CHECK(run_json(out)["status"] == "complete");
}
