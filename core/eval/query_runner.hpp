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

/// How many connections one runner keeps open between queries, per kind; the least recently used
/// of a kind is closed first. Database files (SQLite, DuckDB) are cheap to hold and are visited in
/// cycles — a test suite's variants, every query over all of its folder — which a cache smaller
/// than the cycle misses every time (each query would open its file and parse its schema again);
/// a server's connections count against its max_connections, so few are kept.
struct connection_limits {
  std::size_t files = 64;
  std::size_t servers = 8;

  /// The limits for each of `workers` runners: files as many as the process's file descriptor
  /// limit leaves them (half of it shared between the workers), at most 64 and at least 8.
  static connection_limits for_workers(std::size_t workers) noexcept;
};

/// Executes queries for one thread, without caching.
class query_runner final : public query_executor {
 public:
  query_runner(exec_limits gold_limits, exec_limits pred_limits, connection_limits open_limits = {});
  /// The same limits for gold and predicted queries.
  explicit query_runner(exec_limits limits, connection_limits open_limits = {})
      : query_runner(limits, limits, open_limits) {}

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
  connection_limits max_open_;
  std::mutex open_mutex_;            // guards `open_` against cancel_all() from another thread
  std::list<open_connection> open_;  // most recently used first
};

}  // namespace sqlmorph::core
