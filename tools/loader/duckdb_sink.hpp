#pragma once
// Writing DuckDB database files for the loader: each SQLite database becomes one DuckDB file,
// written under a temporary name and renamed into place once every table is loaded and counted, so
// a failed or interrupted load never leaves a partial database where the backend would open it.
// DuckDB is used through its C API library, loaded at run time as the duckdb backend loads it.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "destination.hpp"
#include "duckdb_library.hpp"

namespace sqlmorph::load {

class duckdb_sink {
 public:
  /// Creates `file` (which must not exist) with `library`. Throws load_error.
  duckdb_sink(std::shared_ptr<const duckdb_api::library> library, const std::filesystem::path& file);
  ~duckdb_sink();
  duckdb_sink(const duckdb_sink&) = delete;
  duckdb_sink& operator=(const duckdb_sink&) = delete;

  /// Runs SQL; throws load_error with DuckDB's message.
  void exec(const std::string& sql);
  /// Creates `table` (DuckDB types, the SQLite names kept as written: DuckDB matches names in any
  /// case, as SQLite does) and fills it from the COPY text lines of `produce`, in one transaction;
  /// fails unless it then holds `table.rows` rows.
  void load_table(const table_plan& table, const row_lines& produce);
  /// Writes everything to the file and closes it.
  void close();

 private:
  std::shared_ptr<const duckdb_api::library> lib_;
  duckdb_api::database db_ = nullptr;
  duckdb_api::connection conn_ = nullptr;
  std::filesystem::path file_;
};

/// DuckDB's column type for a planned column.
const char* duckdb_type_name(const column_plan& c) noexcept;

/// The fields of a COPY text line (its newline, if any, aside): unescaped, NULL (`\N`) as nullopt.
std::vector<std::optional<std::string>> copy_fields(std::string_view line);

}  // namespace sqlmorph::load
