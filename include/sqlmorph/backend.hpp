#pragma once
/// \file backend.hpp
/// The Backend interface: a database engine that executes one statement read-only, with limits.
///
/// The contract is kept here, in the SDK, once for every engine (non-virtual interface):
/// `connection::execute` and `connection::check` time the statement, refuse SQL with a NUL byte,
/// apply the statement gate, hand the rows to a capped `row_sink`, word timeouts, caps and
/// refusals the same way, and turn an exception into `backend_error`. A backend plugin fills in a
/// few hooks: `open` a connection, and on it `run` a statement into a sink, `cancel` (interrupt) a
/// running one, and optionally `prepare` one without running it and give the `schema_ddl`.
/// Its `capabilities()` tell the SDK and the runner which of these it has.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "sqlmorph/query.hpp"
#include "sqlmorph/row_sink.hpp"

namespace sqlmorph {

/// Who checks that a statement is a single statement that only reads, before it runs.
enum class statement_gate : std::uint8_t {
  /// The SDK's textual gate (`check_read_only_statement`): one statement whose first keyword is
  /// SELECT, WITH, VALUES or TABLE. Server backends use it as the first of their read-only layers.
  sdk,
  /// The engine itself, more precisely than text can (SQLite prepares the statement and asks it).
  engine,
};

/// What a backend has. The SDK's `connection` relies on `gate`, `checks_without_executing` and
/// `describes_schema`; the runner records them in `run.json` and uses `describes_schema` (a judge
/// gets no schema from a backend without it); `sqlmorph plugins` shows them.
struct backend_capabilities {
  /// SQL dialect of the engine ("sqlite", "postgresql", ...); judges are told it.
  std::string dialect;
  statement_gate gate = statement_gate::sdk;
  /// `connection::check` prepares without executing (the `prepare` hook is implemented).
  bool checks_without_executing = false;
  /// `connection::describe_schema` gives the schema's DDL (the `schema_ddl` hook is implemented).
  bool describes_schema = false;
};

/// "sdk" or "engine".
std::string_view statement_gate_name(statement_gate g) noexcept;

/// A statement on its way to a hook: past the NUL-byte check and the gate.
struct statement_request {
  /// The statement. When the SDK's gate checked it, without trailing `;`, blanks and comments.
  std::string_view sql;
  const exec_limits& limits;
  /// When `execute` or `check` was called: deadlines count from here.
  std::chrono::steady_clock::time_point start;

  /// Seconds of the time limit still left (> 0), or 0 when there is no limit.
  double seconds_left() const noexcept;
};

/// How a hook ended. The SDK turns it into the `query_outcome`: a timeout's detail goes after the
/// uniform "exceeded the time limit of N s", an ok whose sink never got columns is refused as not
/// a query, a truncated result gets the sink's cap message.
struct run_status {
  query_status status = query_status::ok;
  /// The engine's message for error/backend_error/db_missing; for a timeout, how it was stopped
  /// ("interrupted by SQLite", "PostgreSQL's statement_timeout").
  std::string message;

  bool ok() const noexcept { return status == query_status::ok; }
  static run_status success() { return {}; }
  static run_status error(std::string message) { return {query_status::error, std::move(message)}; }
  static run_status timed_out(std::string how) { return {query_status::timeout, std::move(how)}; }
  static run_status backend_failure(std::string message) {
    return {query_status::backend_error, std::move(message)};
  }
  /// Stopped by `connection::cancel()`.
  static run_status cancelled() { return error("cancelled"); }
  /// The statement gives no rows (a command): refused.
  static run_status not_a_query() { return error("the statement returns no rows (not a query): refused"); }
};

/// One open connection to one database. Not thread-safe: a connection belongs to one worker,
/// except for `cancel()`, which may be called from any thread while `execute()` runs.
class connection {
 public:
  virtual ~connection() = default;

  /// Executes exactly one statement and fetches its rows under `limits`. Never throws: every
  /// failure is a status with the engine's own message. Leaves the database unchanged.
  query_outcome execute(std::string_view sql, const exec_limits& limits);

  /// Checks that `sql` is one statement that parses and binds against the database's schema
  /// (unknown tables and columns, syntax errors), **without executing it**: SQLite prepares it,
  /// PostgreSQL parses and analyses it (a prepared statement, never run). `ok` when it would run;
  /// `error` with the engine's message naming the first problem; `timeout`/`backend_error` as for
  /// execute. Never throws, never changes the database. A backend without
  /// `checks_without_executing` answers `backend_error` saying so.
  query_outcome check(std::string_view sql, const exec_limits& limits);

  /// The database's schema as DDL text (`CREATE TABLE ...;` statements, one per table or view,
  /// with primary and foreign keys where the engine reports them), for judges and prompts. `ok`
  /// with the text in `message`; `backend_error` when the backend cannot describe its schema.
  /// Never throws.
  query_outcome describe_schema(const exec_limits& limits);

  /// Interrupts the statement currently executing, if any (thread-safe, may be a no-op): the
  /// running hook then returns `run_status::cancelled()`.
  virtual void cancel() noexcept {}

 protected:
  /// Runs one statement and fetches its rows into `rows`, stopping when `rows.full()`. Enforces
  /// the time limit inside the engine (never by abandoning a thread).
  virtual run_status run(const statement_request& statement, row_sink& rows) = 0;
  /// Prepares the statement without executing it (see `check`). Only called when the backend
  /// declares `checks_without_executing`.
  virtual run_status prepare(const statement_request& statement);
  /// Puts the schema's DDL into `ddl` (see `describe_schema`). Only called when the backend
  /// declares `describes_schema`.
  virtual run_status schema_ddl(const exec_limits& limits, std::string& ddl);

 private:
  friend class backend;
  query_outcome through_gate_(std::string_view sql, const exec_limits& limits, bool prepare_only);

  backend_capabilities capabilities_;  // set by backend::connect
};

/// Outcome of opening a connection: a connection, or a status (db_missing, backend_error) and message.
struct connect_outcome {
  std::unique_ptr<sqlmorph::connection> conn;
  query_status status = query_status::ok;
  std::string message;
};

/// A database engine. One instance is created per configured backend and shared by all workers;
/// `connect` must be thread-safe. Each worker opens its own connections.
class backend {
 public:
  static constexpr const char* kind_name = "backend";
  using interface_type = backend;

  virtual ~backend() = default;

  virtual backend_capabilities capabilities() const = 0;

  /// Opens a connection to `target` (a file path, DSN or connection string, already expanded from
  /// the configured template) that follows the capabilities. Never throws.
  connect_outcome connect(std::string_view target) const;

 protected:
  /// Opens the connection (the hook behind `connect`): a connection, or db_missing/backend_error
  /// with a message. May throw; the SDK reports an exception as `backend_error`.
  virtual connect_outcome open(std::string_view target) const = 0;
};

}  // namespace sqlmorph
