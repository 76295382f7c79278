#pragma once
// Executes queries for one worker: owns that worker's connections (one per database, reused
// across examples) and applies the run's limits.

#include <list>
#include <memory>
#include <string>
#include <utility>

#include <sqlmorph/backend.hpp>

namespace sqlmorph::core {

class query_runner {
public:
  query_runner(std::shared_ptr<const backend> engine, exec_limits limits, std::size_t max_open_connections = 8);

  /// Executes `sql` on the database `target`. A database that cannot be opened gives an outcome
  /// with its status (db_missing, backend_error) and the backend's message.
  std::shared_ptr<const query_outcome> execute(const std::string& target, std::string_view sql);

  const exec_limits& limits() const noexcept { return limits_; }

private:
  struct open_connection {
    std::string target;
    std::unique_ptr<connection> conn;
  };

  std::shared_ptr<const backend> engine_;
  exec_limits limits_;
  std::size_t max_open_;
  std::list<open_connection> open_;  // most recently used first
};

}  // namespace sqlmorph::core
