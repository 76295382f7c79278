#include "suite/distillation.hpp"

#include <algorithm>
#include <map>

#include <sqlmorph/sql_lexer.hpp>
#include <system_error>

#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"

namespace sqlmorph::core::suite {
namespace {

// A query_runner that keeps the gold queries' outcomes on the current database: each gold query
// runs once per candidate, however many neighbours it is compared with.
class gold_memo_executor final : public query_executor {
 public:
  gold_memo_executor(exec_limits gold, exec_limits pred) : runner_(gold, pred, {.files = 4, .servers = 4}) {}

  std::shared_ptr<const query_outcome> execute(const query_target& where, std::string_view sql,
                                               query_role role) override {
    if (role != query_role::gold) return runner_.execute(where, sql, role);
    std::string key = where.target;
    key += '\n';
    key += sql;
    const auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    auto outcome = runner_.execute(where, sql, role);
    memo_.emplace(std::move(key), outcome);
    return outcome;
  }

  timed_runs repeat(const query_target& gold_where, std::string_view gold_sql, const query_target& pred_where,
                    std::string_view pred_sql, std::size_t iterations) override {
    return runner_.repeat(gold_where, gold_sql, pred_where, pred_sql, iterations);
  }

  void forget() { memo_.clear(); }

 private:
  query_runner runner_;
  std::map<std::string, std::shared_ptr<const query_outcome>> memo_;
};

// The rows of `sql` on `db` as keys, sorted unless the order is kept.
std::vector<std::string> row_keys(sqlite_database& db, const std::string& sql, bool keep_order) {
  std::vector<std::string> out;
  for (const auto& row : db.rows(sql)) {
    std::string k;
    for (const sql_value& v : row) k += v.key() + '\x1f';
    out.push_back(std::move(k));
  }
  if (!keep_order) std::sort(out.begin(), out.end());
  return out;
}

// Where a tie-breaker goes in `sql`: the end of its top-level ORDER BY clause (before a top-level
// LIMIT, else before a final ';'). npos without a top-level ORDER BY.
std::size_t order_by_end(const std::string& sql) {
  if (!has_top_level_order_by(sql)) return std::string::npos;
  int depth = 0;
  std::size_t end = sql.size();
  for (const sql_token& t : lex_sql(sql)) {
    if (t.kind == sql_token_kind::punctuation && t.text == "(") ++depth;
    if (t.kind == sql_token_kind::punctuation && t.text == ")") --depth;
    if (depth != 0) continue;
    if (t.kind == sql_token_kind::word && iequals_ascii(t.text, "limit")) return t.offset;
    if (t.kind == sql_token_kind::punctuation && t.text == ";") return std::min(end, t.offset);
  }
  return end;
}

// True when `sql` has one right answer on `db`: its rows do not depend on how ties of its ORDER BY
// are broken (rows ordered by every column ascending, then descending, after its own keys), nor on
// the order SQLite scans the tables in (PRAGMA reverse_unordered_selects: ungrouped columns). A gold
// query whose ORDER BY ... LIMIT cuts between ties has no single right answer there: a suite with
// that database would mark equivalent predictions wrong.
bool has_one_answer(sqlite_database& db, const std::string& sql) {
  try {
    const std::size_t cut = order_by_end(sql);
    const bool ordered = cut != std::string::npos;
    db.exec("PRAGMA reverse_unordered_selects = 0");
    const std::vector<std::string> plain = row_keys(db, sql, ordered);
    db.exec("PRAGMA reverse_unordered_selects = 1");
    const std::vector<std::string> reversed = row_keys(db, sql, ordered);
    db.exec("PRAGMA reverse_unordered_selects = 0");
    if (plain != reversed) return false;
    if (!ordered || plain.empty()) return true;
    const std::size_t columns = db.rows(sql).front().size();
    std::string up;
    std::string down;
    for (std::size_t c = 1; c <= columns; ++c) {
      up += ", " + std::to_string(c);
      down += ", " + std::to_string(c) + " DESC";
    }
    std::string text = sql.substr(0, cut);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\t'))
      text.pop_back();
    const std::string rest = " " + sql.substr(cut);
    try {
      return row_keys(db, text + up + rest, true) == row_keys(db, text + down + rest, true);
    } catch (const std::runtime_error&) {
      return true;  // a tie-breaker SQLite refuses (e.g. an ORDER BY of a compound query)
    }
  } catch (const std::runtime_error&) {
    return true;  // what SQLite cannot run directly, the comparison judges
  }
}

enum class verdict { same, told_apart, gold_failed, undecided };

struct gold_state {
  gold_coverage coverage;
  std::vector<neighbour_query> open;  // not told apart yet
};

}  // namespace

std::size_t distillation_result::neighbours() const {
  std::size_t n = 0;
  for (const gold_coverage& g : golds) n += g.neighbours;
  return n;
}

std::size_t distillation_result::distinguished() const {
  std::size_t n = 0;
  for (const gold_coverage& g : golds) n += g.distinguished;
  return n;
}

distillation_result distill_database(const std::string& db_id, const std::filesystem::path& original,
                                     const std::vector<gold_query>& golds,
                                     const std::filesystem::path& work_dir,
                                     std::shared_ptr<const technique> comparison,
                                     std::shared_ptr<const backend_routes> routes,
                                     const distillation_options& options) {
  exec_limits gold_limits;
  gold_limits.timeout_seconds = options.gold_timeout;
  exec_limits pred_limits;
  pred_limits.timeout_seconds = options.neighbour_timeout;
  gold_memo_executor executor(gold_limits, pred_limits);
  example_evaluator evaluator(executor, {std::move(comparison)}, std::move(routes));

  const auto compare = [&](const std::filesystem::path& db, const std::string& gold,
                           const std::string& pred) {
    example ex;
    ex.id = db_id;
    ex.db_id = db_id;
    ex.db = db.string();
    ex.gold = gold;
    ex.pred = pred;
    const std::vector<record> records = evaluator.evaluate(ex);
    const record& r = records.front();
    switch (r.status) {
      case example_status::ok:
        return r.scores.ex && *r.scores.ex == 0.0 ? verdict::told_apart : verdict::same;
      case example_status::pred_error:
        return verdict::told_apart;  // the suite marks a failing prediction wrong
      case example_status::gold_error:
        return verdict::gold_failed;
      default:
        return verdict::undecided;
    }
  };

  std::vector<std::string> gold_sql;
  for (const gold_query& g : golds) gold_sql.push_back(g.sql);
  fuzz_plan plan;
  {
    sqlite_database db(original, sqlite_database::mode::read_only);
    plan = plan_fuzzing(db, gold_sql, options.fuzz);
  }
  const neighbour_schema schema = schema_for_neighbours(plan);

  // The neighbours of each gold query that prepare on the schema.
  std::vector<gold_state> states;
  {
    sqlite_database db(original, sqlite_database::mode::read_only);
    for (std::size_t i = 0; i < golds.size(); ++i) {
      gold_state s;
      s.coverage.origin = golds[i].origin;
      s.coverage.sql = golds[i].sql;
      seeded_random random(seeded_random::derive(options.seed, db_id + "\n" + std::to_string(i)));
      for (neighbour_query& n : neighbour_queries(golds[i].sql, schema, random, options.neighbours))
        if (db.prepare_error(n.sql).empty()) s.open.push_back(std::move(n));
      states.push_back(std::move(s));
    }
  }

  // The original is the suite's first database.
  for (gold_state& s : states) {
    const verdict g = compare(original, s.coverage.sql, s.coverage.sql);
    if (g != verdict::same) {
      s.coverage.gold_error = g == verdict::gold_failed
                                  ? "the gold query fails on the original database"
                                  : "the gold query gives no result on the original database";
      s.open.clear();
      continue;
    }
    s.coverage.neighbours = s.open.size();
    for (const neighbour_query& n : s.open) ++s.coverage.families[n.family].first;
    std::vector<neighbour_query> still;
    for (neighbour_query& n : s.open) {
      if (compare(original, s.coverage.sql, n.sql) == verdict::told_apart)
        ++s.coverage.distinguished;
      else
        still.push_back(std::move(n));
    }
    s.open = std::move(still);
  }
  executor.forget();

  distillation_result result;
  const auto any_open = [&] {
    for (const gold_state& s : states)
      if (!s.open.empty()) return true;
    return false;
  };
  for (std::size_t c = 0; c < options.max_candidates && any_open(); ++c) {
    ++result.candidates_tried;
    const std::filesystem::path candidate = work_dir / ("candidate-" + std::to_string(c) + ".sqlite");
    seeded_random random(seeded_random::derive(options.seed, db_id + "\ncandidate " + std::to_string(c)));
    write_fuzzed_database(plan, candidate, random, c, options.fuzz);
    // Which open neighbours this candidate tells apart.
    std::vector<std::vector<std::size_t>> told(states.size());
    bool useful = false;
    bool gold_failed = false;
    for (std::size_t i = 0; i < states.size() && !gold_failed; ++i) {
      for (std::size_t k = 0; k < states[i].open.size(); ++k) {
        const verdict v = compare(candidate, states[i].coverage.sql, states[i].open[k].sql);
        if (v == verdict::gold_failed) {
          gold_failed = true;
          break;
        }
        if (v == verdict::told_apart) {
          told[i].push_back(k);
          useful = true;
        }
      }
    }
    // A kept database must run every gold query (the evaluation stops at a gold query that fails).
    if (useful && !gold_failed) {
      for (const gold_state& s : states) {
        if (!s.coverage.gold_error.empty()) continue;
        if (compare(candidate, s.coverage.sql, s.coverage.sql) != verdict::same) {
          gold_failed = true;
          break;
        }
      }
    }
    bool unstable = false;
    if (useful && !gold_failed) {
      sqlite_database db(candidate, sqlite_database::mode::read_only);
      for (const gold_state& s : states) {
        if (s.coverage.gold_error.empty() && !has_one_answer(db, s.coverage.sql)) {
          unstable = true;
          break;
        }
      }
    }
    executor.forget();
    std::error_code ec;
    if (gold_failed) ++result.candidates_failing_gold;
    if (unstable) ++result.candidates_order_dependent;
    if (!useful || gold_failed || unstable) {
      std::filesystem::remove(candidate, ec);
      continue;
    }
    const std::string name = db_id + "_" + std::to_string(result.variants.size() + 1) + ".sqlite";
    std::filesystem::rename(candidate, work_dir / name);
    result.variants.push_back(name);
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (told[i].empty()) continue;
      std::vector<neighbour_query> still;
      std::size_t t = 0;
      for (std::size_t k = 0; k < states[i].open.size(); ++k) {
        if (t < told[i].size() && told[i][t] == k) {
          ++t;
          ++states[i].coverage.distinguished;
          continue;
        }
        still.push_back(std::move(states[i].open[k]));
      }
      states[i].open = std::move(still);
    }
  }
  for (gold_state& s : states) {
    for (auto& f : s.coverage.families) f.second.second = f.second.first;
    for (const neighbour_query& n : s.open) --s.coverage.families[n.family].second;
    s.coverage.equivalent = std::move(s.open);
    result.golds.push_back(std::move(s.coverage));
  }
  return result;
}

}  // namespace sqlmorph::core::suite
