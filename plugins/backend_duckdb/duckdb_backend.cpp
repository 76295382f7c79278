#include "duckdb_backend.hpp"

#include <sys/stat.h>

#include <stdexcept>

#include <sqlmorph/plugin.hpp>

#include "duckdb_connection.hpp"

namespace sqlmorph::duckdb_backend {

std::vector<std::pair<std::string, std::string>> read_only_config(const duckdb_settings& s) {
  std::vector<std::pair<std::string, std::string>> c = {
      // The file is opened read-only: no statement can write it (nor a WAL beside it).
      {"access_mode", "READ_ONLY"},
      // No extension is downloaded or loaded behind a query's back.
      {"autoinstall_known_extensions", "false"},
      {"autoload_known_extensions", "false"},
      {"allow_community_extensions", "false"},
      {"threads", std::to_string(s.threads)},
      // Nothing is spilled to disk: a query that needs more than memory_limit fails.
      {"max_temp_directory_size", "0B"},
  };
  if (!s.memory_limit.empty()) c.emplace_back("memory_limit", s.memory_limit);
  return c;
}

std::string read_only_session_sql() {
  // The temporary folder (by default a folder beside the database, which DuckDB creates before it
  // finds it may not write there) is switched off; the configuration API takes no empty value, and
  // once external access is off the folder cannot be changed, hence SET, in this order. Then no
  // file or network access beyond the database: read_csv, COPY, ATTACH, INSTALL, LOAD, replacement
  // scans of file names are refused. Last, the configuration is locked: no SET, PRAGMA or RESET
  // can change any of it.
  return "SET temp_directory = ''; SET enable_external_access = false; SET lock_configuration = true;";
}

duckdb_backend::duckdb_backend(const option_values& o) {
  settings_.threads = o.get_int_in("threads", 1, 1024);
  settings_.memory_limit = o.get_string("memory_limit");
  std::string path = o.get_string("library");
  if (path.empty()) path = duckdb_api::default_library_path();
  library_ = duckdb_api::library::load(path);
}

backend_capabilities duckdb_backend::capabilities() const {
  backend_capabilities c;
  c.dialect = "duckdb";
  c.gate = statement_gate::sdk;
  c.checks_without_executing = true;
  c.describes_schema = true;
  return c;
}

connect_outcome duckdb_backend::open(std::string_view target) const {
  connect_outcome out;
  const std::string path(target);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // Never created: DuckDB would make a new, empty database.
    out.status = query_status::db_missing;
    out.message = "database not found: " + path;
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.status = query_status::backend_error;
    out.message = "not a database file: " + path;
    return out;
  }
  const duckdb_api::functions& f = library_->api();
  duckdb_api::config cfg = nullptr;
  if (f.create_config(&cfg) != duckdb_api::state::success) {
    out.status = query_status::backend_error;
    out.message = "DuckDB could not create a configuration";
    return out;
  }
  struct config_guard {
    const duckdb_api::functions& f;
    duckdb_api::config& c;
    ~config_guard() { f.destroy_config(&c); }
  } cfg_guard{f, cfg};
  for (const auto& [name, value] : read_only_config(settings_)) {
    if (f.set_config(cfg, name.c_str(), value.c_str()) != duckdb_api::state::success) {
      out.status = query_status::backend_error;
      out.message = "DuckDB " + library_->version() + " refused the setting " + name + " = '" + value + "'";
      return out;
    }
  }
  duckdb_api::database db = nullptr;
  char* error = nullptr;
  if (f.open_ext(path.c_str(), &db, cfg, &error) != duckdb_api::state::success) {
    out.status = query_status::backend_error;
    out.message = "cannot open " + path + ": " + (error != nullptr ? error : "DuckDB could not open it");
    if (error != nullptr) f.free(error);
    if (db != nullptr) f.close(&db);
    return out;
  }
  duckdb_api::connection conn = nullptr;
  if (f.connect(db, &conn) != duckdb_api::state::success) {
    f.close(&db);
    out.status = query_status::backend_error;
    out.message = "cannot connect to " + path;
    return out;
  }
  duckdb_api::query_result res{};
  const bool locked = f.query(conn, read_only_session_sql().c_str(), &res) == duckdb_api::state::success;
  if (!locked) {
    const char* error_text = f.result_error(&res);
    out.status = query_status::backend_error;
    out.message = "DuckDB " + library_->version() + " refused the read-only settings (" +
                  read_only_session_sql() + "): " + (error_text != nullptr ? error_text : "?");
  }
  f.destroy_result(&res);
  if (!locked) {
    f.disconnect(&conn);
    f.close(&db);
    return out;
  }
  out.conn = std::make_unique<duckdb_connection>(library_, db, conn);
  return out;
}

}  // namespace sqlmorph::duckdb_backend

namespace {
const sqlmorph_option_v1 duckdb_options[] = {
    {"library", "string", "",
     "path of DuckDB's C API library (libduckdb.so, DuckDB 1.1 or later); empty: duckdb/libduckdb.so in the "
     "plugin's folder (where the build puts the one `make deps` fetches), else libduckdb.so from the "
     "system's "
     "library path"},
    {"threads", "int", "1",
     "DuckDB's threads per connection (each connection is its own database instance, and workers run in "
     "parallel)"},
    {"memory_limit", "string", "1GB",
     "DuckDB's memory_limit per connection (e.g. 512MB, 4GB; empty: DuckDB's default, 80% of the RAM); a "
     "query that needs more fails with DuckDB's out-of-memory error (nothing is spilled to disk: the "
     "database is read-only)"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "backend_duckdb", "1.0.0",
    sqlmorph::plugin::component<sqlmorph::duckdb_backend::duckdb_backend>(
        "duckdb", "1.0.0",
        "DuckDB database files through DuckDB's C API library (loaded at run time), "
        "read-only: read-only access mode, no external access or extensions, locked "
        "configuration, statement gate, watchdog interrupt at the time limit, row and byte "
        "caps",
        duckdb_options))
