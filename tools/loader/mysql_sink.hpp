#pragma once
// Writing into MySQL/MariaDB for the loader: databases created with a binary collation (text sorts
// and compares byte-wise, as in SQLite), tables created and filled with LOAD DATA LOCAL from the
// same tab-separated lines as PostgreSQL's COPY, and an account that may only read them.

#include <mysql.h>

#include <functional>
#include <string>
#include <vector>

#include "sqlite_source.hpp"

namespace sqlmorph::load {

class mysql_sink {
 public:
  /// Connects with the backend's connection string (`socket=... user=... database=...`; the
  /// database is only connected to when given). Throws load_error with the client's message.
  explicit mysql_sink(const std::string& target);
  ~mysql_sink();
  mysql_sink(const mysql_sink&) = delete;
  mysql_sink& operator=(const mysql_sink&) = delete;

  /// Runs SQL that returns no rows (or rows to ignore); throws load_error with the server's message.
  void exec(const std::string& sql);
  /// The first column of the first row, or "" when none or NULL.
  std::string value(const std::string& sql);
  /// LOAD DATA LOCAL INFILE into `table`, the lines (COPY text format) coming from `produce`; bytea
  /// columns are decoded from their `\x` hex form.
  void load_lines(const table_plan& table, const std::string& database,
                  const std::function<void(const std::function<void(const std::string&)>&)>& produce);

 private:
  MYSQL* conn_ = nullptr;
};

/// `name` as a MySQL identifier (backquoted).
std::string mysql_identifier(const std::string& name);

/// MySQL's column types for the columns of `table`: DATETIME(6) for timestamps with fractions of a
/// second; text as VARCHAR(n), n its longest value in bytes (255 for a column without values), when
/// that is at most 512 and the row stays within MySQL's 65,535-byte limit, else LONGTEXT. (MariaDB
/// handles BLOB types, LONGTEXT among them, in temporary tables on disk and never materializes a
/// subquery over them: `x NOT IN (SELECT name ...)` on Spider's world_1 takes 33 s as LONGTEXT and
/// 0.1 s as VARCHAR.)
std::vector<std::string> mysql_column_types(const table_plan& table);

}  // namespace sqlmorph::load
