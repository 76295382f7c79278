// Suites built by `sqlmorph suite build` run through spider_test_suite, checked against the official
// eval_exec_match written out here (test-suite-sql-eval, exec_eval.py): on every *.sqlite of the
// folder, both queries after postprocess and remove_distinct, compared by result_eq (the reference
// oracle) with order_matters = 'order by' in the gold query; correct only if every database agrees.
// It also checks what the official code asserts: the gold query runs on every variant; and that every
// verdict is the one the official evaluator itself gave on the same suite (tests/fixtures/suite_build).

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <map>

#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <sqlmorph/sql_lexer.hpp>

#include "datasets/text_lines.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "reference_oracles.hpp"
#include "suite/suite_builder.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

namespace fs = std::filesystem;

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// exec_eval.postprocess and remove_distinct (tokens of the first statement, "distinct" left out).
std::string official_query(const std::string& sql) {
  std::string s = replace_all(replace_all(replace_all(sql, "> =", ">="), "< =", "<="), "! =", "!=");
  std::string out;
  for (const sql_token& t : lex_sql(first_statement(s)))
    if (!iequals_ascii(t.text, "distinct")) out += t.text;
  return out;
}

// exec_on_db: the rows, or nullopt for an exception.
std::optional<result> run(const fs::path& db, const std::string& sql) {
  sqlite3* conn = nullptr;
  sqlite3_open_v2(db.c_str(), &conn, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* stmt = nullptr;
  std::optional<result> out;
  if (sqlite3_prepare_v2(conn, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK && stmt != nullptr) {
    const int n = sqlite3_column_count(stmt);
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) names.push_back("c" + std::to_string(i));
    std::vector<std::vector<test::cell>> rows;
    int rc = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::vector<test::cell> row;
      for (int i = 0; i < n; ++i) {
        switch (sqlite3_column_type(stmt, i)) {
          case SQLITE_INTEGER:
            row.emplace_back(static_cast<long long>(sqlite3_column_int64(stmt, i)));
            break;
          case SQLITE_FLOAT:
            row.emplace_back(sqlite3_column_double(stmt, i));
            break;
          case SQLITE_NULL:
            row.emplace_back(nullptr);
            break;
          default:
            row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)),
                                         static_cast<std::size_t>(sqlite3_column_bytes(stmt, i))));
        }
      }
      rows.push_back(std::move(row));
    }
    if (rc == SQLITE_DONE) out = test::make_result(names, rows);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(conn);
  return out;
}

// eval_exec_match(db, p_str, g_str, plug_value=False, keep_distinct=False, ...).
int official_exec_match(const fs::path& folder, const std::string& pred, const std::string& gold) {
  const std::string p = official_query(pred);
  const std::string g = official_query(gold);
  std::string lower = g;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool order_matters = lower.find("order by") != std::string::npos;
  std::vector<fs::path> dbs;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().filename().string().find(".sqlite") != std::string::npos) dbs.push_back(e.path());
  std::sort(dbs.begin(), dbs.end());
  for (const fs::path& db : dbs) {
    const auto g_rows = run(db, g);
    REQUIRE_MESSAGE(g_rows.has_value(), "the gold query fails on " << db.string());
    const auto p_rows = run(db, p);
    if (!p_rows || !oracle::spider_result_eq(*g_rows, *p_rows, order_matters)) return 0;
  }
  return 1;
}

}  // namespace

TEST_CASE(
    "suites built by suite build: spider_test_suite agrees with the official eval_exec_match on every "
    "record") {
  if (test::skip_without_shared("suite build parity on Spider dev")) return;
  const fs::path spider = *test::shared_dir() / "benchmarks/spider-dev";
  test::temp_dir dir;
  // Three databases of Spider dev, their gold lines and three systems' predictions of them.
  const std::vector<std::string> chosen = {"concert_singer", "pets_1", "orchestra"};
  const std::vector<std::string> gold_lines = core::read_lines(spider / "dev_gold.sql");
  std::vector<std::size_t> picked;
  std::string gold_file;
  for (std::size_t i = 0; i < gold_lines.size(); ++i) {
    const std::string db = gold_lines[i].substr(gold_lines[i].rfind('\t') + 1);
    if (std::find(chosen.begin(), chosen.end(), db) == chosen.end()) continue;
    picked.push_back(i);
    gold_file += gold_lines[i] + "\n";
  }
  test::write_file(dir.path() / "gold.sql", gold_file);
  core::suite::suite_request request;
  request.benchmark = "spider";
  request.gold = dir.path() / "gold.sql";
  request.db_root = spider / "database";
  request.out = dir.path() / "suite";
  request.max_candidates = 100;
  request.jobs = 2;
  const auto manifest =
      core::suite::build_suite(request, test::technique("spider_official_exec"), test::sqlite_routes());
  CHECK(manifest["totals"]["variants"].get<int>() >= 6);

  const auto techniques =
      test::catalog().assemble({"spider_test_suite"}, core::penalize_choice::yes, test::registry());
  core::query_runner runner(exec_limits{});
  core::example_evaluator evaluator(runner, techniques, test::sqlite_routes());
  // The official evaluator's verdicts on this suite, made outside the project (see the README there).
  std::map<std::string, int> official_python;
  {
    std::ifstream in(test::source_dir() / "tests/fixtures/suite_build/official_verdicts.jsonl");
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line);
      official_python[j.at("id").get<std::string>()] = j.at("official").get<int>();
    }
  }
  REQUIRE(official_python.size() == 381);
  std::map<std::string, std::size_t> seen;
  for (const std::string system : {"c3-gpt35", "dail-sql-gpt4", "resdsql-3b"}) {
    const std::vector<std::string> preds = core::read_lines(spider / "predictions" / (system + ".sql"));
    for (const std::size_t i : picked) {
      const std::string line = gold_lines[i];
      core::example ex;
      ex.id = system + ":" + std::to_string(i);
      ex.db_id = line.substr(line.rfind('\t') + 1);
      ex.db = (dir.path() / "suite" / ex.db_id / (ex.db_id + ".sqlite")).string();
      ex.gold = line.substr(0, line.rfind('\t'));
      ex.pred = preds.at(i).substr(0, preds.at(i).find('\t'));
      CAPTURE(ex.id);
      CAPTURE(ex.gold);
      CAPTURE(ex.pred);
      const core::record r = evaluator.evaluate(ex).front();
      REQUIRE(r.status != core::example_status::gold_error);
      const int official = official_exec_match(dir.path() / "suite" / ex.db_id, ex.pred, ex.gold);
      CHECK(r.scores.ex.value_or(0) == official);
      REQUIRE(official_python.count(ex.id) == 1);
      CHECK(r.scores.ex.value_or(0) == official_python.at(ex.id));
      ++seen["official " + std::to_string(official)];
    }
  }
  std::cout << "suite build parity: " << seen["official 1"] << " right, " << seen["official 0"] << " wrong\n";
  CHECK(seen["official 0"] > 0);
  CHECK(seen["official 1"] > 0);
}
