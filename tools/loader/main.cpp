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
// DB_ID/DB_ID.sqlite), created with the C collation. Column types come from the values stored; names
// are lower-cased when they are plain identifiers. Row counts are checked after loading. Several
// loaders may run at once into one server: each database is loaded under an advisory lock, so two
// loaders of one database take turns, and roles another loader just created are taken as they are.

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "duckdb_sink.hpp"
#include "mysql_sink.hpp"
#include "postgres_sink.hpp"
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

std::string with_db(const std::string& conninfo, const std::string& db) {
  std::string out = conninfo;
  for (std::size_t p = out.find("{db_id}"); p != std::string::npos; p = out.find("{db_id}", p + db.size())) {
    out.replace(p, 7, db);
  }
  return out;
}

struct load_report {
  std::size_t rows = 0;
  text_repairs repairs;
  std::map<std::string, int> types;  // columns per PostgreSQL type
};

// Creates database `name` and copies `tables` of `source` into it, then grants and analyses it.
// The caller holds the database's lock; the connection to the new database is closed on return.
load_report load_database(postgres_sink& admin, const std::string& conninfo, const std::string& name,
                          sqlite_source& source, const std::vector<table_plan>& tables, const options& o) {
  load_report report;
  create_database(admin, name, o.replace);
  postgres_sink db(with_db(conninfo, name));
  for (const table_plan& t : tables) {
    create_table(db, t, o.primary_keys);
    std::string columns;
    for (const column_plan& c : t.columns) {
      columns += (columns.empty() ? "" : ", ") + quote_identifier(c.target_name);
      ++report.types[type_name(c.type)];
    }
    db.copy_in("COPY " + quote_identifier(t.target_name) + " (" + columns + ") FROM STDIN",
               [&](const std::function<void(const std::string&)>& put) {
                 source.copy_rows(t, put, report.repairs);
               });
    const std::string loaded = db.value("SELECT count(*) FROM " + quote_identifier(t.target_name));
    if (loaded != std::to_string(t.rows)) {
      throw load_error(name + "." + t.source_name + ": " + std::to_string(t.rows) + " rows read but " +
                       loaded + " loaded");
    }
    report.rows += t.rows;
  }
  if (!o.grant.empty()) grant_reader(admin, db, name, o.grant);
  db.exec("ANALYZE");
  return report;
}

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

// The MySQL account `user` or `user@host` (host `localhost` when not given) as 'user'@'host'.
std::string mysql_account(const std::string& grant) {
  const std::size_t at = grant.rfind('@');
  const std::string user = at == std::string::npos ? grant : grant.substr(0, at);
  const std::string host = at == std::string::npos ? "localhost" : grant.substr(at + 1);
  if (user.empty() || host.empty())
    throw load_error("--grant must be USER or USER@HOST, not '" + grant + "'");
  for (const char c : user + host) {
    if (c == '\'' || c == '\\')
      throw load_error("--grant: quotes and backslashes are not allowed in '" + grant + "'");
  }
  return "'" + user + "'@'" + host + "'";
}

// Loads every database of `todo` into the MySQL/MariaDB server of the target (which names the
// database as database={db_id}): each is created with utf8mb4 and its binary collation (byte-wise,
// as SQLite compares text), under a named lock so that two loaders of one database take turns.
int run_mysql(const options& o, const std::vector<std::pair<std::string, fs::path>>& todo) {
  if (o.worker_roles > 0) {
    throw load_error("--worker-roles is for PostgreSQL (the postgres backend's user_per_worker)");
  }
  if (o.primary_keys) {
    throw load_error("--primary-keys is for PostgreSQL (MySQL does not need keys to bind a GROUP BY)");
  }
  const std::string target = o.to.substr(6);
  if (target.find("{db_id}") == std::string::npos) {
    throw load_error(
        "the connection string must name the database as database={db_id} (each file gets its database)");
  }
  mysql_sink sink(with_db(target, "mysql"));
  const std::string account = o.grant.empty() ? std::string() : mysql_account(o.grant);
  if (!account.empty()) sink.exec("CREATE USER IF NOT EXISTS " + account);
  std::size_t total_rows = 0;
  for (const auto& [name, file] : todo) {
    sqlite_source source(file);
    const std::vector<table_plan> tables = source.plan_tables(o.temporal_types);
    const std::string db = mysql_identifier(name);
    const std::string lock = "'" + database_lock(name) + "'";
    if (sink.value("SELECT GET_LOCK(" + lock + ", 3600)") != "1") {
      throw load_error("could not take the lock of " + name + " within an hour");
    }
    const std::string exists =
        sink.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + name + "'");
    if (exists != "0" && !o.replace) {
      throw load_error("database " + name + " already exists (--replace drops it and loads it again)");
    }
    sink.exec("DROP DATABASE IF EXISTS " + db);
    sink.exec("CREATE DATABASE " + db + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    load_report report;
    for (const table_plan& t : tables) {
      std::string columns;
      const std::vector<std::string> types = mysql_column_types(t);
      for (std::size_t i = 0; i < t.columns.size(); ++i) {
        columns +=
            (columns.empty() ? "" : ", ") + mysql_identifier(t.columns[i].target_name) + " " + types[i];
        ++report.types[types[i].rfind("VARCHAR", 0) == 0 ? "VARCHAR" : types[i]];
      }
      const std::string table = db + "." + mysql_identifier(t.target_name);
      sink.exec("CREATE TABLE " + table + " (" + columns + ")");
      sink.load_lines(t, name, [&](const std::function<void(const std::string&)>& put) {
        source.copy_rows(t, put, report.repairs);
      });
      const std::string loaded = sink.value("SELECT COUNT(*) FROM " + table);
      if (loaded != std::to_string(t.rows)) {
        throw load_error(name + "." + t.source_name + ": " + std::to_string(t.rows) + " rows read but " +
                         loaded + " loaded");
      }
      sink.exec("ANALYZE TABLE " + table);
      report.rows += t.rows;
    }
    if (!account.empty()) sink.exec("GRANT SELECT ON " + db + ".* TO " + account);
    sink.exec("DO RELEASE_LOCK(" + lock + ")");
    total_rows += report.rows;
    print_report(o, name, tables.size(), report);
  }
  if (!o.quiet) std::printf("loaded %zu database(s), %zu rows\n", todo.size(), total_rows);
  return 0;
}

// The DuckDB library: --duckdb-library, else the one installed beside the plugins, else the one the
// build copied beside them, else libduckdb.so from the system's library path.
std::string duckdb_library(const options& o) {
  if (!o.duckdb_library.empty()) return o.duckdb_library;
  std::error_code ec;
  for (const char* candidate : {SQLMORPH_LOADER_INSTALLED_DUCKDB, SQLMORPH_LOADER_BUILT_DUCKDB}) {
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return "libduckdb.so";
}

// Writes every database of `todo` to its DuckDB file (the target names it as PATH with {db_id}).
// Each file is written under a temporary name and renamed into place when complete.
int run_duckdb(const options& o, const std::vector<std::pair<std::string, fs::path>>& todo) {
  if (!o.grant.empty() || o.worker_roles > 0) {
    throw load_error(
        "--grant and --worker-roles are for database servers: the duckdb backend opens files read-only");
  }
  if (o.primary_keys) throw load_error("--primary-keys is for PostgreSQL");
  const std::string target = o.to.substr(7);
  if (todo.size() > 1 && target.find("{db_id}") == std::string::npos) {
    throw load_error(
        "the path must contain {db_id} (each database gets its file), as in "
        "duckdb:DIR/{db_id}/{db_id}.duckdb");
  }
  const std::string library = duckdb_library(o);
  std::size_t total_rows = 0;
  for (const auto& [name, file] : todo) {
    const fs::path final_file = with_db(target, name);
    std::error_code ec;
    if (fs::exists(final_file, ec) && !o.replace) {
      throw load_error(final_file.string() + " already exists (--replace writes it again)");
    }
    if (final_file.has_parent_path()) fs::create_directories(final_file.parent_path(), ec);
    const fs::path partial = final_file.string() + ".loading-" + std::to_string(::getpid());
    const auto remove_partial = [&] {
      fs::remove(partial, ec);
      fs::remove(partial.string() + ".wal", ec);
    };
    remove_partial();
    sqlite_source source(file);
    const std::vector<table_plan> tables = source.plan_tables(o.temporal_types);
    load_report report;
    try {
      duckdb_sink sink(library, partial);
      for (const table_plan& t : tables) {
        for (const column_plan& c : t.columns) ++report.types[duckdb_type_name(c)];
        sink.load_table(t, [&](const std::function<void(const std::string&)>& put) {
          source.copy_rows(t, put, report.repairs);
        });
        report.rows += t.rows;
      }
      sink.close();
      fs::rename(partial, final_file, ec);
      if (ec)
        throw load_error("cannot move " + partial.string() + " to " + final_file.string() + ": " +
                         ec.message());
    } catch (...) {
      remove_partial();
      throw;
    }
    total_rows += report.rows;
    print_report(o, name, tables.size(), report);
  }
  if (!o.quiet) std::printf("loaded %zu database(s), %zu rows\n", todo.size(), total_rows);
  return 0;
}

int run(const options& o) {
  if (o.to.rfind("mysql:", 0) == 0) return run_mysql(o, sources(o));
  if (o.to.rfind("duckdb:", 0) == 0) return run_duckdb(o, sources(o));
  if (o.to.rfind("postgres:", 0) != 0) {
    throw load_error("--to must be postgres:CONNINFO, mysql:CONNECTION or duckdb:PATH, not '" + o.to + "'");
  }
  const std::string conninfo = o.to.substr(9);
  if (conninfo.find("{db_id}") == std::string::npos) {
    throw load_error(
        "the connection string must name the database as dbname={db_id} (each file gets its database)");
  }
  if (o.worker_roles > 0 && o.grant.empty()) throw load_error("--worker-roles needs --grant ROLE");
  const auto todo = sources(o);
  postgres_sink admin(with_db(conninfo, o.admin_db));
  if (!o.grant.empty()) create_reader_roles(admin, o.grant, o.worker_roles);
  std::size_t total_rows = 0;
  for (const auto& [name, file] : todo) {
    sqlite_source source(file);
    const std::vector<table_plan> tables = source.plan_tables(o.temporal_types);
    admin.lock(database_lock(name));  // released below, or when the session ends on an error
    const load_report report = load_database(admin, conninfo, name, source, tables, o);
    admin.unlock(database_lock(name));
    total_rows += report.rows;
    print_report(o, name, tables.size(), report);
  }
  if (!o.quiet) std::printf("loaded %zu database(s), %zu rows\n", todo.size(), total_rows);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "sqlmorph-load: copy SQLite databases into PostgreSQL (C collation), MySQL/MariaDB (utf8mb4_bin) or "
      "DuckDB files; each file becomes a database"};
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
