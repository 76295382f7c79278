#pragma once
// The throwaway MariaDB server of the tests (tests/servers/mariadb.sh, started by the ctest fixture
// 'servers: start mariadb'): where it listens, and statements run on it as root.

#include <string>

namespace sqlmorph::test {

struct mariadb_server {
  std::string socket;
  /// The backend's connection string for `database` as `user` (through the socket).
  std::string target(const std::string& database, const std::string& user) const;
};

/// The running server; throws when the fixture did not start it (naming the state file).
const mariadb_server& mariadb();

/// Runs `sql` (several statements allowed) as root, in `database` when not empty; throws with the
/// server's message on failure.
void maria_exec(const std::string& database, const std::string& sql);

/// The first column of the first row of `sql` as text ("" for NULL or no row), as root.
std::string maria_value(const std::string& database, const std::string& sql);

/// Drops `database` if it exists and creates it empty (utf8mb4).
void maria_recreate_database(const std::string& database);

/// Creates the account `sqlmorph_reader`@`localhost` (no password) if missing and lets it read
/// `database` (SELECT only).
void maria_grant_reader(const std::string& database);

/// Changes when the rows of `items`, the tables and views of `database`, or the server's files in
/// its secure_file_priv folder change.
std::string maria_shop_fingerprint(const std::string& database);

}  // namespace sqlmorph::test
