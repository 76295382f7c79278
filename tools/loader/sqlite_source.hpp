#pragma once
// Reading a SQLite database for loading elsewhere: its tables, a type per column chosen from the
// values actually stored (SQLite columns may hold any type) and from the declared type where the
// values allow it (dates and timestamps; every type of an empty column), and its rows as COPY lines.

#include <sqlite3.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "copy_text.hpp"

namespace sqlmorph::load {

struct load_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class column_type { bigint, double_precision, text, bytea, date, timestamp };
const char* type_name(column_type t) noexcept;

struct column_plan {
  std::string source_name;
  std::string target_name;
  std::string declared_type;
  column_type type = column_type::text;
  // Values seen, by SQLite storage class.
  std::size_t integers = 0, reals = 0, texts = 0, blobs = 0, nulls = 0;
  // Texts that are ISO dates (YYYY-MM-DD) and ISO timestamps (YYYY-MM-DD HH:MM:SS, a T for the
  // space, fractions of a second); whether a timestamp had a fraction.
  std::size_t date_texts = 0, timestamp_texts = 0;
  bool fractional_seconds = false;
  /// The longest value in bytes as the column's text (numbers and blobs as they would be written).
  std::size_t max_text_bytes = 0;
};

struct table_plan {
  std::string source_name;
  std::string target_name;
  std::vector<column_plan> columns;
  std::size_t rows = 0;
  /// The target names of the primary key's columns, in key order (empty: none declared).
  std::vector<std::string> primary_key;
};

/// The PostgreSQL name of a SQLite table or column: lower-cased when it is a plain identifier (so
/// unquoted references in any case find it, as in SQLite), else kept as it is.
std::string target_identifier(const std::string& name);

class sqlite_source {
 public:
  /// Opens `file` read-only (immutable: nothing is written next to it). Throws load_error.
  explicit sqlite_source(const std::filesystem::path& file);
  ~sqlite_source();
  sqlite_source(const sqlite_source&) = delete;
  sqlite_source& operator=(const sqlite_source&) = delete;

  /// Every table (views and SQLite's own tables aside), with a type per column. With
  /// `temporal_types`: declared DATE and every value an ISO date → date; declared DATETIME or
  /// TIMESTAMP and every value an ISO date or timestamp → timestamp (so an empty column takes its
  /// declared type too). Otherwise integers only → bigint; integers and reals → double precision; blobs only
  /// → bytea; anything with text → text; nothing but NULLs → bigint, double precision or text from the
  /// declared type (SQLite's affinity rules: INT; REAL, FLOA, DOUB; anything else).
  std::vector<table_plan> plan_tables(bool temporal_types = false);

  /// Calls `line` with each row of `table` as a COPY text line (with its newline). Numbers in text
  /// columns are written as SQLite writes them as text.
  void copy_rows(const table_plan& table, const std::function<void(const std::string&)>& line,
                 text_repairs& repairs);

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path file_;
};

}  // namespace sqlmorph::load
