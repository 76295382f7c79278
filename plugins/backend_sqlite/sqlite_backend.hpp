#pragma once
// The SQLite backend: opens database files read-only and executes one statement at a time under
// an authorizer, a time limit enforced by the engine, and row/byte caps.

#include <cstdint>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::sqlite {

struct sqlite_settings {
  /// Open with SQLite's `immutable=1` (no locking, no journal checks): for files nobody writes.
  bool immutable = false;
  /// VM instructions between two checks of the deadline.
  int progress_interval = 1000;
  /// How long to wait for a lock held by another process, in milliseconds.
  int busy_timeout_ms = 5000;
  /// The longest string or blob (or table row) a query may make or read (SQLITE_LIMIT_LENGTH).
  std::int64_t max_value_bytes = 32LL << 20;
  /// SQLite's heap budget of each worker (see sqlite_heap_budget.hpp); 0: no limit.
  std::int64_t heap_limit_bytes = 256LL << 20;
};

class sqlite_backend final : public backend {
 public:
  explicit sqlite_backend(const option_values& o);
  backend_capabilities capabilities() const override;

 protected:
  connect_outcome open(std::string_view target) const override;

 private:
  sqlite_settings settings_;
};

}  // namespace sqlmorph::sqlite
