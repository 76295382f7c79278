#pragma once
// What the example evaluator asks to run a query: one interface, so a plain runner (compare, tests)
// and the shared, cached runner of a benchmark run are interchangeable.

#include <memory>
#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>
#include <sqlmorph/query_timer.hpp>
#include <sqlmorph/sql_rewriter.hpp>

#include "backends/backend_routes.hpp"

namespace sqlmorph::core {

class query_executor {
 public:
  virtual ~query_executor() = default;
  /// The outcome of `sql` on the database `where` names (a backend and a target), run with the
  /// limits of `role` (gold or pred).
  virtual std::shared_ptr<const query_outcome> execute(const query_target& where, std::string_view sql,
                                                       query_role role) = 0;

  /// Times the two queries of an example (query_timer::repeat): the predicted then the gold query,
  /// `iterations` times over, never from a cache, with the whole repetition limited to
  /// `iterations` × the predicted queries' time limit.
  virtual timed_runs repeat(const query_target& gold_where, std::string_view gold_sql,
                            const query_target& pred_where, std::string_view pred_sql,
                            std::size_t iterations) = 0;
};

}  // namespace sqlmorph::core
