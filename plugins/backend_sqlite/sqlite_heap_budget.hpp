#pragma once
// SQLite's heap limit for a process of several workers. SQLite has one hard heap limit for the whole
// process (sqlite3_hard_heap_limit64), so it is set to a budget per worker times the number of
// workers (threads) that hold connections of this plugin, and updated as they open and close them.

#include <cstdint>
#include <optional>

#include <sqlmorph/worker_slot.hpp>

namespace sqlmorph::sqlite {

/// Held by a connection: counts the worker that opened it in SQLite's heap limit.
class heap_budget_lease {
 public:
  /// `bytes` is the budget per worker; 0 means no limit.
  explicit heap_budget_lease(std::int64_t bytes);
  ~heap_budget_lease();
  heap_budget_lease(const heap_budget_lease&) = delete;
  heap_budget_lease& operator=(const heap_budget_lease&) = delete;

  std::int64_t bytes() const noexcept { return bytes_; }

 private:
  std::int64_t bytes_;
  std::optional<worker_slot> slot_;
};

/// SQLite's heap limit in force (0: none).
std::int64_t heap_limit_in_force() noexcept;
/// Whether threads other than the calling one hold connections (then they share the heap limit).
bool heap_shared_with_other_threads() noexcept;

}  // namespace sqlmorph::sqlite
