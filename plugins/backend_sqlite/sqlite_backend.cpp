#include "sqlite_backend.hpp"

#include <limits>

#include <sqlmorph/plugin.hpp>

#include "sqlite_connection.hpp"

namespace sqlmorph::sqlite {

sqlite_backend::sqlite_backend(const option_values& o) {
  settings_.immutable = o.get_bool("immutable");
  settings_.progress_interval =
      static_cast<int>(o.get_int_in("progress_interval", 1, std::numeric_limits<int>::max()));
  settings_.busy_timeout_ms = static_cast<int>(o.get_int("busy_timeout_ms"));
  settings_.max_value_bytes = o.get_int_in("max_value_mb", 1, 900, "MB") << 20;
  const std::int64_t heap_mb = o.get_int("heap_limit_mb");
  if (heap_mb != 0 && (heap_mb < 16 || heap_mb > (1 << 20))) {
    throw std::invalid_argument("heap_limit_mb must be 0 (no limit) or between 16 and 1048576");
  }
  settings_.heap_limit_bytes = heap_mb << 20;
  if (sqlite3_threadsafe() == 0) throw std::runtime_error("the SQLite library is not thread-safe");
}

backend_capabilities sqlite_backend::capabilities() const {
  backend_capabilities c;
  c.dialect = "sqlite";
  c.gate = statement_gate::engine;
  c.checks_without_executing = true;
  c.describes_schema = true;
  return c;
}

connect_outcome sqlite_backend::open(std::string_view target) const {
  connect_outcome out;
  sqlite3* db = open_read_only(std::string(target), settings_, out.status, out.message);
  if (db != nullptr) out.conn = std::make_unique<sqlite_connection>(db, settings_);
  return out;
}

}  // namespace sqlmorph::sqlite

namespace {
const sqlmorph_option_v1 sqlite_options[] = {
    {"immutable", "bool", "false",
     "open files with SQLite's immutable=1: no locking or journal checks, for databases nobody writes"},
    {"progress_interval", "int", "1000", "SQLite VM instructions between two checks of the time limit"},
    {"busy_timeout_ms", "int", "5000", "how long to wait for a lock held by another process"},
    {"max_value_mb", "int", "32",
     "the longest string or blob (or table row) a query may make or read, in MiB (SQLITE_LIMIT_LENGTH, per "
     "connection, 1 to 900); longer is an error"},
    {"heap_limit_mb", "int", "256",
     "SQLite's heap per worker, in MiB (0: no limit; else at least 16): each worker's own where sqlmorph "
     "counts SQLite's memory per thread (it does when it sets SQLite up before anything else starts it), "
     "else SQLite's process-wide hard heap limit, set to this times the number of workers holding SQLite "
     "connections; a query that reaches it fails with 'out of memory'"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "backend_sqlite", "1.0.0",
    sqlmorph::plugin::component<sqlmorph::sqlite::sqlite_backend>(
        "sqlite", "1.0.0",
        "SQLite database files, read-only: authorizer, engine-enforced timeout, row and byte caps",
        sqlite_options))
