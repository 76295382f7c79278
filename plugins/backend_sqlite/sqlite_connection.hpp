#pragma once
// One read-only SQLite connection: the statement check, execution and fetching.

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include <sqlite3.h>

#include <sqlmorph/backend.hpp>

#include "sqlite_backend.hpp"
#include "sqlite_heap_budget.hpp"

namespace sqlmorph::sqlite {

class sqlite_connection final : public connection {
 public:
  /// Takes ownership of `db`, which must already be open read-only with the safety settings applied
  /// (see open_read_only()).
  sqlite_connection(sqlite3* db, sqlite_settings settings);
  ~sqlite_connection() override;

  void cancel() noexcept override;

  /// Called by the authorizer when it refuses an action, to explain SQLite's "not authorized".
  /// The first refusal of the statement itself is kept; refusals of SQLite's bookkeeping (writes
  /// to sqlite_schema that a DROP or CREATE implies) only when nothing else was refused.
  void note_denial(std::string what, bool bookkeeping) {
    if (denial_.empty() || (denial_is_bookkeeping_ && !bookkeeping)) {
      denial_ = std::move(what);
      denial_is_bookkeeping_ = bookkeeping;
    }
  }

 protected:
  run_status run(const statement_request& statement, row_sink& rows) override;
  /// Prepares the statement (with the authorizer and the single-statement check) and never steps it.
  run_status prepare(const statement_request& statement) override;
  /// The CREATE statements SQLite stored for each table and view.
  run_status schema_ddl(const exec_limits& limits, std::string& ddl) override;

 private:
  static int on_progress(void* self) noexcept;
  void begin_(const exec_limits& limits, std::chrono::steady_clock::time_point start);
  run_status engine_failure_(int rc, std::string_view sql) const;
  /// Prepares one read-only query into `stmt`, or returns why it is refused (then `stmt` is null).
  std::optional<run_status> prepare_query_(std::string_view sql, sqlite3_stmt*& stmt);
  /// Prepares, steps and fetches once; `out_of_memory` tells whether it failed at the heap limit.
  run_status run_once_(const statement_request& statement, row_sink& rows, bool& out_of_memory);
  /// Waits, at most until the statement's deadline, for SQLite's heap to have this worker's budget
  /// free again (another worker's statement may have taken it); false when it did not.
  bool wait_for_heap_() const;

  sqlite3* db_;
  sqlite_settings settings_;
  heap_budget_lease heap_budget_;  // this worker's share of SQLite's heap
  std::chrono::steady_clock::time_point deadline_{};
  bool has_deadline_ = false;
  bool deadline_hit_ = false;
  std::atomic<bool> cancelled_{false};
  std::string denial_;
  bool denial_is_bookkeeping_ = false;
};

/// Opens `path` read-only with every safety setting (authorizer, no extension loading, no ATTACH,
/// defensive mode, untrusted schema). On failure returns nullptr and sets `status` and `message`.
sqlite3* open_read_only(const std::string& path, const sqlite_settings& settings, query_status& status,
                        std::string& message);

/// Installs the authorizer that refuses everything but reading (see sqlite_authorizer.cpp).
void install_authorizer(sqlite3* db, sqlite_connection* owner);

}  // namespace sqlmorph::sqlite
