#pragma once
// The query executor of one worker: its own connections, the run's shared cache, and the gold
// results on disk when a cache folder is given.

#include <memory>

#include "eval/query_runner.hpp"
#include "runner/gold_disk_cache.hpp"
#include "runner/shared_query_cache.hpp"

namespace sqlmorph::core {

class worker_queries final : public query_executor {
 public:
  worker_queries(shared_query_cache& shared, gold_disk_cache* disk, exec_limits gold_limits,
                 exec_limits pred_limits, connection_limits open_limits);

  std::shared_ptr<const query_outcome> execute(const query_target& where, std::string_view sql,
                                               query_role role) override;
  /// Timed repetitions are never cached: they run on this worker's connections.
  timed_runs repeat(const query_target& gold_where, std::string_view gold_sql, const query_target& pred_where,
                    std::string_view pred_sql, std::size_t iterations) override {
    return runner_.repeat(gold_where, gold_sql, pred_where, pred_sql, iterations);
  }

  /// Interrupts what this worker is executing (from another thread).
  void cancel() noexcept { runner_.cancel_all(); }

 private:
  shared_query_cache& shared_;
  gold_disk_cache* disk_;
  query_runner runner_;
};

}  // namespace sqlmorph::core
