#include "odbc_session.hpp"

#include <sys/stat.h>

#include <cctype>

#include "connection_string.hpp"

namespace sqlmorph::odbc {
namespace {

std::string info_string(SQLHDBC dbc, SQLUSMALLINT what) {
  SQLCHAR buffer[256] = {};
  SQLSMALLINT length = 0;
  if (!SQL_SUCCEEDED(SQLGetInfo(dbc, what, buffer, sizeof buffer, &length))) return "";
  return reinterpret_cast<const char*>(buffer);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Runs one statement of the session's setup, fetching and discarding its rows.
bool run_setup_statement(SQLHDBC dbc, std::string_view sql, std::string& error) {
  handle stmt = handle::allocate(SQL_HANDLE_STMT, dbc);
  if (!stmt) {
    error = describe(read_diagnostics(SQL_HANDLE_DBC, dbc), "cannot allocate a statement");
    return false;
  }
  SQLRETURN rc = SQLExecDirect(stmt.get(), reinterpret_cast<SQLCHAR*>(const_cast<char*>(sql.data())),
                               static_cast<SQLINTEGER>(sql.size()));
  if (rc != SQL_NO_DATA && !SQL_SUCCEEDED(rc)) {
    error = describe(read_diagnostics(stmt), "failed");
    return false;
  }
  SQLSMALLINT columns = 0;
  if (rc != SQL_NO_DATA && SQL_SUCCEEDED(SQLNumResultCols(stmt.get(), &columns)) && columns > 0) {
    while (SQL_SUCCEEDED(rc = SQLFetch(stmt.get()))) {
    }
    if (rc != SQL_NO_DATA) {
      error = describe(read_diagnostics(stmt), "fetching failed");
      return false;
    }
  }
  return true;
}

void fail(query_status& status, std::string& message, query_status s, std::string m) {
  status = s;
  message = std::move(m);
}

}  // namespace

void close_session(handle& dbc) noexcept {
  if (!dbc) return;
  SQLEndTran(SQL_HANDLE_DBC, dbc.get(), SQL_ROLLBACK);
  SQLDisconnect(dbc.get());
  dbc.reset();
}

session open_session(environment& env, std::string_view target, const odbc_settings& settings,
                     query_status& status, std::string& message) noexcept {
  session out;
  handle dbc;
  try {
    connection_string cs = connection_string::parse(target);
    std::string driver;
    {
      std::lock_guard lock(env.lookup_mutex);
      driver = driver_named_by(env.env.get(), cs);
    }
    const driver_profile& profile = profile_of(family_of_driver(driver));
    for (const forced_attribute& a : profile.forced_attributes) cs.set(a.key, a.value);
    for (const forced_attribute& a : profile.default_attributes) {
      if (!cs.get(a.key)) cs.set(a.key, a.value);
    }

    if (profile.family == driver_family::sqlite) {
      // NoCreat=1 already stops the driver from creating a missing file; checking first gives
      // db_missing with the path (a DSN's Database= is only known to the driver: see below).
      if (const auto file = cs.get("Database"); file && !file->empty()) {
        struct stat st {};
        if (::stat(file->c_str(), &st) != 0) {
          fail(status, message, query_status::db_missing, "database not found: " + *file);
          return out;
        }
        if (!S_ISREG(st.st_mode)) {
          fail(status, message, query_status::backend_error, "not a database file: " + *file);
          return out;
        }
      }
    }

    dbc = handle::allocate(SQL_HANDLE_DBC, env.env.get());
    if (!dbc) {
      fail(status, message, query_status::backend_error,
           "cannot allocate an ODBC connection: " + describe(read_diagnostics(env.env), "no diagnostics"));
      return out;
    }
    // Asked of every driver before connecting; the SQLite ODBC driver and psqlODBC ignore it, which
    // is what their session statements are for.
    SQLSetConnectAttr(dbc.get(), SQL_ATTR_ACCESS_MODE, reinterpret_cast<SQLPOINTER>(SQL_MODE_READ_ONLY), 0);
    if (settings.login_timeout > 0) {
      SQLSetConnectAttr(dbc.get(), SQL_ATTR_LOGIN_TIMEOUT,
                        reinterpret_cast<SQLPOINTER>(static_cast<SQLULEN>(settings.login_timeout)), 0);
    }

    const std::string connect_text = cs.str();
    const SQLRETURN rc = SQLDriverConnect(dbc.get(), nullptr,
                                          reinterpret_cast<SQLCHAR*>(const_cast<char*>(connect_text.c_str())),
                                          SQL_NTS, nullptr, 0, nullptr, SQL_DRIVER_NOPROMPT);
    if (!SQL_SUCCEEDED(rc)) {
      const std::vector<diagnostic> records = read_diagnostics(dbc);
      if (means_missing_database(profile.family, records)) {
        fail(status, message, query_status::db_missing, "database not found: " + describe(records, ""));
      } else {
        fail(status, message, query_status::backend_error,
             "cannot connect: " + describe(records, "no diagnostics"));
      }
      return out;
    }

    // The driver that actually answered decides how values are read and what makes the session
    // read-only; it must be the one the attributes were chosen for.
    const std::string driver_name = info_string(dbc.get(), SQL_DRIVER_NAME);
    const driver_family family = family_of_driver(driver_name);
    if (family != profile.family) {
      close_session(dbc);
      fail(status, message, query_status::backend_error,
           "the driver that answered (" + driver_name + ") is not the one the connection string names (" +
               (driver.empty() ? std::string("unknown") : driver) +
               "): name the driver by its odbcinst.ini entry or library path so its safety settings apply");
      return out;
    }
    for (const std::string_view sql : profile.session_statements) {
      std::string error;
      if (!run_setup_statement(dbc.get(), sql, error)) {
        close_session(dbc);
        fail(status, message, query_status::backend_error,
             "cannot prepare the read-only session of " + std::string(profile.label) + " (" +
                 std::string(sql) + "): " + error);
        return out;
      }
    }
    if (profile.rolled_back_transactions &&
        !SQL_SUCCEEDED(SQLSetConnectAttr(dbc.get(), SQL_ATTR_AUTOCOMMIT,
                                         reinterpret_cast<SQLPOINTER>(SQL_AUTOCOMMIT_OFF), 0))) {
      const std::string why = describe(read_diagnostics(dbc), "no diagnostics");
      close_session(dbc);
      fail(status, message, query_status::backend_error,
           "the driver cannot turn autocommit off, so queries could not be rolled back: " + why);
      return out;
    }
    out.dbms = lower(info_string(dbc.get(), SQL_DBMS_NAME));
    out.family = family;
    out.dbc = std::move(dbc);
    status = query_status::ok;
    message.clear();
  } catch (const std::exception& e) {  // allocation failures: connecting never throws
    close_session(dbc);
    close_session(out.dbc);
    fail(status, message, query_status::backend_error, std::string("cannot connect: ") + e.what());
  }
  return out;
}

}  // namespace sqlmorph::odbc
