#pragma once
/// \file sql_candidates.hpp
/// The SqlCandidates interface: alternatives to a predicted query that a technique tries besides
/// the prediction itself, counting the example correct when any of them is (the official Spider
/// evaluator's `--plug_value`: the gold query's values plugged into the prediction's value slots).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph {

/// The alternatives to one prediction.
struct candidate_list {
  /// The alternative SQL texts, in the order to try them (the prediction itself not included).
  std::vector<std::string> sql;
  /// How many alternatives there are in all; more than `sql.size()` when there were more than the
  /// component's limit allows (the caller then reports the example instead of trying a part).
  std::uint64_t total = 0;
};

/// Generates alternatives to a predicted query. Stateless; thread-safe.
class sql_candidates {
 public:
  static constexpr const char* kind_name = "sql_candidates";
  using interface_type = sql_candidates;

  virtual ~sql_candidates() = default;

  /// The alternatives to `pred_sql` given `gold_sql` (both after the technique's rewrites). An empty
  /// list means only the prediction itself is tried.
  candidate_list candidates(std::string_view gold_sql, std::string_view pred_sql) const {
    return do_candidates_(gold_sql, pred_sql);
  }

 protected:
  virtual candidate_list do_candidates_(std::string_view gold_sql, std::string_view pred_sql) const = 0;
};

}  // namespace sqlmorph
