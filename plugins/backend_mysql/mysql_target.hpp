#pragma once
// The connection string of the MySQL/MariaDB backend: `key=value` pairs separated by blanks or
// `;` (libpq's style), e.g. `socket=/run/mysqld/mysqld.sock user=reader database={db_id}`.

#include <string>
#include <string_view>

namespace sqlmorph::mysql {

struct mysql_target {
  std::string host;  ///< empty: localhost (through the socket)
  unsigned port = 0;
  std::string socket;
  std::string user;
  std::string password;
  std::string database;
  int connect_timeout = -1;  ///< seconds; -1: the backend's option
};

/// Parses `text`. Keys: host, port, socket (or unix_socket), user, password, database (or dbname),
/// connect_timeout. A value may be quoted with '...' (\' and \\ escaped). Throws
/// std::invalid_argument naming the problem (unknown key, missing '=', bad port, no database).
mysql_target parse_target(std::string_view text);

}  // namespace sqlmorph::mysql
