#pragma once
// Executes queries for one worker: owns that worker's connections (one per backend and database,
// reused across examples) and applies the run's limits.

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <sqlmorph/backend.hpp>

#include "eval/query_executor.hpp"

namespace sqlmorph::core {

/// Executes queries for one thread, without caching.
class query_runner final : public query_executor {
 public:
  query_runner(exec_limits gold_limits, exec_limits pred_limits, std::size_t max_open_connections = 8);
  /// The same limits for gold and predicted queries.
  explicit query_runner(exec_limits limits, std::size_t max_open_connections = 8)
      : query_runner(limits, limits, max_open_connections) {}

  /// Executes `sql` on `where`. A database that cannot be opened gives an outcome with its status
  /// (db_missing, backend_error) and the backend's message.
  std::shared_ptr<const query_outcome> execute(const query_target& where, std::string_view sql,
                                               query_role role) override;

  /// Executes both queries `iterations` times over, uncached, on this runner's connections.
  timed_runs repeat(const query_target& gold_where, std::string_view gold_sql, const query_target& pred_where,
                    std::string_view pred_sql, std::size_t iterations) override;

  const exec_limits& limits(query_role role) const noexcept {
    return role == query_role::gold ? gold_limits_ : pred_limits_;
  }

  /// Interrupts the statement running on any open connection (thread-safe).
  void cancel_all() noexcept;

 private:
  struct open_connection {
    const configured_backend* backend;
    std::string target;
    std::unique_ptr<connection> conn;
  };
  query_outcome run_(const query_target& where, std::string_view sql, const exec_limits& run_limits);

  exec_limits gold_limits_;
  exec_limits pred_limits_;
  std::size_t max_open_;
  std::mutex open_mutex_;            // guards `open_` against cancel_all() from another thread
  std::list<open_connection> open_;  // most recently used first
};

}  // namespace sqlmorph::core
