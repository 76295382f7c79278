#pragma once
// Writing into PostgreSQL for the loader: databases created with the C collation (so text sorts
// and compares byte-wise, as in SQLite), tables created and filled with COPY, a reading role.

#include <libpq-fe.h>

#include <cstdint>
#include <functional>
#include <string>

#include "destination.hpp"
#include "sqlite_source.hpp"

namespace sqlmorph::load {

class postgres_sink {
 public:
  /// Connects with a libpq connection string; throws load_error with libpq's message.
  explicit postgres_sink(const std::string& conninfo);
  ~postgres_sink();
  postgres_sink(const postgres_sink&) = delete;
  postgres_sink& operator=(const postgres_sink&) = delete;

  /// Runs SQL that returns no rows; throws load_error with the server's message.
  void exec(const std::string& sql);
  /// Runs SQL that creates something, taking "it already exists" (duplicate_object,
  /// duplicate_database, duplicate_schema, or the unique_violation of a catalog index when another
  /// session created it at the same moment) as success; other failures throw load_error.
  void exec_creating(const std::string& sql);
  /// The first column of the first row, or "" when none.
  std::string value(const std::string& sql);
  /// COPY ... FROM STDIN, the lines coming from `produce`, which calls its argument once per line.
  void copy_in(const std::string& copy_sql,
               const std::function<void(const std::function<void(const std::string&)>&)>& produce);

  /// Holds a session-level advisory lock named `name` until unlock() or the session ends, so that
  /// loaders that connect to the same admin database take turns (advisory locks are per database).
  void lock(const std::string& name);
  void unlock(const std::string& name);

 private:
  PGconn* conn_ = nullptr;
};

/// Creates database `name` (UTF8, C collation) through `admin`; an existing one is dropped first
/// when `replace`, else it is an error. The caller holds the database's lock (destination.hpp's
/// database_lock()).
void create_database(postgres_sink& admin, const std::string& name, bool replace);

/// Creates `table`, without constraints (SQLite does not enforce them, and data may break them) —
/// unless `primary_key`: then with its SQLite primary key (loading fails where the data break it).
void create_table(postgres_sink& db, const table_plan& table, bool primary_key = false);

/// Creates `role` (LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE) if it is missing, and `workers` login
/// roles ROLE_1 ... ROLE_N that are members of it (one per evaluation worker: sessions of one role
/// may cancel and terminate each other). Refuses a role that is a superuser. Safe when several
/// loaders do it at once.
void create_reader_roles(postgres_sink& admin, const std::string& role, int workers);

/// Gives `role` read access to every table of the database `db` is connected to, and nothing else.
void grant_reader(postgres_sink& admin, postgres_sink& db, const std::string& database,
                  const std::string& role);

}  // namespace sqlmorph::load
