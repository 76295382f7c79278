#include "eval/query_failure.hpp"

namespace sqlmorph::core {

std::optional<query_failure> failure_of(const query_outcome& o, query_role role) {
  const bool gold = role == query_role::gold;
  const std::string side = gold ? "gold" : "pred";
  switch (o.status) {
    case query_status::ok:
      if (o.rows.truncated()) {
        return query_failure{
            example_status::truncated,
            side + " result truncated" + (o.message.empty() ? std::string() : ": " + o.message)};
      }
      return std::nullopt;
    case query_status::error:
      return query_failure{gold ? example_status::gold_error : example_status::pred_error,
                           side + " query failed: " + o.message};
    case query_status::timeout:
      return query_failure{example_status::timeout, side + " query timed out: " + o.message};
    case query_status::db_missing:
      return query_failure{example_status::db_missing, o.message};
    case query_status::backend_error:
      return query_failure{example_status::backend_error, side + " query: backend failed: " + o.message};
  }
  return std::nullopt;
}

std::optional<query_failure> failure_of(const timed_runs& runs) {
  const bool gold = runs.failed == query_role::gold;
  switch (runs.status) {
    case query_status::ok:
      return std::nullopt;
    case query_status::error:
      return query_failure{gold ? example_status::gold_error : example_status::pred_error, runs.message};
    case query_status::timeout:
      return query_failure{example_status::timeout, runs.message};
    case query_status::db_missing:
      return query_failure{example_status::db_missing, runs.message};
    case query_status::backend_error:
      return query_failure{example_status::backend_error, runs.message};
  }
  return std::nullopt;
}

}  // namespace sqlmorph::core
