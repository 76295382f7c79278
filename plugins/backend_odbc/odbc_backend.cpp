#include "odbc_backend.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include <sqlmorph/plugin.hpp>

#include "odbc_connection.hpp"
#include "odbc_session.hpp"

namespace sqlmorph::odbc {
namespace {

// The SQLite ODBC driver loads unixODBC's libodbcinst for each DSN connection (to read odbc.ini)
// and unloads it again, losing (leaking) libodbcinst's copy of the file every time. Loaded once
// for good here, it keeps one copy. Harmless where the library does not exist (iODBC).
void keep_odbcinst_loaded() noexcept {
  static void* const library = ::dlopen("libodbcinst.so.2", RTLD_LAZY | RTLD_NODELETE);
  (void)library;
}

}  // namespace

odbc_backend::odbc_backend(const option_values& o) {
  keep_odbcinst_loaded();
  settings_.login_timeout = static_cast<int>(o.get_int_in("login_timeout", 0, 86400, "seconds"));
  settings_.dialect = o.get_string("dialect");
  settings_.cancel_grace = std::chrono::milliseconds(o.get_int_in("cancel_grace_ms", 0, 600000, "ms"));

  env_ = std::make_shared<environment>();
  env_->env = handle::allocate(SQL_HANDLE_ENV, SQL_NULL_HANDLE);
  if (!env_->env) throw std::runtime_error("cannot allocate an ODBC environment (is unixODBC installed?)");
  if (!SQL_SUCCEEDED(SQLSetEnvAttr(env_->env.get(), SQL_ATTR_ODBC_VERSION,
                                   reinterpret_cast<SQLPOINTER>(SQL_OV_ODBC3), 0))) {
    throw std::runtime_error("the ODBC driver manager refuses ODBC 3: " +
                             describe(read_diagnostics(env_->env), "no diagnostics"));
  }
  watchdog_ = std::make_shared<watchdog>();
}

backend_capabilities odbc_backend::capabilities() const {
  backend_capabilities c;
  if (!settings_.dialect.empty()) {
    c.dialect = settings_.dialect;
  } else {
    std::lock_guard lock(dialect_mutex_);
    c.dialect = learned_dialect_.empty() ? "odbc" : learned_dialect_;
  }
  c.gate = statement_gate::sdk;
  return c;
}

connect_outcome odbc_backend::open(std::string_view target) const {
  connect_outcome out;
  try {
    session s = open_session(*env_, target, settings_, out.status, out.message);
    if (!s.dbc) return out;
    if (settings_.dialect.empty() && !s.dbms.empty()) {
      std::lock_guard lock(dialect_mutex_);
      if (learned_dialect_.empty()) learned_dialect_ = s.dbms;
    }
    out.conn =
        std::make_unique<odbc_connection>(env_, std::move(s), watchdog_, settings_, std::string(target));
  } catch (const std::exception& e) {  // allocation failures: connect never throws
    out.conn.reset();
    out.status = query_status::backend_error;
    out.message = std::string("cannot connect: ") + e.what();
  }
  return out;
}

}  // namespace sqlmorph::odbc

namespace {
const sqlmorph_option_v1 odbc_options[] = {
    {"login_timeout", "int", "10",
     "seconds to wait for a connection (SQL_ATTR_LOGIN_TIMEOUT; 0: the driver's default)"},
    {"dialect", "string", "",
     "the SQL dialect capabilities() reports; empty: the DBMS name the driver reports "
     "(SQLGetInfo(SQL_DBMS_NAME), "
     "lower-cased: sqlite, postgresql) once a connection is open, \"odbc\" before"},
    {"cancel_grace_ms", "int", "250",
     "milliseconds after the time limit before the backend calls SQLCancel itself (the driver's query "
     "timeout, in "
     "whole seconds, gets the first chance)"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "backend_odbc", "1.0.0",
    sqlmorph::plugin::component<sqlmorph::odbc::odbc_backend>(
        "odbc", "1.0.0",
        "any ODBC data source through unixODBC: read-only access mode and session, every "
        "transaction rolled back, statement gate, query timeout with SQLCancel, row and byte caps",
        odbc_options))
