#pragma once
// SQLite's heap limit for a process of several workers. SQLite has one hard heap limit for the whole
// process (sqlite3_hard_heap_limit64), so a budget per worker is kept here: the limit is the sum of
// the budgets of the threads that hold connections of this plugin, each thread counting once (a
// worker runs one statement at a time), with the largest budget among its connections.

#include <cstdint>
#include <thread>

namespace sqlmorph::sqlite {

/// Held by a connection: counts the thread that opened it (a worker) in SQLite's heap limit.
class heap_budget_lease {
 public:
  /// `bytes` is the thread's budget; 0 means no limit (then SQLite gets none while it is held).
  explicit heap_budget_lease(std::int64_t bytes);
  ~heap_budget_lease();
  heap_budget_lease(const heap_budget_lease&) = delete;
  heap_budget_lease& operator=(const heap_budget_lease&) = delete;

  std::int64_t bytes() const noexcept { return bytes_; }

 private:
  std::thread::id thread_;
  std::int64_t bytes_;
};

/// SQLite's heap limit in force (0: none).
std::int64_t heap_limit_in_force() noexcept;
/// Whether threads other than the calling one hold connections (then they share the heap limit).
bool heap_shared_with_other_threads() noexcept;

}  // namespace sqlmorph::sqlite
