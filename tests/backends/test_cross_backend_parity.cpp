// Spider dev on SQLite and on PostgreSQL, MariaDB and DuckDB (the same databases, copied by
// sqlmorph-load), four systems evaluated on the four engines in one run: wherever an engine runs
// both queries as SQLite does, every deterministic technique gives the same numbers; every example
// where it does not is explained by a rule of tests/backends/dialect_rules.json, checked on the
// queries, the engines' messages and their results — an unexplained difference fails the test.

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
#include "mariadb_support.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;

namespace {

const char* const systems[][2] = {{"dail", "dail-sql-gpt4.sql"},
                                  {"c3", "c3-gpt35.sql"},
                                  {"resdsql", "resdsql-3b.sql"},
                                  {"din", "din-sql-gpt4.csv"}};

// The engines compared with SQLite: their backend names in the run (and in record ids).
const char* const compared[] = {"pg", "maria", "duck"};

bool has_word(std::string_view sql, std::string_view word) {
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == sql_token_kind::word && iequals_ascii(t.text, word)) return true;
  }
  return false;
}

bool has_token(std::string_view sql, sql_token_kind kind, std::string_view text = {}) {
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == kind && (text.empty() || t.text == text) &&
        (kind != sql_token_kind::quoted_name || t.text[0] == '"'))
      return true;
  }
  return false;
}

// `sql` without its LIMIT clause outside parentheses (and what follows it), or "" if it has none.
std::string without_final_limit(std::string_view sql) {
  const auto tokens = lex_sql(sql);
  int depth = 0;
  std::size_t limit_at = std::string::npos;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const sql_token& t = tokens[i];
    if (t.kind == sql_token_kind::punctuation && t.text == "(") ++depth;
    if (t.kind == sql_token_kind::punctuation && t.text == ")") --depth;
    if (depth == 0 && t.kind == sql_token_kind::word && iequals_ascii(t.text, "limit")) limit_at = t.offset;
  }
  return limit_at == std::string::npos ? "" : std::string(sql.substr(0, limit_at));
}

bool numbers_close(const value& a, const value& b, double relative) {
  if (!a.is_number() || !b.is_number()) return false;
  const double x = a.as_double();
  const double y = b.as_double();
  return std::abs(x - y) <= relative * std::max(std::abs(x), std::abs(y));
}

// The rows of a result as lists of values (names aside), compared under the reference equality,
// or with `cells` when given.
bool same_rows(const result& a, const result& b, bool ordered,
               const std::function<bool(const value&, const value&)>& cells = {}) {
  if (a.row_count() != b.row_count() || a.column_count() != b.column_count()) return false;
  const auto equal = [&](std::size_t r, std::size_t s) {
    if (!cells) return rows_equal(a.row(r), b.row(s));
    for (std::size_t c = 0; c < a.column_count(); ++c) {
      if (!cells(a.row(r)[c], b.row(s)[c])) return false;
    }
    return true;
  };
  if (ordered) {
    for (std::size_t r = 0; r < a.row_count(); ++r) {
      if (!equal(r, r)) return false;
    }
    return true;
  }
  std::vector<bool> used(b.row_count(), false);
  for (std::size_t r = 0; r < a.row_count(); ++r) {
    bool found = false;
    for (std::size_t s = 0; s < b.row_count() && !found; ++s) {
      if (!used[s] && equal(r, s)) used[s] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

struct rule {
  std::set<std::string> engines;
  std::regex error;
  std::string query_has;  // with {name}
  std::string check;
  std::string reason;
};

struct rules {
  std::vector<rule> errors;
  std::vector<rule> results;

  static rules read(const std::filesystem::path& file) {
    std::ifstream in(file);
    REQUIRE_MESSAGE(in.good(), "cannot read " << file.string());
    const json j = json::parse(in);
    rules out;
    for (const json& r : j.at("errors")) {
      out.errors.push_back({r.at("engines").get<std::set<std::string>>(),
                            std::regex(r.at("error").get<std::string>()), r.value("query_has", ""), "",
                            r.at("reason")});
    }
    for (const json& r : j.at("results")) {
      out.results.push_back(
          {r.at("engines").get<std::set<std::string>>(), std::regex(), "", r.at("check"), r.at("reason")});
    }
    return out;
  }

  // Why `engine` refusing `sql` with `error` is a dialect difference, or "" if no rule says so.
  std::string explain_error(const std::string& engine, const std::string& error,
                            const std::string& sql) const {
    for (const rule& r : errors) {
      std::smatch m;
      if (r.engines.count(engine) == 0 || !std::regex_search(error, m, r.error)) continue;
      if (r.query_has.empty()) return r.reason;
      std::string name;
      for (std::size_t g = 1; g < m.size() && name.empty(); ++g) name = m[g].str();
      std::string escaped;
      for (const char c : name) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) escaped += '\\';
        escaped += c;
      }
      std::string pattern = r.query_has;
      if (const auto at = pattern.find("{name}"); at != std::string::npos) pattern.replace(at, 6, escaped);
      if (std::regex_search(sql, std::regex(pattern, std::regex::icase))) return r.reason;
    }
    return "";
  }
};

struct engines {
  std::filesystem::path duckdb_root;
  std::map<std::string, std::shared_ptr<const backend>> backends;
  std::map<std::string, std::unique_ptr<connection>> open;

  std::shared_ptr<const backend> backend_of(const std::string& engine) {
    static const std::map<std::string, std::string> plugin = {
        {"sqlite", "sqlite"}, {"pg", "postgres"}, {"maria", "mysql"}, {"duck", "duckdb"}};
    auto& b = backends[engine];
    if (!b) b = test::registry().create<backend>(core::component_spec(plugin.at(engine)));
    return b;
  }

  std::string target(const std::string& engine, const core::example& ex) const {
    if (engine == "pg") return test::postgres().conninfo(ex.db_id, "sqlmorph_reader");
    if (engine == "maria") return test::mariadb().target(ex.db_id, "sqlmorph_reader");
    if (engine == "duck") return (duckdb_root / ex.db_id / (ex.db_id + ".duckdb")).string();
    return ex.db;
  }

  query_outcome run(const std::string& engine, const core::example& ex, const std::string& sql) {
    const std::string where = target(engine, ex);
    auto& conn = open[engine + "|" + where];
    if (!conn) conn = backend_of(engine)->connect(where).conn;
    REQUIRE(conn);
    return conn->execute(sql, exec_limits{});
  }
};

// Whether `check` explains that `sql` returned `lite` on SQLite and `other` on `engine`.
bool check_explains(const std::string& check, const std::string& engine, const std::string& sql,
                    const result& lite, const result& other, const core::example& ex, engines& e) {
  if (check == "column_names")
    return same_rows(lite, other, true) && lite.column_names() != other.column_names();
  if (check == "row_order") return same_rows(lite, other, false);
  if (check == "like") return has_word(sql, "like");
  if (check == "double_quotes") return has_token(sql, sql_token_kind::quoted_name);
  if (check == "division")
    return has_token(sql, sql_token_kind::punctuation, "/") || has_token(sql, sql_token_kind::op, "/");
  if (check == "decimal_digits") {
    return same_rows(lite, other, false, [](const value& a, const value& b) {
      return reference_equal(a, b) || numbers_close(a, b, 1e-4);
    });
  }
  if (check == "bare_column_of_extreme") {
    return has_word(sql, "group") && (has_word(sql, "max") || has_word(sql, "min")) &&
           lite.row_count() == other.row_count();
  }
  if (check == "unstable_ties") return false;  // see explain(): only when the results agree when run again
  if (check == "limit_ties") {
    if (!has_word(sql, "order") || !has_word(sql, "limit")) return false;
    const std::string all = without_final_limit(sql);
    if (all.empty()) return lite.row_count() == other.row_count();  // the LIMIT is in a subquery
    const query_outcome a = e.run("sqlite", ex, all);
    const query_outcome b = e.run(engine, ex, all);
    return a.ok() && b.ok() && same_rows(a.rows, b.rows, false) && lite.row_count() == other.row_count();
  }
  FAIL("dialect_rules.json names an unknown check '" << check << "'");
  return false;
}

// Why `engine`'s record of an example differs from SQLite's, or "" if nothing explains it.
std::string explain(const std::string& engine, const json& lite, const json& other, const core::example& ex,
                    const rules& r, engines& e) {
  const std::string ls = lite["status"];
  const std::string os = other["status"];
  const auto failed = [](const std::string& s) { return s == "gold_error" || s == "pred_error"; };
  if (ls != os) {
    // One engine refuses a query the other runs (when both fail, the gold's failure is reported first).
    if (failed(os)) return r.explain_error(engine, other["error"], os == "gold_error" ? ex.gold : ex.pred);
    if (failed(ls)) return r.explain_error("sqlite", lite["error"], ls == "gold_error" ? ex.gold : ex.pred);
    return "";
  }
  if (ls != "ok") return "";  // the same failure scores the same
  // Both engines ran both queries: every query whose rows differ must be explained by one rule.
  std::string reasons;
  for (const std::string* sql : {&ex.gold, &ex.pred}) {
    const query_outcome a = e.run("sqlite", ex, *sql);
    const query_outcome b = e.run(engine, ex, *sql);
    REQUIRE((a.ok() && b.ok()));
    if (same_rows(a.rows, b.rows, true) && a.rows.column_names() == b.rows.column_names()) continue;
    std::string why;
    for (const rule& candidate : r.results) {
      if (candidate.engines.count(engine) != 0 && candidate.check != "unstable_ties" &&
          check_explains(candidate.check, engine, *sql, a.rows, b.rows, ex, e)) {
        why = candidate.reason;
        break;
      }
    }
    if (why.empty()) return "";
    if (reasons.find(why) == std::string::npos) reasons += (reasons.empty() ? "" : "; ") + why;
  }
  if (!reasons.empty()) return reasons;
  // Run again, both queries return the same rows on both engines: the engine answered differently
  // during the evaluation, which only a choice among ties explains.
  for (const rule& candidate : r.results) {
    if (candidate.engines.count(engine) == 0 || candidate.check != "unstable_ties") continue;
    for (const std::string* sql : {&ex.gold, &ex.pred}) {
      if (has_word(*sql, "limit") || has_word(*sql, "order") || has_word(*sql, "group"))
        return candidate.reason;
    }
  }
  return "";
}

}  // namespace

TEST_CASE(
    "Spider dev on SQLite, PostgreSQL, MariaDB and DuckDB: the same numbers wherever an engine runs both "
    "queries "
    "as SQLite does") {
  if (test::skip_without_shared("cross-backend parity")) return;
  const auto spider = *test::shared_dir() / "benchmarks/spider-dev";
  const auto& server = test::postgres();
  test::temp_dir dir;
  const auto duckdb_root = dir.path() / "duckdb";
  for (const std::string& to : {"postgres:host=" + server.host + " port=" + std::to_string(server.port) +
                                    " user=" + server.superuser + " dbname={db_id}",
                                "mysql:" + test::mariadb().target("{db_id}", "root"),
                                "duckdb:" + (duckdb_root / "{db_id}" / "{db_id}.duckdb").string()}) {
    std::vector<std::string> args = {
        "--from", "sqlite-dir:" + (spider / "database").string(), "--to", to, "--replace", "-q"};
    if (to.rfind("duckdb:", 0) != 0) args.insert(args.end(), {"--grant", "sqlmorph_reader"});
    const auto load = test::run_loader(args);
    INFO(to, ": ", load.err);
    REQUIRE(load.exit_code == 0);
  }

  const auto config = dir.path() / "sqlmorph.toml";
  std::ofstream(config) << "[plugins]\ndirs = [\"" << test::plugin_dir().string() << "\"]\n"
                        << "[backends.pg]\nplugin = \"postgres\"\ntarget = \"host=" << server.host
                        << " port=" << server.port << " dbname={db_id} user=sqlmorph_reader\"\n"
                        << "[backends.maria]\nplugin = \"mysql\"\ntarget = \""
                        << test::mariadb().target("{db_id}", "sqlmorph_reader") << "\"\n"
                        << "[backends.duck]\nplugin = \"duckdb\"\ntarget = \""
                        << (duckdb_root / "{db_id}" / "{db_id}.duckdb").string() << "\"\n";
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
      "sqlite,pg,maria,duck",
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

  // Records by example, technique and penalize value, then engine.
  std::map<std::tuple<std::string, std::string, std::string>, std::map<std::string, json>> records;
  std::ifstream in(dir.path() / "out/results.jsonl");
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line);
    const std::string id = j["id"];
    const auto at = id.rfind('@');
    records[{id.substr(0, at), j["technique"], j["penalize_extra_pred_cols"].dump()}][id.substr(at + 1)] = j;
  }
  REQUIRE(records.size() == 4 * 1034 * 10);

  const rules r = rules::read(test::source_dir() / "tests/backends/dialect_rules.json");
  engines e{duckdb_root, {}, {}};
  std::string listing = "Spider dev, 4 systems, 10 technique variants, " + std::to_string(records.size()) +
                        " records per engine:\n";
  std::vector<std::string> unexplained;
  for (const std::string engine : compared) {
    std::map<std::string, std::string> reason_of;  // example id -> why its numbers differ
    std::map<std::string, std::set<std::string>> examples_by_reason;
    std::size_t equal = 0;
    std::size_t scorable_equal = 0;
    for (const auto& [key, by_engine] : records) {
      REQUIRE(by_engine.size() == 4);
      const json& lite = by_engine.at("sqlite");
      const json& other = by_engine.at(engine);
      const bool same = lite["status"] == other["status"] && lite["EX"] == other["EX"] &&
                        lite["EXP"] == other["EXP"] && lite["EXR"] == other["EXR"] &&
                        lite["F1"] == other["F1"];
      if (same) {
        ++equal;
        scorable_equal += lite["status"] == "ok";
        continue;
      }
      const std::string& id = std::get<0>(key);
      auto it = reason_of.find(id);
      if (it == reason_of.end())
        it = reason_of.emplace(id, explain(engine, lite, other, examples.at(id), r, e)).first;
      if (it->second.empty()) {
        if (unexplained.empty() || unexplained.back().rfind(engine + " " + id + " ", 0) != 0) {
          const auto brief = [](const json& j) {
            return j["status"].get<std::string>() + " EX " + j["EX"].dump() + " F1 " + j["F1"].dump() +
                   (j["error"].is_string() ? " (" + j["error"].get<std::string>().substr(0, 160) + ")" : "");
          };
          unexplained.push_back(engine + " " + id + " " + std::get<1>(key) + ": sqlite " + brief(lite) +
                                " / " + engine + " " + brief(other));
        }
      } else {
        examples_by_reason[it->second].insert(id);
      }
    }
    listing += engine + ": " + std::to_string(equal) + " records equal to SQLite's (" +
               std::to_string(scorable_equal) + " of them scored ok); examples that legitimately differ:\n";
    for (const auto& [reason, ids] : examples_by_reason) {
      listing += "  " + std::to_string(ids.size()) + "  " + reason + "  (e.g.";
      std::size_t shown = 0;
      for (const auto& id : ids) {
        if (shown++ == 4) break;
        listing += " " + id;
      }
      listing += ")\n";
    }
    // Most queries mean the same on both engines.
    CHECK_MESSAGE(scorable_equal > records.size() / 3, (engine + ": too few equal records"));
  }
  std::cout << listing << std::flush;
  std::string unexplained_text;
  for (const std::string& line : unexplained) unexplained_text += line + "\n";
  INFO(unexplained.size(), " unexplained differences:\n", unexplained_text);
  CHECK(unexplained.empty());
}
