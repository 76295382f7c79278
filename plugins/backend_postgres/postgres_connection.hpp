#pragma once
// One evaluation session: each query in a read-only transaction that is always rolled back, sent
// with the extended protocol in single-row mode and waited for with poll(), so that a deadline, a
// cap or cancel() can stop it on the server.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include <libpq-fe.h>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/worker_slot.hpp>

#include "postgres_backend.hpp"

namespace sqlmorph::postgres {

class postgres_connection final : public connection {
 public:
  /// Takes ownership of `conn`, a session opened by open_session(), and of the worker's slot whose
  /// role it connected as (null without user_per_worker).
  postgres_connection(PGconn* conn, postgres_settings settings, std::unique_ptr<worker_slot> slot);
  ~postgres_connection() override;
  postgres_connection(const postgres_connection&) = delete;
  postgres_connection& operator=(const postgres_connection&) = delete;

  void cancel() noexcept override;

 protected:
  run_status run(const statement_request& statement, row_sink& rows) override;
  /// Prepares the statement (the unnamed prepared statement) inside the read-only transaction:
  /// PostgreSQL parses and analyses it, binding every table and column, and never runs it.
  run_status prepare(const statement_request& statement) override;
  /// CREATE TABLE / VIEW text built from the catalog: columns with types and NOT NULL, then primary
  /// keys, unique constraints and foreign keys.
  run_status schema_ddl(const exec_limits& limits, std::string& ddl) override;

 private:
  using clock = std::chrono::steady_clock;
  struct statement_run;

  bool session_ready_(std::string& message);
  bool reset_(std::string& message);
  bool begin_(double timeout_seconds, std::string& message);
  void end_transaction_();
  bool run_control_(const char* sql, std::string& message);
  bool wait_for_input_(clock::time_point until);
  void fetch_(statement_run& run, const exec_limits& limits, clock::time_point start);
  void take_result_(statement_run& run, const PGresult* r);
  /// Runs (or, without `rows`, only prepares) the statement; once more when another session
  /// stopped it.
  run_status run_(const statement_request& statement, row_sink* rows);
  /// One run of the statement; `stopped_by_other` tells whether another session ended it.
  run_status attempt_(const statement_request& statement, row_sink* rows, bool& stopped_by_other);
  bool stopped_by_another_session_(const statement_run& run, const exec_limits& limits) const;
  run_status finish_(statement_run& run, const exec_limits& limits);
  void send_cancel_() noexcept;
  void replace_cancel_handle_() noexcept;

  PGconn* conn_;
  postgres_settings settings_;
  std::unique_ptr<worker_slot> slot_;  // keeps the worker's number (its role) while connected
  bool broken_ = false;                // the session is in an unknown state: reset it before the next query
  std::string scratch_;                // bytea decoding

  std::mutex cancel_mutex_;  // guards cancel_ and in_statement_: cancel() runs on other threads
  PGcancel* cancel_ = nullptr;
  bool in_statement_ = false;
  std::atomic<bool> cancel_requested_{false};
};

}  // namespace sqlmorph::postgres
