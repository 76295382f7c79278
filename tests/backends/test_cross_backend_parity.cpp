// Spider dev on SQLite and on PostgreSQL (the same databases, loaded by sqlmorph-load): wherever
// both engines run both queries alike, every deterministic technique gives the same numbers; every
// example where they do not is listed with the dialect difference that explains it, checked on the
// queries and their results — an unexplained difference fails the test.

#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>
#include <sqlmorph/backend.hpp>
#include <sqlmorph/sql_lexer.hpp>

#include "datasets/spider_files.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

const char* const systems[][2] = {{"dail", "dail-sql-gpt4.sql"},
                                  {"c3", "c3-gpt35.sql"},
                                  {"resdsql", "resdsql-3b.sql"},
                                  {"din", "din-sql-gpt4.csv"}};

bool has_word(std::string_view sql, std::string_view word) {
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == sql_token_kind::word && iequals_ascii(t.text, word)) return true;
  }
  return false;
}

// The rows of a result as lists of values (names aside), compared under the reference equality.
bool same_rows(const result& a, const result& b, bool ordered) {
  if (a.row_count() != b.row_count() || a.column_count() != b.column_count()) return false;
  if (ordered) {
    for (std::size_t r = 0; r < a.row_count(); ++r) {
      if (!rows_equal(a.row(r), b.row(r))) return false;
    }
    return true;
  }
  std::vector<bool> used(b.row_count(), false);
  for (std::size_t r = 0; r < a.row_count(); ++r) {
    bool found = false;
    for (std::size_t s = 0; s < b.row_count() && !found; ++s) {
      if (!used[s] && rows_equal(a.row(r), b.row(s))) used[s] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

// Why an engine's error on a query SQLite runs is a dialect difference, or "" if no rule says so.
std::string dialect_error(const std::string& error, const std::string& sql) {
  static const std::regex missing_column(R"((?:column|relation) \"([^\"]*)\" does not exist)");
  std::smatch m;
  if (std::regex_search(error, m, missing_column)) {
    const std::string name = m[1].str();
    if (sql.find("\"" + name + "\"") != std::string::npos) {
      return "double quotes: a string (or a name in any case) in SQLite, a case-sensitive name in PostgreSQL";
    }
    const std::regex alias("\\bAS\\s+" + name + "\\b", std::regex::icase);
    if (std::regex_search(sql, alias)) {
      return "an output alias used in WHERE, GROUP BY or HAVING: SQLite resolves it, PostgreSQL does not";
    }
  }
  if (error.find("must appear in the GROUP BY clause") != std::string::npos) {
    return "GROUP BY: SQLite allows columns that are neither grouped nor aggregated";
  }
  if (error.find("operator does not exist") != std::string::npos ||
      error.find("(text) does not exist") != std::string::npos ||
      error.find("invalid input syntax for type") != std::string::npos) {
    return "types: SQLite compares and aggregates across types (a text column against a number)";
  }
  if (error.find("subquery in FROM must have an alias") != std::string::npos ||
      error.find("syntax error at or near") != std::string::npos ||
      error.find("aggregate function calls cannot be nested") != std::string::npos) {
    return "syntax SQLite accepts and PostgreSQL does not";
  }
  if (error.find("more than one row returned by a subquery used as an expression") != std::string::npos) {
    return "a scalar subquery of several rows: SQLite takes the first";
  }
  return "";
}

struct engines {
  std::shared_ptr<const backend> sqlite = test::registry().create<backend>(core::component_spec("sqlite"));
  std::shared_ptr<const backend> pg = test::registry().create<backend>(core::component_spec("postgres"));
  std::map<std::string, std::unique_ptr<connection>> open;

  query_outcome run(bool on_pg, const core::example& ex, const std::string& sql) {
    const std::string target = on_pg ? test::postgres().conninfo(ex.db_id, "sqlmorph_reader") : ex.db;
    auto& conn = open[(on_pg ? "pg|" : "sqlite|") + target];
    if (!conn) conn = (on_pg ? pg : sqlite)->connect(target).conn;
    REQUIRE(conn);
    return conn->execute(sql, exec_limits{});
  }
};

// Why two engines' records of one example differ, or "" if nothing explains it.
std::string explain(const json& lite, const json& pg, const core::example& ex, engines& e) {
  const std::string ls = lite["status"];
  const std::string ps = pg["status"];
  if (ls != ps) {
    // PostgreSQL refuses a query SQLite runs (when both fail, the gold's failure is reported first).
    const std::string& sql = ps == "gold_error" ? ex.gold : ex.pred;
    const std::string why = dialect_error(pg["error"], sql);
    if (!why.empty() && (ps == "gold_error" || ps == "pred_error")) return why;
    return "";
  }
  if (ls != "ok") return "";  // the same failure scores the same
  // Both engines ran both queries: compare what they returned.
  const query_outcome lg = e.run(false, ex, ex.gold);
  const query_outcome pgg = e.run(true, ex, ex.gold);
  const query_outcome lp = e.run(false, ex, ex.pred);
  const query_outcome pp = e.run(true, ex, ex.pred);
  REQUIRE((lg.ok() && pgg.ok() && lp.ok() && pp.ok()));
  const bool gold_rows = same_rows(lg.rows, pgg.rows, true);
  const bool pred_rows = same_rows(lp.rows, pp.rows, true);
  if (gold_rows && pred_rows) {
    if (lg.rows.column_names() != pgg.rows.column_names() ||
        lp.rows.column_names() != pp.rows.column_names()) {
      return "column names: SQLite keeps a column's text as written (COUNT(*), Name), PostgreSQL folds case "
             "and names "
             "expressions by function (count, name)";
    }
    return "";
  }
  const bool gold_set = same_rows(lg.rows, pgg.rows, false);
  const bool pred_set = same_rows(lp.rows, pp.rows, false);
  if (gold_set && pred_set)
    return "row order: rows tied under ORDER BY (or unordered) come back in another order";
  if ((!gold_rows && has_word(ex.gold, "like")) || (!pred_rows && has_word(ex.pred, "like"))) {
    return "LIKE: case-insensitive in SQLite, case-sensitive in PostgreSQL";
  }
  return "";
}

}  // namespace

TEST_CASE("Spider dev on SQLite and PostgreSQL: the same numbers wherever both run both queries alike") {
  if (test::skip_without_shared("cross-backend parity")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  const auto& server = test::postgres();
  const auto load =
      test::run_loader({"--from", "sqlite-dir:" + (spider / "database").string(), "--to",
                        "postgres:host=" + server.host + " port=" + std::to_string(server.port) +
                            " user=" + server.superuser + " dbname={db_id}",
                        "--replace", "--grant", "sqlmorph_reader", "-q"});
  INFO(load.err);
  REQUIRE(load.exit_code == 0);

  test::temp_dir dir;
  const auto config = dir.path() / "sqlmorph.toml";
  std::ofstream(config) << "[plugins]\ndirs = [\"" << test::plugin_dir().string() << "\"]\n"
                        << "[backends.pg]\nplugin = \"postgres\"\ntarget = \"host=" << server.host
                        << " port=" << server.port << " dbname={db_id} user=sqlmorph_reader\"\n";
  std::vector<std::string> args = {
      "--config",
      config.string(),
      "-q",
      "eval",
      "--benchmark",
      "spider",
      "--gold",
      (spider / "dev_gold.sql").string(),
      "--db-root",
      (spider / "database").string(),
      "--backends",
      "sqlite,pg",
      "--penalize-extra-pred-cols",
      "both",
      "--techniques",
      "execution_accuracy,exact_column_and_exact_cell,exact_column_and_partial_cell,"
      "no_column_and_partial_cell,test_suite,spider_official_exec,malloy",
      "--out",
      (dir.path() / "out").string()};
  std::map<std::string, core::example> examples;
  for (const auto& [name, file] : systems) {
    args.push_back("--pred");
    args.push_back(std::string(name) + "=" + (spider / "predictions" / file).string());
    for (core::example& ex : core::read_spider_files(
             {spider / "dev_gold.sql", spider / "predictions" / file, spider / "database", name})) {
      examples.emplace(ex.id, std::move(ex));
    }
  }
  const auto run = test::run_sqlmorph(args);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);

  // Records paired by example, technique and penalize value.
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<json, json>> pairs;
  std::ifstream in(dir.path() / "out/results.jsonl");
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line);
    const std::string id = j["id"];
    const auto at = id.rfind('@');
    auto& p = pairs[{id.substr(0, at), j["technique"], j["penalize_extra_pred_cols"].dump()}];
    (id.substr(at + 1) == "sqlite" ? p.first : p.second) = j;
  }
  REQUIRE(pairs.size() == 4 * 1034 * 10);

  engines e;
  std::map<std::string, std::string> reason_of;  // example id -> why its numbers differ
  std::map<std::string, std::set<std::string>> examples_by_reason;
  std::size_t equal = 0;
  std::size_t scorable_equal = 0;
  std::vector<std::string> unexplained;
  for (const auto& [key, p] : pairs) {
    const auto& [lite, pg] = p;
    const bool same = lite["status"] == pg["status"] && lite["EX"] == pg["EX"] && lite["EXP"] == pg["EXP"] &&
                      lite["EXR"] == pg["EXR"] && lite["F1"] == pg["F1"];
    if (same) {
      ++equal;
      scorable_equal += lite["status"] == "ok";
      continue;
    }
    const std::string& id = std::get<0>(key);
    auto it = reason_of.find(id);
    if (it == reason_of.end()) it = reason_of.emplace(id, explain(lite, pg, examples.at(id), e)).first;
    if (it->second.empty()) {
      if (unexplained.empty() || unexplained.back().rfind(id + " ", 0) != 0) {
        unexplained.push_back(id + " " + std::get<1>(key) + ": sqlite " + lite.dump() + " / postgres " +
                              pg.dump());
      }
    } else {
      examples_by_reason[it->second].insert(id);
    }
  }
  std::string listing = "Spider dev, 4 systems, 10 technique variants: " + std::to_string(equal) + " of " +
                        std::to_string(pairs.size()) + " records equal on both engines (" +
                        std::to_string(scorable_equal) +
                        " of them scored ok); examples that legitimately differ:\n";
  for (const auto& [reason, ids] : examples_by_reason) {
    listing += "  " + std::to_string(ids.size()) + "  " + reason + "  (e.g.";
    std::size_t shown = 0;
    for (const auto& id : ids) {
      if (shown++ == 4) break;
      listing += " " + id;
    }
    listing += ")\n";
  }
  std::cout << listing << std::flush;
  std::string unexplained_text;
  for (std::size_t i = 0; i < unexplained.size() && i < 20; ++i) unexplained_text += unexplained[i] + "\n";
  INFO(unexplained.size(), " unexplained differences:\n", unexplained_text);
  CHECK(unexplained.empty());
  // Most queries mean the same on both engines.
  CHECK(scorable_equal > pairs.size() / 2);
}
