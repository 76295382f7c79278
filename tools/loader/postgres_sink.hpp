#pragma once
// Writing into PostgreSQL for the loader: databases created with the C collation (so text sorts
// and compares byte-wise, as in SQLite), tables created and filled with COPY, a reading role.

#include <libpq-fe.h>

#include <cstdint>
#include <functional>
#include <string>

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
  /// The first column of the first row, or "" when none.
  std::string value(const std::string& sql);
  /// COPY ... FROM STDIN, the lines coming from `produce`, which calls its argument once per line.
  void copy_in(const std::string& copy_sql,
               const std::function<void(const std::function<void(const std::string&)>&)>& produce);

 private:
  PGconn* conn_ = nullptr;
};

/// A string literal for PostgreSQL.
std::string quote_literal(const std::string& s);

/// Creates database `name` (UTF8, C collation) through `admin`; an existing one is dropped first
/// when `replace`, else it is an error.
void create_database(postgres_sink& admin, const std::string& name, bool replace);

/// Creates `table` (no constraints: SQLite does not enforce them, and data may break them).
void create_table(postgres_sink& db, const table_plan& table);

/// Makes `role` a login role that may read every table of the database `db` is connected to, and
/// nothing else.
void grant_reader(postgres_sink& admin, postgres_sink& db, const std::string& database,
                  const std::string& role);

}  // namespace sqlmorph::load
