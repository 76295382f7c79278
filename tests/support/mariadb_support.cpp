#include "mariadb_support.hpp"

#include <mysql.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "test_support.hpp"

namespace sqlmorph::test {
namespace {

struct root_session {
  MYSQL* conn = nullptr;
  explicit root_session(const std::string& database) {
    conn = mysql_init(nullptr);
    if (conn == nullptr) throw std::runtime_error("test MariaDB server: out of memory");
    mysql_optionsv(conn, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (mysql_real_connect(conn, nullptr, "root", nullptr, database.empty() ? nullptr : database.c_str(), 0,
                           mariadb().socket.c_str(), CLIENT_MULTI_STATEMENTS) == nullptr) {
      const std::string message = mysql_error(conn);
      mysql_close(conn);
      throw std::runtime_error("test MariaDB server: cannot connect as root: " + message);
    }
  }
  ~root_session() { mysql_close(conn); }
  root_session(const root_session&) = delete;
  root_session& operator=(const root_session&) = delete;

  // Runs every statement of `sql`; the first result's first cell goes to `first` when given.
  void run(const std::string& sql, std::string* first = nullptr) {
    if (mysql_real_query(conn, sql.data(), sql.size()) != 0) fail(sql);
    bool taken = false;
    while (true) {
      if (MYSQL_RES* r = mysql_store_result(conn)) {
        if (first != nullptr && !taken) {
          MYSQL_ROW row = mysql_fetch_row(r);
          if (row != nullptr && row[0] != nullptr) *first = std::string(row[0], mysql_fetch_lengths(r)[0]);
          taken = true;
        }
        mysql_free_result(r);
      } else if (mysql_errno(conn) != 0) {
        fail(sql);
      }
      const int more = mysql_next_result(conn);
      if (more > 0) fail(sql);
      if (more < 0) break;
    }
  }
  [[noreturn]] void fail(const std::string& sql) {
    throw std::runtime_error("test MariaDB server: " + std::string(mysql_error(conn)) +
                             " (in: " + sql.substr(0, 200) + ")");
  }
};

}  // namespace

std::string mariadb_server::target(const std::string& database, const std::string& user) const {
  return "socket=" + socket + " user=" + user + " database=" + database;
}

const mariadb_server& mariadb() {
  static const mariadb_server server = [] {
    const auto state = build_dir() / "test-servers" / "mariadb.env";
    std::ifstream in(state);
    if (!in) {
      throw std::runtime_error("the test MariaDB server is not running (" + state.string() +
                               " is missing): run the tests through ctest, whose fixture 'servers: start "
                               "mariadb' starts it, or run tests/servers/mariadb.sh start " +
                               state.string());
    }
    mariadb_server s;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("MARIADB_SOCKET=", 0) == 0) s.socket = line.substr(15);
    }
    if (s.socket.empty()) throw std::runtime_error("malformed " + state.string());
    return s;
  }();
  return server;
}

void maria_exec(const std::string& database, const std::string& sql) {
  root_session(database).run(sql);
}

std::string maria_value(const std::string& database, const std::string& sql) {
  std::string out;
  root_session(database).run(sql, &out);
  return out;
}

void maria_recreate_database(const std::string& database) {
  maria_exec("", "DROP DATABASE IF EXISTS `" + database + "`; CREATE DATABASE `" + database +
                     "` CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin");
}

void maria_grant_reader(const std::string& database) {
  maria_exec("", "CREATE USER IF NOT EXISTS 'sqlmorph_reader'@'localhost'; GRANT SELECT ON `" + database +
                     "`.* TO 'sqlmorph_reader'@'localhost'");
}

std::string maria_shop_fingerprint(const std::string& database) {
  std::string out =
      maria_value(database,
                  "SELECT GROUP_CONCAT(CONCAT_WS(':', id, name, price, qty, HEX(data)) ORDER BY id "
                  "SEPARATOR '|') FROM items");
  out +=
      "#" + maria_value(database,
                        "SELECT GROUP_CONCAT(CONCAT(TABLE_NAME, ' ', TABLE_TYPE) ORDER BY TABLE_NAME) FROM "
                        "information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()");
  const std::filesystem::path files = maria_value("", "SELECT @@secure_file_priv");
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(files, ec))
    out += "#" + e.path().filename().string();
  return out;
}

}  // namespace sqlmorph::test
