#pragma once
// Where sqlmorph-load writes: one kind of engine. For each SQLite database the loader calls
// open_database, then load_table for each of its tables, then close_database; a database left
// unfinished by an error is abandoned. Each destination takes care of its own engine: creating the
// database, the column types, filling and counting the rows, the reading account, and making two
// loaders of one database take turns.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite_source.hpp"

namespace sqlmorph::load {

/// Calls its argument once per row of a table, with the row as a COPY text line.
using row_lines = std::function<void(const std::function<void(const std::string&)>&)>;

/// What the user asked for, as far as destinations are concerned.
struct destination_options {
  std::string target;          ///< the connection string or path after the `kind:` prefix, with {db_id}
  std::string admin_db;        ///< PostgreSQL: the database connected to for CREATE DATABASE
  std::string grant;           ///< a role or account to create and give read access, or ""
  std::string duckdb_library;  ///< DuckDB: the library to load, or "" for the default
  int worker_roles = 0;        ///< PostgreSQL: login roles ROLE_1..ROLE_N, members of `grant`
  bool replace = false;        ///< drop and load again databases that exist
  bool primary_keys = false;   ///< PostgreSQL: keep SQLite's primary keys
};

class destination {
 public:
  virtual ~destination() = default;
  /// Creates database `name` empty (an existing one is an error unless `replace`).
  virtual void open_database(const std::string& name) = 0;
  /// Creates `table` in the open database, fills it from `rows` and checks that it holds
  /// `table.rows` rows. Returns the engine's type name of each column, for the report.
  virtual std::vector<std::string> load_table(const table_plan& table, const row_lines& rows) = 0;
  /// Finishes the open database (grants, statistics) and releases it.
  virtual void close_database() = 0;
  /// After an error: releases what open_database took, leaving nothing a backend would read as
  /// complete where the destination can ensure it (DuckDB files); never throws.
  virtual void abandon_database() noexcept {}
};

/// The destination that `to` names: postgres:CONNINFO, mysql:CONNECTION or duckdb:PATH. Throws
/// load_error for another prefix, a target without {db_id}, or options the engine does not take.
std::unique_ptr<destination> make_destination(const std::string& to, destination_options options);

/// `text` with every {db_id} replaced by `db`.
std::string with_db(const std::string& text, const std::string& db);

/// The lock that loaders hold while they create, fill and grant database `name` on a server: two
/// loaders of one database run one after the other, as if started one after the other.
std::string database_lock(const std::string& name);

/// Throws load_error unless `loaded` (a count read back) is `table.rows`.
void check_row_count(const std::string& database, const table_plan& table, const std::string& loaded);

}  // namespace sqlmorph::load
