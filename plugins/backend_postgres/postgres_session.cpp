#include "postgres_session.hpp"

#include <cstring>
#include <vector>

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::postgres {
namespace {

// Session settings, sent as startup options rather than SET commands: they then outrank per-role
// and per-database defaults, and they are what RESET goes back to. DateStyle and IntervalStyle fix
// the text of temporal values; extra_float_digits makes float output round-trip; bytea_output is
// the format we decode; default_transaction_read_only backs up the READ ONLY of every transaction.
constexpr const char* session_options =
    "-c DateStyle=ISO,YMD -c IntervalStyle=iso_8601 -c extra_float_digits=3 -c bytea_output=hex "
    "-c default_transaction_read_only=on";

// Roles that reach the server's files or programs (PostgreSQL 11 and later), or that may signal
// every other role's sessions.
constexpr const char* role_check_sql =
    "SELECT r.rolname, r.rolsuper, r.rolname = session_user FROM pg_roles r "
    "WHERE pg_has_role(session_user, r.oid, 'MEMBER') AND (r.rolsuper OR r.rolname IN "
    "('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program', 'pg_signal_backend')) "
    "ORDER BY 1";

// The server's "database ... does not exist" (SQLSTATE 3D000, which libpq does not expose for a
// failed connection, so the message is matched: the server sends it before choosing a language).
bool is_missing_database(std::string_view message) {
  const std::size_t at = message.find("database \"");
  return at != std::string_view::npos && message.find("\" does not exist", at) != std::string_view::npos;
}

void log_notice(void*, const char* message) {
  plugin::log(plugin::log_level::debug, std::string("postgres: ") + one_line(message ? message : ""));
}

}  // namespace

std::string one_line(std::string_view message) {
  std::string out;
  bool space = false;
  for (const char c : message) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string check_role(PGconn* conn, const postgres_settings& settings) {
  if (settings.allow_superuser) return {};
  const std::string user = PQuser(conn) ? PQuser(conn) : "";
  PGresult* r = PQexec(conn, role_check_sql);
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    const std::string message = one_line(PQresultErrorMessage(r));
    PQclear(r);
    return "cannot check whether PostgreSQL role '" + user + "' is a superuser: " + message;
  }
  bool superuser = false;
  bool reaches_server = false;  // its files or programs
  std::string roles;
  for (int i = 0; i < PQntuples(r); ++i) {
    const bool super = std::strcmp(PQgetvalue(r, i, 1), "t") == 0;
    const std::string name = PQgetvalue(r, i, 0);
    reaches_server = reaches_server || name != "pg_signal_backend";
    if (std::strcmp(PQgetvalue(r, i, 2), "t") == 0) {
      superuser = superuser || super;
    } else {
      roles += (roles.empty() ? "'" : ", '") + name + (super ? "' (a superuser)" : "'");
    }
  }
  PQclear(r);
  if (!superuser && roles.empty()) return {};
  const std::string why = superuser ? "it is a superuser" : "it is a member of " + roles;
  const std::string risk = reaches_server
                               ? "run programs on the server (COPY ... TO PROGRAM) or read its files"
                               : "cancel or terminate the sessions of every other role "
                                 "(pg_terminate_backend), other workers' and programs' alike";
  return "refusing to evaluate untrusted SQL as PostgreSQL role '" + user + "': " + why +
         ", so a query could " + risk +
         ". Connect as a role that can only read (see plugins/backend_postgres/README.md), or set "
         "allow_superuser = true";
}

PGconn* open_session(std::string_view target, const postgres_settings& settings, const std::string& user,
                     query_status& status, std::string& message) {
  status = query_status::backend_error;
  if (target.find('\0') != std::string_view::npos) {
    message = "invalid PostgreSQL connection string: it contains a NUL byte";
    return nullptr;
  }
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(std::string(target).c_str(), &parse_error);
  if (parsed == nullptr) {
    message =
        "invalid PostgreSQL connection string: " + one_line(parse_error ? parse_error : "out of memory");
    PQfreemem(parse_error);
    return nullptr;
  }
  // The target's own settings, then ours: client_encoding is forced, options are appended to the
  // target's, connect_timeout and application_name only fill in what the target leaves unset.
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::string options;
  bool has_timeout = false;
  for (const PQconninfoOption* o = parsed; o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    const std::string_view key = o->keyword;
    if (key == "client_encoding" || (key == "user" && !user.empty())) continue;
    if (key == "options") {
      options = o->val;
      continue;
    }
    if (key == "connect_timeout") has_timeout = true;
    keys.emplace_back(key);
    values.emplace_back(o->val);
  }
  PQconninfoFree(parsed);
  keys.emplace_back("client_encoding");
  values.emplace_back("UTF8");
  if (!user.empty()) {
    keys.emplace_back("user");
    values.emplace_back(user);
  }
  keys.emplace_back("options");
  values.emplace_back(options.empty() ? std::string(session_options) : options + " " + session_options);
  if (!has_timeout && settings.connect_timeout > 0) {
    keys.emplace_back("connect_timeout");
    values.emplace_back(std::to_string(settings.connect_timeout));
  }
  if (!settings.application_name.empty()) {
    keys.emplace_back("fallback_application_name");
    values.emplace_back(settings.application_name);
  }
  std::vector<const char*> key_ptrs;
  std::vector<const char*> value_ptrs;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    key_ptrs.push_back(keys[i].c_str());
    value_ptrs.push_back(values[i].c_str());
  }
  key_ptrs.push_back(nullptr);
  value_ptrs.push_back(nullptr);

  PGconn* conn = PQconnectdbParams(key_ptrs.data(), value_ptrs.data(), 0);
  if (conn == nullptr) {
    message = "cannot connect to PostgreSQL: out of memory";
    return nullptr;
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    message = one_line(PQerrorMessage(conn));
    if (is_missing_database(message)) status = query_status::db_missing;
    PQfinish(conn);
    return nullptr;
  }
  PQsetNoticeProcessor(conn, &log_notice, nullptr);
  std::string refusal = check_role(conn, settings);
  if (!refusal.empty()) {
    message = std::move(refusal);
    PQfinish(conn);
    return nullptr;
  }
  status = query_status::ok;
  return conn;
}

}  // namespace sqlmorph::postgres
