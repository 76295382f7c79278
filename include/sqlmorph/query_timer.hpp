#pragma once
/// \file query_timer.hpp
/// Repeated, timed execution of an example's two queries, for metrics of efficiency (BIRD's R-VES).
///
/// A metric never opens connections of its own: the host hands a timer to the scorer through
/// `match_input::timer`, and the timer runs the queries on the worker's connections, uncached.

#include <cstddef>
#include <string>
#include <vector>

#include "sqlmorph/query.hpp"
#include "sqlmorph/sql_rewriter.hpp"

namespace sqlmorph {

/// What a repetition measured.
struct timed_runs {
  /// ok, or how the repetition ended early: `timeout` when its time limit ran out, `error` when a
  /// query failed, `backend_error` when the connection did.
  query_status status = query_status::ok;
  std::string message;
  /// Which query ended the repetition early (when status is not ok).
  query_role failed = query_role::pred;
  /// Milliseconds of each completed execution, measured by the backend from the statement's start
  /// to its last row fetched (connection set-up excluded), in iteration order.
  std::vector<double> gold_ms;
  std::vector<double> pred_ms;
};

/// Times the example's (rewritten) gold and predicted queries. Not thread-safe: one per example
/// evaluation, used by one thread.
class query_timer {
 public:
  virtual ~query_timer() = default;

  /// Executes the predicted query and then the gold query, `iterations` times over, on the
  /// example's database, as BIRD's R-VES does. The whole repetition gets `iterations` times the
  /// run's time limit of one predicted query (BIRD's `meta_time_out * iterate_num`); when it runs
  /// out the repetition stops with status `timeout`. Never throws.
  virtual timed_runs repeat(std::size_t iterations) = 0;
};

}  // namespace sqlmorph
