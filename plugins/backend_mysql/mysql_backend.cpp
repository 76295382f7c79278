#include "mysql_backend.hpp"

#include <mutex>
#include <stdexcept>

#include <sqlmorph/plugin.hpp>

#include "mysql_connection.hpp"
#include "mysql_session.hpp"
#include "mysql_target.hpp"

namespace sqlmorph::mysql {

mysql_backend::mysql_backend(const option_values& o) {
  settings_.allow_privileged = o.get_bool("allow_privileged");
  settings_.connect_timeout = static_cast<int>(o.get_int_in("connect_timeout", 0, 86400, "seconds"));
  // The client library's global state, once, before any thread opens a session.
  static std::once_flag once;
  static int init_result = 0;
  std::call_once(once, [] { init_result = mysql_library_init(0, nullptr, nullptr); });
  if (init_result != 0) throw std::runtime_error("the MariaDB client library could not be initialized");
}

backend_capabilities mysql_backend::capabilities() const {
  backend_capabilities c;
  c.dialect = "mysql";
  c.gate = statement_gate::sdk;
  c.checks_without_executing = true;
  c.describes_schema = true;
  return c;
}

connect_outcome mysql_backend::open(std::string_view target) const {
  connect_outcome out;
  mysql_target t;
  try {
    t = parse_target(target);
  } catch (const std::invalid_argument& e) {
    out.status = query_status::backend_error;
    out.message = e.what();
    return out;
  }
  MYSQL* conn = open_session(t, settings_, out.status, out.message);
  if (conn == nullptr) return out;
  try {
    out.conn = std::make_unique<mysql_connection>(conn, std::move(t), settings_);
  } catch (const std::exception& e) {  // the watchdog thread could not start: connect never throws
    out.status = query_status::backend_error;
    out.message = std::string("cannot start the session's watchdog: ") + e.what();
  }
  return out;
}

}  // namespace sqlmorph::mysql

namespace {
const sqlmorph_option_v1 backend_options[] = {
    {"allow_privileged", "bool", "false",
     "connect even with an account that has a privilege besides SELECT, SHOW VIEW and USAGE (or a role): "
     "refused by default, since FILE reads and writes server files (SELECT ... INTO OUTFILE, LOAD_FILE), "
     "SUPER/CONNECTION ADMIN stop other sessions and writes change the data"},
    {"connect_timeout", "int", "10",
     "seconds to wait for a connection (0: no limit), unless the connection string sets connect_timeout"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY("backend_mysql", "1.0.0",
                        sqlmorph::plugin::component<sqlmorph::mysql::mysql_backend>(
                            "mysql", "1.0.0",
                            "MySQL and MariaDB through MariaDB Connector/C: read-only transactions always "
                            "rolled back, statement gate, SELECT-only account, server-enforced timeout with "
                            "KILL QUERY, row and byte caps",
                            backend_options))
