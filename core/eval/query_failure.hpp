#pragma once
// What a failed or truncated execution means for an example: its status and message.

#include <optional>
#include <string>

#include <sqlmorph/query.hpp>
#include <sqlmorph/query_timer.hpp>
#include <sqlmorph/sql_rewriter.hpp>

#include "eval/record.hpp"

namespace sqlmorph::core {

struct query_failure {
  example_status status;
  std::string message;
};

/// The failure of one execution of `role`'s query, or nothing if its result is usable.
std::optional<query_failure> failure_of(const query_outcome& o, query_role role);

/// The failure a timed repetition ended with (query_timer.hpp), or nothing if it completed.
std::optional<query_failure> failure_of(const timed_runs& runs);

}  // namespace sqlmorph::core
