#pragma once
// The official Spider evaluator's --plug_value (test-suite-sql-eval, parse.py
// get_all_preds_for_execution): the gold query's values plugged into the prediction's value slots
// in every possible way, for systems that do not predict values.

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <sqlmorph/options.hpp>
#include <sqlmorph/sql_candidates.hpp>

namespace sqlmorph::reference {

/// A query as the official extract_query_values sees it: its whitespace-separated pieces (lower-cased,
/// `t1.x` split at the dot), each value replaced by the slot `valuerare`, and the set of its values
/// (quoted strings with their quotes, and numbers as written).
struct query_values {
  std::vector<std::string> pieces;
  std::set<std::string> values;
};
inline constexpr std::string_view value_slot = "valuerare";

/// extract_query_values: reformat_query (sqlparse tokens without whitespace joined by spaces, `;` and
/// tabs removed), then strip_query (string literals, then pieces matching its float and integer
/// patterns, become slots).
query_values extract_query_values(std::string_view sql);

/// The number of ways to fill `slots` slots with `values` values (values^slots), saturated at
/// `cap` + 1.
std::uint64_t plug_count(std::size_t values, std::size_t slots, std::uint64_t cap);

/// The predictions with the gold's values plugged in, as the official plugin_all_permutations writes
/// them (pieces joined by spaces). With `plug_value` off there are none (only the prediction
/// itself is tried). More than `max_candidates` ways: the list is cut and its total says how many.
class spider_plug_value final : public sql_candidates {
 public:
  explicit spider_plug_value(const option_values& o);

 protected:
  candidate_list do_candidates_(std::string_view gold_sql, std::string_view pred_sql) const override;

 private:
  bool plug_value_;
  std::uint64_t max_candidates_;
};

}  // namespace sqlmorph::reference
