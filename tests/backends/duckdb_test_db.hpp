#pragma once
// DuckDB database files for the backend tests, written (read-write, the only place that writes
// one) through the backend's own loader of DuckDB's C API library.

#include <filesystem>
#include <string>

namespace sqlmorph::test {

/// The libduckdb.so the build copied beside the plugins (plugins/duckdb/libduckdb.so).
std::filesystem::path duckdb_library_path();

/// Creates the DuckDB database `file` and runs `sql` in it (several statements, `;`-separated).
/// Fails the test, with the library's message on how to get it, when the library is missing.
void create_duckdb(const std::filesystem::path& file, const std::string& sql);

}  // namespace sqlmorph::test
