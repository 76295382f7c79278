#pragma once
// What a SQL query is made of, read from its tokens (sqlmorph/sql_lexer.hpp: dialect-tolerant,
// never fails, strings and comments never count): the scenario filters of NL2SQL360 — joins,
// nesting, GROUP BY, HAVING, ORDER BY, LIMIT, set operations, aggregates, window functions, LIKE,
// DISTINCT, CASE, and the numbers of tables and conditions. Summaries slice every metric by them
// (`by_feature`) and Lua experiments filter examples with them.

#include <array>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

struct sql_features {
  int joins = 0;             ///< JOIN keywords, plus tables listed after the first with commas in a FROM
  int subqueries = 0;        ///< parenthesized SELECT / WITH queries
  int nesting_depth = 0;     ///< the deepest subquery nesting (0: none)
  int set_operations = 0;    ///< UNION, INTERSECT, EXCEPT (MINUS)
  int aggregates = 0;        ///< COUNT, SUM, AVG, MIN, MAX, GROUP_CONCAT, STRING_AGG, TOTAL calls
  int window_functions = 0;  ///< OVER clauses
  int tables = 0;            ///< distinct table names after FROM and JOIN (case-insensitive)
  int conditions = 0;        ///< comparisons and predicates: = <> != < > <= >= LIKE IN BETWEEN IS EXISTS
  bool group_by = false;
  bool having = false;
  bool order_by = false;
  bool limit = false;  ///< LIMIT, TOP or FETCH FIRST
  bool like = false;   ///< LIKE, ILIKE, GLOB
  bool distinct = false;
  bool case_when = false;
};

/// The features of `sql` (the first statement).
sql_features features_of(std::string_view sql);

/// The yes/no slices of a query, by name: join, subquery, group_by, having, order_by, limit,
/// set_operation, aggregate, window, like, distinct, case.
inline constexpr std::array<const char*, 12> feature_names = {
    "join",          "subquery",  "group_by", "having", "order_by", "limit",
    "set_operation", "aggregate", "window",   "like",   "distinct", "case"};
/// Whether `f` has the feature feature_names[i].
bool has_feature(const sql_features& f, std::size_t i) noexcept;
/// The features as a bit mask (bit i = feature_names[i]).
std::uint32_t feature_mask(const sql_features& f) noexcept;

/// {"joins", "subqueries", "nesting_depth", "set_operations", "aggregates", "window_functions",
///  "tables", "conditions", "group_by", "having", "order_by", "limit", "like", "distinct", "case"}.
nlohmann::ordered_json features_json(const sql_features& f);
/// The features of features_json's object; false when it is not one.
bool features_from_json(const nlohmann::json& j, sql_features& out);

}  // namespace sqlmorph::core
