#pragma once
// SQLite's heap limit per worker. Where the host counts SQLite's memory per thread (it set SQLite's
// allocator before SQLite started: core/app/sqlite_memory.hpp), each worker's thread gets its own
// limit. Otherwise SQLite has one hard heap limit for the whole process (sqlite3_hard_heap_limit64),
// so it is set to a budget per worker times the number of workers (threads) that hold connections
// of this plugin, and updated as they open and close them.

#include <cstdint>
#include <optional>

#include <sqlmorph/worker_slot.hpp>

namespace sqlmorph::sqlite {

/// Held by a connection: its worker's heap budget.
class heap_budget_lease {
 public:
  /// `bytes` is the budget per worker; 0 means no limit.
  explicit heap_budget_lease(std::int64_t bytes);
  ~heap_budget_lease();
  heap_budget_lease(const heap_budget_lease&) = delete;
  heap_budget_lease& operator=(const heap_budget_lease&) = delete;

  std::int64_t bytes() const noexcept { return bytes_; }
  /// Before a statement: the calling thread's limit is this budget (per-thread counting; nothing
  /// to do with the process-wide limit, set when the lease was taken).
  void apply() const noexcept;
  /// Whether a heap limit is in force for this connection's statements.
  bool limited() const noexcept;
  /// Whether the limit is shared with other workers' threads: the process-wide limit while other
  /// threads hold connections (a statement of another worker may have taken this one's share).
  bool shared_with_other_threads() const noexcept;

 private:
  std::int64_t bytes_;
  bool per_thread_ = false;
  std::optional<worker_slot> slot_;  // process-wide limit: counts this worker
};

/// SQLite's process-wide hard heap limit in force (0: none).
std::int64_t process_heap_limit() noexcept;

}  // namespace sqlmorph::sqlite
