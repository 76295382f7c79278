#pragma once
// Query outcomes shared by all workers of a run, so each distinct (database, SQL, limits) executes
// once per run whatever the number of techniques and systems: a worker that asks for a query
// another worker is running waits for that result instead of running it again. Finished outcomes
// are kept up to a memory budget (least recently used first out); large results are not kept.

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <sqlmorph/query.hpp>

namespace sqlmorph::core {

struct query_statistics {
  std::atomic<std::uint64_t> gold_executed{0};
  std::atomic<std::uint64_t> pred_executed{0};
  std::atomic<std::uint64_t> gold_from_disk{0};
  std::atomic<std::uint64_t> db_missing{0};  ///< queries not run: their database is missing
  std::atomic<std::uint64_t> reused{0};      ///< answered from memory or by waiting for another worker
};

class shared_query_cache {
 public:
  explicit shared_query_cache(std::size_t memory_budget_bytes) : budget_(memory_budget_bytes) {}
  /// The outcomes are left to the process's exit when it asked (app/exit_memory.hpp).
  ~shared_query_cache();
  shared_query_cache(const shared_query_cache&) = delete;
  shared_query_cache& operator=(const shared_query_cache&) = delete;

  using outcome_ptr = std::shared_ptr<const query_outcome>;

  /// The outcome under `key`, produced by `run` the first time it is asked for.
  outcome_ptr get(const std::string& key, const std::function<outcome_ptr()>& run);

  query_statistics& stats() noexcept { return stats_; }

 private:
  struct entry {
    std::shared_future<outcome_ptr> outcome;
    std::size_t bytes = 0;
    bool ready = false;
    std::list<std::string>::iterator lru;
  };
  void evict_locked();

  std::size_t budget_;
  std::size_t used_ = 0;
  std::mutex mutex_;
  std::unordered_map<std::string, entry> entries_;
  std::list<std::string> lru_;  // most recently used first; finished entries only
  query_statistics stats_;
};

}  // namespace sqlmorph::core
