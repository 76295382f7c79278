#include "mysql_session.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

#include <algorithm>
#include <cctype>

namespace sqlmorph::mysql {
namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The privileges of one `GRANT ... ON ... TO ...` line, or {"ROLE"} for a role grant (no ON).
std::vector<std::string> granted_privileges(const std::string& grant) {
  const std::string u = upper(grant);
  if (u.rfind("GRANT ", 0) != 0) return {};
  const std::size_t on = u.find(" ON ");
  if (on == std::string::npos) return {"ROLE"};
  std::vector<std::string> out;
  std::string current;
  int depth = 0;  // column lists: SELECT (a, b)
  for (std::size_t i = 6; i < on; ++i) {
    const char c = u[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trimmed(current));
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(trimmed(current));
  for (std::string& p : out) p = trimmed(p.substr(0, p.find('(')));
  return out;
}

}  // namespace

bool is_session_failure(unsigned error) {
  return error == CR_SERVER_GONE_ERROR || error == CR_SERVER_LOST || error == CR_CONNECTION_ERROR ||
         error == CR_COMMANDS_OUT_OF_SYNC || error == ER_CONNECTION_KILLED || error == ER_SERVER_SHUTDOWN;
}

bool is_mariadb(MYSQL* conn) {
  const char* info = mysql_get_server_info(conn);
  return info != nullptr && std::string_view(info).find("MariaDB") != std::string_view::npos;
}

bool query_text_rows(MYSQL* conn, const std::string& sql, std::vector<std::vector<std::string>>& rows,
                     std::string& message) {
  rows.clear();
  if (mysql_real_query(conn, sql.data(), sql.size()) != 0) {
    message = mysql_error(conn);
    return false;
  }
  MYSQL_RES* res = mysql_store_result(conn);
  if (res == nullptr) {
    if (mysql_field_count(conn) == 0) return true;
    message = mysql_error(conn);
    return false;
  }
  const unsigned columns = mysql_num_fields(res);
  while (MYSQL_ROW row = mysql_fetch_row(res)) {
    const unsigned long* lengths = mysql_fetch_lengths(res);
    rows.emplace_back();
    for (unsigned c = 0; c < columns; ++c) {
      rows.back().emplace_back(row[c] == nullptr ? std::string() : std::string(row[c], lengths[c]));
    }
  }
  mysql_free_result(res);
  return true;
}

MYSQL* open_session(const mysql_target& target, const mysql_settings& settings, query_status& status,
                    std::string& message) {
  MYSQL* conn = mysql_init(nullptr);
  if (conn == nullptr) {
    status = query_status::backend_error;
    message = "cannot connect to MySQL/MariaDB: out of memory";
    return nullptr;
  }
  const unsigned timeout =
      static_cast<unsigned>(target.connect_timeout >= 0 ? target.connect_timeout : settings.connect_timeout);
  if (timeout > 0) mysql_optionsv(conn, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_optionsv(conn, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  // LOAD DATA LOCAL would let the server read the client's files: off.
  const unsigned no = 0;
  mysql_optionsv(conn, MYSQL_OPT_LOCAL_INFILE, &no);
  const char* host = target.host.empty() ? nullptr : target.host.c_str();
  const char* socket = target.socket.empty() ? nullptr : target.socket.c_str();
  // No CLIENT_MULTI_STATEMENTS: the server itself refuses "a; b".
  if (mysql_real_connect(conn, host, target.user.empty() ? nullptr : target.user.c_str(),
                         target.password.empty() ? nullptr : target.password.c_str(), target.database.c_str(),
                         target.port, socket, 0) == nullptr) {
    const unsigned error = mysql_errno(conn);
    // An account without rights on a database is told "access denied" whether it exists or not.
    const bool missing = error == ER_BAD_DB_ERROR || error == ER_DBACCESS_DENIED_ERROR;
    status = missing ? query_status::db_missing : query_status::backend_error;
    message = mysql_error(conn);
    if (error == ER_DBACCESS_DENIED_ERROR)
      message += " (the database does not exist or this account may not read it)";
    mysql_close(conn);
    return nullptr;
  }
  std::string refusal = check_account(conn, settings);
  std::vector<std::vector<std::string>> ignored;
  // UTC for TIMESTAMP values; an endless recursive CTE runs until the time limit, as on the other
  // engines, instead of stopping silently after 1000 iterations (MariaDB) or failing (MySQL).
  const std::string session_setup =
      is_mariadb(conn) ? "SET SESSION time_zone = '+00:00', max_recursive_iterations = 4294967295"
                       : "SET SESSION time_zone = '+00:00', cte_max_recursion_depth = 4294967295";
  if (refusal.empty() && !query_text_rows(conn, session_setup, ignored, refusal)) {
    refusal = "cannot set up the session (" + session_setup + "): " + refusal;
  }
  if (!refusal.empty()) {
    status = query_status::backend_error;
    message = std::move(refusal);
    mysql_close(conn);
    return nullptr;
  }
  return conn;
}

std::string check_account(MYSQL* conn, const mysql_settings& settings) {
  if (settings.allow_privileged) return "";
  std::vector<std::vector<std::string>> grants;
  std::string message;
  if (!query_text_rows(conn, "SHOW GRANTS", grants, message)) {
    return "cannot check the account's privileges (SHOW GRANTS): " + message;
  }
  for (const auto& row : grants) {
    if (row.empty()) continue;
    for (const std::string& p : granted_privileges(row[0])) {
      if (p == "USAGE" || p == "SELECT" || p == "SHOW VIEW") continue;
      return "the account may do more than read (" + row[0] +
             "): an evaluation account needs SELECT only, as sqlmorph-load --grant creates it "
             "(set the backend option allow_privileged = true to connect anyway)";
    }
  }
  return "";
}

}  // namespace sqlmorph::mysql
