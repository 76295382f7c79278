// sqlmorph-load: copies SQLite databases into PostgreSQL, MySQL/MariaDB or DuckDB files, so one
// benchmark can be evaluated on several engines (see docs/backends.md).
//
//   sqlmorph-load --from sqlite:FILE            --to "postgres:host=... user=... dbname={db_id}"
//   sqlmorph-load --from sqlite-dir:DB_ROOT     --to "postgres:..." [--replace] [--grant sqlmorph_reader]
//                 [--worker-roles N]
//   sqlmorph-load --from sqlite-dir:DB_ROOT     --to "mysql:socket=... user=root database={db_id}"
//                 [--replace] [--grant sqlmorph_reader[@HOST]]
//   sqlmorph-load --from sqlite-dir:DB_ROOT     --to "duckdb:DIR/{db_id}/{db_id}.duckdb" [--replace]
//
// Each SQLite file becomes a database named after the file (Spider's and BIRD's layout: DB_ROOT/
// DB_ID/DB_ID.sqlite). Column types come from the values stored (sqlite_source.hpp); each engine's
// destination (destination.hpp: postgres_, mysql_, duckdb_destination.cpp) creates the database,
// fills it, checks its row counts, and makes two loaders of one database take turns.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "destination.hpp"
#include "sqlite_source.hpp"

namespace fs = std::filesystem;
using namespace sqlmorph::load;

namespace {

struct options {
  std::string from;
  std::string to;
  std::string database;
  std::string admin_db = "postgres";
  std::vector<std::string> only;
  std::string grant;
  std::string duckdb_library;
  int worker_roles = 0;
  bool replace = false;
  bool quiet = false;
  bool temporal_types = false;
  bool primary_keys = false;
};

// The databases to load: (name, file).
std::vector<std::pair<std::string, fs::path>> sources(const options& o) {
  std::vector<std::pair<std::string, fs::path>> out;
  if (o.from.rfind("sqlite:", 0) == 0) {
    const fs::path file = o.from.substr(7);
    out.emplace_back(o.database.empty() ? file.stem().string() : o.database, file);
  } else if (o.from.rfind("sqlite-dir:", 0) == 0) {
    const fs::path root = o.from.substr(11);
    std::error_code ec;
    if (!fs::is_directory(root, ec)) throw load_error(root.string() + " is not a folder");
    for (const auto& entry : fs::directory_iterator(root)) {
      const std::string name = entry.path().filename().string();
      const fs::path file = entry.path() / (name + ".sqlite");
      if (entry.is_directory() && fs::is_regular_file(file, ec)) out.emplace_back(name, file);
    }
    std::sort(out.begin(), out.end());
    if (!o.database.empty())
      throw load_error(
          "--database names one database; with sqlite-dir: databases are named after their files");
  } else {
    throw load_error("--from must be sqlite:FILE or sqlite-dir:DB_ROOT, not '" + o.from + "'");
  }
  if (!o.only.empty()) {
    const std::set<std::string> wanted(o.only.begin(), o.only.end());
    std::erase_if(out, [&](const auto& s) { return wanted.count(s.first) == 0; });
  }
  if (out.empty()) throw load_error("no SQLite database found in " + o.from);
  return out;
}

struct load_report {
  std::size_t rows = 0;
  text_repairs repairs;
  std::map<std::string, int> types;  // columns per type of the destination
};

void print_report(const options& o, const std::string& name, std::size_t tables, const load_report& report) {
  if (o.quiet) return;
  std::string type_text;
  for (const auto& [type, n] : report.types)
    type_text += (type_text.empty() ? "" : ", ") + std::to_string(n) + " " + type;
  std::printf("%s: %zu tables, %zu rows (columns: %s)", name.c_str(), tables, report.rows, type_text.c_str());
  if (report.repairs.invalid_utf8 > 0)
    std::printf("; %zu values had invalid UTF-8, replaced by U+FFFD", report.repairs.invalid_utf8);
  if (report.repairs.nul_bytes > 0)
    std::printf("; %zu values had NUL bytes, dropped", report.repairs.nul_bytes);
  std::printf("\n");
}

int run(const options& o) {
  const std::unique_ptr<destination> to = make_destination(o.to, {.target = {},
                                                                  .admin_db = o.admin_db,
                                                                  .grant = o.grant,
                                                                  .duckdb_library = o.duckdb_library,
                                                                  .worker_roles = o.worker_roles,
                                                                  .replace = o.replace,
                                                                  .primary_keys = o.primary_keys});
  const auto todo = sources(o);
  std::size_t total_rows = 0;
  for (const auto& [name, file] : todo) {
    sqlite_source source(file);
    const std::vector<table_plan> tables = source.plan_tables(o.temporal_types);
    load_report report;
    to->open_database(name);
    try {
      for (const table_plan& t : tables) {
        const std::vector<std::string> types =
            to->load_table(t, [&](const std::function<void(const std::string&)>& put) {
              source.copy_rows(t, put, report.repairs);
            });
        for (const std::string& type : types) ++report.types[type];
        report.rows += t.rows;
      }
      to->close_database();
    } catch (...) {
      to->abandon_database();
      throw;
    }
    total_rows += report.rows;
    print_report(o, name, tables.size(), report);
  }
  if (!o.quiet) std::printf("loaded %zu database(s), %zu rows\n", todo.size(), total_rows);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "sqlmorph-load: copy SQLite databases into PostgreSQL (C collation), MySQL/MariaDB (utf8mb4, binary, "
      "NO PAD where the server has it) or DuckDB files; each file becomes a database"};
  options o;
  app.add_option("--from", o.from, "sqlite:FILE, or sqlite-dir:DB_ROOT for every DB_ROOT/DB_ID/DB_ID.sqlite")
      ->required();
  app.add_option(
         "--to", o.to,
         "postgres:CONNINFO, a libpq connection string with dbname={db_id}; or mysql:CONNECTION, the mysql "
         "backend's connection string with database={db_id} (an account that may create databases); or "
         "duckdb:PATH, the file to write, with {db_id} in it (e.g. duckdb:DIR/{db_id}/{db_id}.duckdb)")
      ->required();
  app.add_option("--duckdb-library", o.duckdb_library,
                 "DuckDB's C API library for duckdb: targets (default: the one beside the plugins, as the "
                 "duckdb backend finds it, else libduckdb.so from the system's library path)");
  app.add_option("--database", o.database,
                 "with sqlite:FILE, the database's name (default: the file's name)");
  app.add_option("--only", o.only, "load only these databases (DB_ID,...)")->delimiter(',');
  app.add_option("--admin-db", o.admin_db, "the database connected to for CREATE DATABASE")
      ->capture_default_str();
  app.add_option(
      "--grant", o.grant,
      "a role (PostgreSQL) or account USER[@HOST] (MySQL; host localhost by default) to create if missing "
      "and give read access (never a superuser)");
  app.add_option("--worker-roles", o.worker_roles,
                 "also create login roles ROLE_1..ROLE_N, members of the --grant role: one per evaluation "
                 "worker (the postgres backend's user_per_worker), so that no query can stop another "
                 "worker's session")
      ->check(CLI::Range(0, 1000));
  app.add_flag("--replace", o.replace, "drop and load again databases that exist");
  app.add_flag(
      "--temporal-types", o.temporal_types,
      "columns declared DATE, DATETIME or TIMESTAMP become date and timestamp columns when every value "
      "is an ISO date or timestamp (SQL written for PostgreSQL or MySQL, such as BIRD's, compares them as "
      "dates); without it they are text, as SQLite stores them");
  app.add_flag(
      "--primary-keys", o.primary_keys,
      "PostgreSQL: keep each table's SQLite primary key as a PRIMARY KEY, so that SQL grouping by a key "
      "and selecting columns that depend on it binds, as PostgreSQL allows (loading fails where the "
      "data break the key)");
  app.add_flag("-q,--quiet", o.quiet, "print nothing but errors");
  CLI11_PARSE(app, argc, argv);
  try {
    return run(o);
  } catch (const load_error& e) {
    std::fprintf(stderr, "sqlmorph-load: %s\n", e.what());
    return 1;
  }
}
