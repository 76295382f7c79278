// The MySQL/MariaDB backend on the throwaway MariaDB server of the tests (tests/servers/mariadb.sh):
// the type mapping table of plugins/backend_mysql/README.md row by row, the accounts it refuses,
// connection strings and failures, MySQL's own hostile statements, check() and describe_schema().
// What every backend shares (timeouts, cancel, caps, hostile SQL) is in test_backend_conformance.

#include <doctest/doctest.h>

#include <sqlmorph/backend.hpp>

#include "mariadb_support.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

std::shared_ptr<const backend> mysql_backend(bool allow_privileged = false) {
  return test::registry().create<backend>(
      core::component_spec("mysql").with("allow_privileged", allow_privileged));
}

const char* const types_db = "sqlmorph_mysql_types";

void make_types_database() {
  test::maria_recreate_database(types_db);
  test::maria_exec(
      types_db,
      "CREATE TABLE t(ti TINYINT, si SMALLINT, mi MEDIUMINT, i INT, bi BIGINT, ubi BIGINT UNSIGNED, "
      "b BOOL, bt BIT(10), d DECIMAL(10,2), dz DECIMAL(30,0), f FLOAT, db DOUBLE, c CHAR(4), "
      "vc VARCHAR(10), tx TEXT, l1 VARCHAR(10) CHARACTER SET latin1, bin BINARY(3), vb VARBINARY(4), "
      "bl BLOB, dt DATE, dtm DATETIME(3), ts TIMESTAMP NULL, tm TIME, j JSON, e ENUM('x','y'), "
      "y YEAR, n INT);"
      "SET time_zone = '+00:00';"
      "INSERT INTO t VALUES (-128, -32768, -8388608, -2147483648, -9223372036854775808, "
      "18446744073709551615, TRUE, b'1000000001', 12.00, 123456789012345678901234567890, 1.5, "
      "0.1, 'ab', 'h\xc3\xa9llo', '', 'caf\xc3\xa9', x'000141', x'ff', x'00ff', '2024-02-29', "
      "'2024-02-29 13:45:01.250', '2024-02-29 13:45:01', '-838:59:59', '{\"a\": [1, 2]}', 'y', "
      "2024, NULL);");
  test::maria_grant_reader(types_db);
}

}  // namespace

TEST_CASE("mysql: every row of the type mapping table") {
  make_types_database();
  auto c = mysql_backend()->connect(test::mariadb().target(types_db, "sqlmorph_reader"));
  INFO(c.message);
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->execute("SELECT * FROM t", {});
  INFO(o.message);
  REQUIRE(o.ok());
  struct expected {
    const char* column;
    const char* type;
    const char* cell;
  };
  const expected table[] = {
      {"ti", "TINYINT", "integer -128"},
      {"si", "SMALLINT", "integer -32768"},
      {"mi", "MEDIUMINT", "integer -8388608"},
      {"i", "INT", "integer -2147483648"},
      {"bi", "BIGINT", "integer -9223372036854775808"},
      // above int64: the nearest double
      {"ubi", "BIGINT UNSIGNED", "real 1.8446744073709552e+19"},
      {"b", "BOOLEAN", "integer 1"},
      {"bt", "BIT", "integer 513"},
      // DECIMAL: exact integers when integral and within int64, otherwise the nearest double
      {"d", "DECIMAL", "integer 12"},
      {"dz", "DECIMAL", "real 1.2345678901234568e+29"},
      {"f", "FLOAT", "real 1.5"},
      {"db", "DOUBLE", "real 0.1"},
      {"c", "CHAR", "text ab"},
      {"vc", "VARCHAR", "text h\xc3\xa9llo"},
      {"tx", "TEXT", "text "},
      // other character sets arrive as UTF-8 (the session's utf8mb4)
      {"l1", "VARCHAR", "text caf\xc3\xa9"},
      {"bin", "BINARY", "blob 000141"},
      {"vb", "VARBINARY", "blob ff"},
      {"bl", "BLOB", "blob 00ff"},
      {"dt", "DATE", "text 2024-02-29"},
      {"dtm", "DATETIME", "text 2024-02-29 13:45:01.250"},
      // TIMESTAMP in the session's time zone, UTC
      {"ts", "TIMESTAMP", "text 2024-02-29 13:45:01"},
      {"tm", "TIME", "text -838:59:59"},
      // JSON is LONGTEXT in MariaDB: the text as stored
      {"j", "TEXT", "text {\"a\": [1, 2]}"},
      {"e", "ENUM", "text y"},
      {"y", "YEAR", "integer 2024"},
      {"n", "INT", "null"},
  };
  REQUIRE(o.rows.column_count() == std::size(table));
  REQUIRE(o.rows.row_count() == 1);
  for (std::size_t i = 0; i < std::size(table); ++i) {
    INFO("column ", table[i].column);
    CHECK(o.rows.column_names()[i] == table[i].column);
    CHECK(o.rows.column_types()[i] == table[i].type);
    CHECK(test::show(o.rows.cell(0, i)) == table[i].cell);
  }
  // Expressions: integer arithmetic, DECIMAL division, aggregates.
  const query_outcome e =
      c.conn->execute("SELECT 7 DIV 2, 7 / 2, SUM(i), AVG(si), COUNT(*), NULL FROM t", {});
  REQUIRE(e.ok());
  CHECK(test::show(e.rows.cell(0, 0)) == "integer 3");
  CHECK(test::show(e.rows.cell(0, 1)) == "real 3.5");
  CHECK(test::show(e.rows.cell(0, 2)) == "integer -2147483648");
  CHECK(test::show(e.rows.cell(0, 3)) == "integer -32768");
  CHECK(test::show(e.rows.cell(0, 4)) == "integer 1");
  CHECK(test::show(e.rows.cell(0, 5)) == "null");
}

TEST_CASE("mysql: an account that may do more than read is refused unless allowed") {
  make_types_database();
  const std::string as_root = test::mariadb().target(types_db, "root");
  const connect_outcome refused = mysql_backend()->connect(as_root);
  CHECK(refused.conn == nullptr);
  CHECK(refused.status == query_status::backend_error);
  CHECK(refused.message.find("the account may do more than read (GRANT ALL PRIVILEGES ON *.*") !=
        std::string::npos);
  CHECK(refused.message.find("allow_privileged = true") != std::string::npos);
  // A writer of one database, and an account with FILE, are refused too.
  test::maria_exec("", "CREATE USER IF NOT EXISTS 'sqlmorph_writer'@'localhost'; GRANT SELECT, INSERT ON `" +
                           std::string(types_db) +
                           "`.* TO 'sqlmorph_writer'@'localhost';"
                           "CREATE USER IF NOT EXISTS 'sqlmorph_filer'@'localhost'; GRANT FILE ON *.* TO "
                           "'sqlmorph_filer'@'localhost'; GRANT SELECT ON `" +
                           std::string(types_db) + "`.* TO 'sqlmorph_filer'@'localhost'");
  for (const char* user : {"sqlmorph_writer", "sqlmorph_filer"}) {
    INFO(user);
    const connect_outcome c = mysql_backend()->connect(test::mariadb().target(types_db, user));
    CHECK(c.conn == nullptr);
    CHECK(c.message.find("the account may do more than read") != std::string::npos);
  }
  // Allowed, root connects; and even then the read-only transaction holds.
  const connect_outcome allowed = mysql_backend(true)->connect(as_root);
  INFO(allowed.message);
  REQUIRE(allowed.conn != nullptr);
  const query_outcome w = allowed.conn->execute("SELECT * FROM t FOR UPDATE", {});
  INFO(query_status_name(w.status), ": ", w.message);
  // The read-only transaction refuses even a locking read.
  CHECK(w.status == query_status::error);
  CHECK(w.message == "Cannot execute statement in a READ ONLY transaction");
  CHECK(test::maria_value(types_db, "SELECT COUNT(*) FROM t") == "1");
}

TEST_CASE("mysql: connection strings, missing databases and unreachable servers") {
  // The account exists whichever test runs first (alone, `ctest -R` of this test was refused
  // access instead of told the database is missing).
  test::maria_exec("", "CREATE USER IF NOT EXISTS 'sqlmorph_reader'@'localhost'");
  const auto b = mysql_backend();
  const connect_outcome missing =
      b->connect(test::mariadb().target("sqlmorph_no_such_db", "sqlmorph_reader"));
  INFO(missing.message);
  CHECK(missing.status == query_status::db_missing);
  CHECK(missing.message.find("to database 'sqlmorph_no_such_db'") != std::string::npos);
  CHECK(missing.message.find("does not exist or this account may not read it") != std::string::npos);
  const connect_outcome no_server = b->connect("socket=/nonexistent/mysql.sock user=x database=d");
  CHECK(no_server.status == query_status::backend_error);
  CHECK(no_server.message.find("/nonexistent/mysql.sock") != std::string::npos);
  CHECK(b->connect("socket=/x user=x").message == "connection string: no database (add database={db_id})");
  CHECK(b->connect("sockt=/x database=d").message.find("unknown key 'sockt'") != std::string::npos);
  CHECK(b->connect("database").message == "connection string: 'database' is not key=value");
  CHECK(b->connect("port=99999 database=d").message.find("port must be a number from 1 to 65535") !=
        std::string::npos);
  // Quoted values keep blanks and quotes.
  CHECK(b->connect("socket='/no such/dir' user='o\\'neil' database=d").message.find("/no such/dir") !=
        std::string::npos);
}

TEST_CASE("mysql: MySQL's own hostile statements get a clear status and change nothing") {
  make_types_database();
  auto c = mysql_backend()->connect(test::mariadb().target(types_db, "sqlmorph_reader"));
  REQUIRE(c.conn != nullptr);
  const std::string files = test::maria_value("", "SELECT @@secure_file_priv");
  struct hostile {
    const char* sql;
    query_status status;
    const char* fragment;
  };
  const std::string outfile = "SELECT * FROM t INTO OUTFILE '" + files + "out.txt'";
  const std::string dumpfile = "SELECT 'x' INTO DUMPFILE '" + files + "dump.txt'";
  const hostile cases[] = {
      {outfile.c_str(), query_status::error, "FILE privilege"},
      {dumpfile.c_str(), query_status::error, "FILE privilege"},
      {"LOAD DATA INFILE '/etc/passwd' INTO TABLE t", query_status::error, "only a query may be executed"},
      {"DROP TABLE t", query_status::error, "only a query may be executed"},
      {"INSERT INTO t (i) SELECT 1", query_status::error, "only a query may be executed"},
      {"SET GLOBAL max_connections = 1", query_status::error, "only a query may be executed"},
      {"GRANT ALL ON *.* TO 'sqlmorph_reader'@'localhost'", query_status::error,
       "only a query may be executed"},
      {"KILL 1", query_status::error, "only a query may be executed"},
      {"SELECT 1; DROP TABLE t", query_status::error, "several statements"},
      {"SELECT GET_LOCK('sqlmorph', 0)", query_status::ok, ""},
  };
  const std::string before = test::maria_value(types_db, "CHECKSUM TABLE t");
  for (const hostile& h : cases) {
    INFO(h.sql);
    const query_outcome o = c.conn->execute(h.sql, {});
    INFO(o.message);
    CHECK(o.status == h.status);
    CHECK(o.message.find(h.fragment) != std::string::npos);
  }
  // The named lock did not outlive its statement.
  CHECK(test::maria_value("", "SELECT IS_USED_LOCK('sqlmorph')").empty());
  // LOAD_FILE needs FILE: NULL for this account.
  const query_outcome lf = c.conn->execute("SELECT LOAD_FILE('/etc/passwd')", {});
  REQUIRE(lf.ok());
  CHECK(test::show(lf.rows.cell(0, 0)) == "null");
  CHECK(test::maria_value(types_db, "CHECKSUM TABLE t") == before);
  CHECK(test::maria_value("", "SELECT @@max_connections") == "200");
  CHECK_FALSE(std::filesystem::exists(files + "out.txt"));
  CHECK_FALSE(std::filesystem::exists(files + "dump.txt"));
}

TEST_CASE("mysql: a session the server ends is reopened for the next statement") {
  make_types_database();
  auto c = mysql_backend()->connect(test::mariadb().target(types_db, "sqlmorph_reader"));
  REQUIRE(c.conn != nullptr);
  REQUIRE(c.conn->execute("SELECT 1", {}).ok());
  const std::string id = test::maria_value("",
                                           "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = "
                                           "'sqlmorph_reader' AND DB = '" +
                                               std::string(types_db) + "' LIMIT 1");
  REQUIRE_FALSE(id.empty());
  test::maria_exec("", "KILL CONNECTION " + id);
  const query_outcome o = c.conn->execute("SELECT COUNT(*) FROM t", {});
  INFO(o.message);
  REQUIRE(o.ok());
  CHECK(test::show(o.rows.cell(0, 0)) == "integer 1");
}

TEST_CASE("mysql: check() prepares without executing, describe_schema() gives the tables' DDL") {
  make_types_database();
  test::maria_exec(
      types_db,
      "CREATE TABLE child(id INT PRIMARY KEY, t_i INT, KEY(t_i)); CREATE VIEW v AS SELECT i FROM t");
  auto c = mysql_backend()->connect(test::mariadb().target(types_db, "sqlmorph_reader"));
  REQUIRE(c.conn != nullptr);
  CHECK(c.conn->check("SELECT i FROM t WHERE si > 1", {}).ok());
  const query_outcome unknown = c.conn->check("SELECT nope FROM t", {});
  CHECK(unknown.status == query_status::error);
  CHECK(unknown.message.find("Unknown column 'nope'") != std::string::npos);
  // Never run: a sleep of a million seconds is checked at once.
  exec_limits quick;
  quick.timeout_seconds = 5;
  CHECK(c.conn->check("SELECT SLEEP(1000000)", quick).ok());
  const query_outcome ddl = c.conn->describe_schema({});
  INFO(ddl.message);
  REQUIRE(ddl.ok());
  CHECK(ddl.message.find("CREATE TABLE `child` (") != std::string::npos);
  CHECK(ddl.message.find("PRIMARY KEY (`id`)") != std::string::npos);
  CHECK(ddl.message.find("CREATE TABLE `t` (") != std::string::npos);
  CHECK(ddl.message.find("CREATE VIEW `v` AS ") != std::string::npos);
}
