#pragma once
// A SQLite database file opened directly (not through a backend): what the suite builder needs to
// read a schema, check that a query prepares, and write fuzzed rows.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace sqlmorph::core::suite {

/// A SQLite value: its storage class and contents.
struct sql_value {
  enum class kind : std::uint8_t { null, integer, real, text, blob };
  kind type = kind::null;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;  // text or blob bytes

  static sql_value of_int(std::int64_t v) { return {kind::integer, v, 0, {}}; }
  static sql_value of_real(double v) { return {kind::real, 0, v, {}}; }
  static sql_value of_text(std::string v) { return {kind::text, 0, 0, std::move(v)}; }
  /// A stable text form (for uniqueness keys and dumps): "i:12", "r:1.5", "t:abc", "b:..", "n".
  std::string key() const;
  bool operator==(const sql_value& o) const { return key() == o.key(); }
};

/// One open connection; closed when it goes away. Errors throw std::runtime_error naming the file.
class sqlite_database {
 public:
  enum class mode { read_only, create };
  sqlite_database(const std::filesystem::path& file, mode m);
  ~sqlite_database();
  sqlite_database(const sqlite_database&) = delete;
  sqlite_database& operator=(const sqlite_database&) = delete;

  /// Runs statements that return nothing; throws with SQLite's message.
  void exec(const std::string& sql);
  /// Every row of `sql` (no parameters).
  std::vector<std::vector<sql_value>> rows(const std::string& sql);
  /// Empty when `sql` prepares (every statement of it), else SQLite's message.
  std::string prepare_error(std::string_view sql);
  /// Runs one INSERT with `values` bound to ?1..?n; false when a constraint refuses the row.
  bool insert(const std::string& sql, const std::vector<sql_value>& values);

  const std::filesystem::path& file() const noexcept { return file_; }

 private:
  std::filesystem::path file_;
  sqlite3* db_ = nullptr;
};

/// A column of a table as SQLite declares it (PRAGMA table_info).
struct column_info {
  std::string name;
  std::string declared_type;
  bool not_null = false;
  /// Position in the primary key (1-based), 0 if not part of it.
  int pk = 0;
};

struct foreign_key_info {
  std::vector<std::string> from;  // columns of the child table
  std::string parent;             // the parent table
  std::vector<std::string> to;    // columns of the parent (empty: its primary key)
};

struct table_info {
  std::string name;
  std::string create_sql;
  std::vector<column_info> columns;
  std::vector<foreign_key_info> foreign_keys;
  /// Column sets that must be unique: the primary key and every UNIQUE index/constraint.
  std::vector<std::vector<std::string>> unique;
  /// INTEGER PRIMARY KEY: the rowid alias (never NULL).
  bool has_rowid_alias = false;
};

struct schema_info {
  std::vector<table_info> tables;  // in sqlite_master order
  /// CREATE INDEX / VIEW / TRIGGER statements, run after the tables.
  std::vector<std::string> other_sql;
};

/// Reads the schema of an open database (tables other than sqlite_*).
schema_info read_schema(sqlite_database& db);

/// The rows of every table of a database file as text, sorted within each table ("table\tkey\tkey..."
/// lines): equal dumps, equal contents, whatever the file's bytes.
std::string dump_database(const std::filesystem::path& file);

}  // namespace sqlmorph::core::suite
