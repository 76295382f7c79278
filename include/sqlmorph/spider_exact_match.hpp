#pragma once
/// \file spider_exact_match.hpp
/// Spider's exact set match, as `evaluation.py --etype match` of test-suite-sql-eval computes it:
/// gold and prediction parsed by process_sql (sqlmorph/spider_sql.hpp) against the database's
/// schema, "rebuilt" (every condition value dropped, DISTINCT dropped, columns replaced by the
/// representative of their foreign-key group when their table is in the FROM clause), then compared
/// clause by clause (the partial scores) and as a whole. The behaviour is reproduced with its quirks
/// (see docs/techniques.md, `spider_exact_match`).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sqlmorph/spider_sql.hpp"

namespace sqlmorph::spider {

/// build_foreign_key_map: `__table.column__` -> the column of its foreign-key group with the
/// smallest column index.
using foreign_key_map = std::map<std::string, std::string, std::less<>>;

/// One database of Spider's tables.json, as written there (names not yet lower-cased).
struct tables_entry {
  std::string db_id;
  std::vector<std::string> table_names_original;
  /// (table index, column name); index -1 is `*`.
  std::vector<std::pair<int, std::string>> column_names_original;
  /// Pairs of column indexes.
  std::vector<std::pair<int, int>> foreign_keys;
};

/// What exact set match needs of one database: the schema names resolve against and the FK map.
struct database_schema {
  schema tables;
  foreign_key_map foreign_keys;
};

/// The schema (table and column names lower-cased as Python's str.lower() does) and the foreign-key
/// map of one tables.json entry. Throws std::invalid_argument naming the bad index.
database_schema make_database_schema(const tables_entry& entry);

/// One partial score: acc, rec and f1 are 0 or 1 (get_scores), the totals are counts.
struct partial_score {
  int acc = 0;
  int rec = 0;
  int f1 = 0;
  int label_total = 0;
  int pred_total = 0;
  bool operator==(const partial_score&) const = default;
};

/// The clauses of the partial scores, in the official order.
inline constexpr std::array<const char*, 10> partial_clauses = {
    "select", "select(no AGG)", "where",  "where(no OP)", "group(no Having)",
    "group",  "order",          "and/or", "IUEN",         "keywords"};

struct exact_match_scores {
  bool exact = false;
  std::array<partial_score, partial_clauses.size()> partial{};
};

/// rebuild_sql_val then rebuild_sql_col (with build_valid_col_units over `q`'s FROM tables), in
/// place. Throws std::invalid_argument where the official code itself would raise (a connector
/// where a condition belongs).
void rebuild_for_match(query& q, const database_schema& db);

/// Evaluator.eval_exact_match(pred, gold) on rebuilt queries, with its partial scores.
exact_match_scores eval_exact_match(const query& pred, const query& gold);

/// The whole per-example score of the official evaluator for one (gold, prediction) pair.
struct exact_match_outcome {
  /// Why the gold SQL cannot be scored (the official evaluator stops there); empty when it can.
  std::string gold_error;
  /// eval_hardness of the gold SQL.
  std::string hardness;
  /// false: the prediction did not parse and the empty SQL was scored (`pred_error` says why).
  bool pred_parsed = false;
  std::string pred_error;
  exact_match_scores scores;
};

/// `pred` as read from the prediction file: every `value` is replaced by `1` first, as the official
/// reader does; a prediction that does not parse is scored as the empty SQL.
exact_match_outcome score_exact_match(std::string_view gold, std::string_view pred,
                                      const database_schema& db);

/// The official script's table over a set of examples (one difficulty level, or all): EM is the
/// mean of the examples' EM; a clause's acc is averaged over the examples with pred_total > 0, its
/// rec over those with label_total > 0 (0 when there are none), and its f1 is 2·acc·rec/(acc+rec)
/// of those averages, 1 when both are 0.
struct exact_match_level {
  std::size_t count = 0;
  double exact = 0;
  struct clause {
    double acc = 0;
    double rec = 0;
    double f1 = 0;
    std::size_t acc_count = 0;
    std::size_t rec_count = 0;
  };
  std::array<clause, partial_clauses.size()> partial{};
};

/// Difficulty levels of the official table, in its order ("all" is every example).
inline constexpr std::array<const char*, 5> exact_match_levels = {"easy", "medium", "hard", "extra", "all"};

/// Accumulates examples as the official `evaluate` loop does and gives its table.
class exact_match_summary {
 public:
  /// One example of difficulty `hardness` (counted under "all" too; an unknown difficulty only there).
  void add(std::string_view hardness, const exact_match_scores& scores);
  /// The table row of one of exact_match_levels.
  exact_match_level level(std::string_view name) const;

 private:
  std::array<exact_match_level, exact_match_levels.size()> sums_{};
};

}  // namespace sqlmorph::spider
