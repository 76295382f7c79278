#pragma once
/// \file backend.hpp
/// The Backend interface: a database engine that executes one statement read-only, with limits.
///
/// A backend plugin fills in two operations (`connect`, `execute`) and declares its capabilities;
/// the core never special-cases an engine.

#include <memory>
#include <string>
#include <string_view>

#include "sqlmorph/query.hpp"

namespace sqlmorph {

/// What a backend guarantees. Shown by `sqlmorph plugins`; the runner relies on these.
struct backend_capabilities {
  /// SQL dialect of the engine ("sqlite", "postgresql", ...).
  std::string dialect;
  /// Writes, schema changes and access outside the database are refused by the backend itself.
  bool enforces_read_only = false;
  /// Timeouts are enforced inside the engine (the query is interrupted, its CPU freed).
  bool engine_timeout = false;
  /// `connection::cancel()` interrupts a running statement from another thread.
  bool cancellable = false;
  /// A statement holding several statements is refused rather than partially executed.
  bool single_statement = false;
};

/// One open connection to one database. Not thread-safe: a connection belongs to one worker,
/// except for `cancel()`, which may be called from any thread while `execute()` runs.
class connection {
 public:
  virtual ~connection() = default;

  /// Executes exactly one statement and fetches its rows under `limits`. Never throws: every
  /// failure is a status with the engine's own message. Must leave the database unchanged.
  virtual query_outcome execute(std::string_view sql, const exec_limits& limits) = 0;

  /// Interrupts the statement currently executing, if any (thread-safe, may be a no-op).
  virtual void cancel() noexcept {}

  /// Checks that `sql` is one statement that parses and binds against the database's schema
  /// (unknown tables and columns, syntax errors), **without executing it**: SQLite prepares it,
  /// PostgreSQL parses and analyses it (a prepared statement, never run). `ok` when it would run;
  /// `error` with the engine's message naming the first problem; `timeout`/`backend_error` as for
  /// execute. Never throws, never changes the database. A backend that cannot check without
  /// executing returns `backend_error` with a message saying so (the default).
  virtual query_outcome check(std::string_view sql, const exec_limits& limits);

  /// The database's schema as DDL text (`CREATE TABLE ...;` statements, one per table or view,
  /// with primary and foreign keys where the engine reports them), for judges and prompts. `ok`
  /// with the text in `message`; `backend_error` when the backend cannot describe its schema (the
  /// default). Never throws.
  virtual query_outcome describe_schema(const exec_limits& limits);
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
  /// the configured template). Never throws.
  virtual connect_outcome connect(std::string_view target) const = 0;
};

}  // namespace sqlmorph
