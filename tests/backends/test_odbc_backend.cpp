// The ODBC backend through unixODBC with two real drivers: the SQLite ODBC driver on SQLite files
// (compared with the native SQLite backend) and psqlODBC on the throwaway PostgreSQL cluster.
// Predicted SQL never changes a database or reaches outside it, runaway queries are cancelled at
// the time limit, results are capped, and a missing database is never created.

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <thread>

#include <sqlmorph/backend.hpp>

#include "test_support.hpp"

using namespace sqlmorph;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<const backend> odbc_backend(const core::component_spec& spec = core::component_spec("odbc")) {
  test::use_test_odbc_config();
  return test::registry().create<backend>(spec);
}

std::unique_ptr<connection> must_connect(const backend& engine, const std::string& target) {
  connect_outcome c = engine.connect(target);
  INFO("connecting to ", target, ": ", c.message);
  REQUIRE(c.conn != nullptr);
  return std::move(c.conn);
}

std::string show(const value& v) {
  return std::string(kind_name(v.kind())) + " " + python_str(v);
}

// The same kind and the same value (NaN equal to NaN).
bool same(const value& a, const value& b) {
  if (a.kind() != b.kind()) return false;
  if (a.kind() == value_kind::real && std::isnan(a.as_real())) return std::isnan(b.as_real());
  return reference_equal(a, b);
}

value cell_value(result& holder, const test::cell& c) {
  holder = test::make_result({"x"}, {{c}});
  return holder.cell(0, 0);
}

exec_limits time_limit(double seconds) {
  exec_limits l;
  l.timeout_seconds = seconds;
  return l;
}

const std::string endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) ";

// The same small shop in both engines.
const char* const sqlite_shop =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL, qty INTEGER);"
    "INSERT INTO items VALUES (1, 'apple', 1.5, 3), (2, 'pear', NULL, 5), (3, 'fig', 3.0, NULL);";
const char* const postgres_shop =
    "CREATE TABLE items(id int PRIMARY KEY, name text, price numeric(6,2), qty int);"
    "INSERT INTO items VALUES (1, 'apple', 1.5, 3), (2, 'pear', NULL, 5), (3, 'fig', 3.0, NULL);"
    "CREATE SEQUENCE seq;";

// A SQLite file for the SQLite ODBC driver.
struct sqlite_file {
  test::temp_dir dir;
  std::filesystem::path file = dir.path() / "shop.sqlite";

  explicit sqlite_file(const std::string& sql = sqlite_shop) { test::create_sqlite(file, sql); }
  std::string target() const { return "Driver=SQLite3;Database=" + file.string(); }
  // Changes when anything in the folder changes: the file's bytes, a journal, a new file.
  std::string fingerprint() const { return test::folder_fingerprint(file); }
};

// A database of the test PostgreSQL cluster for psqlODBC, read as the read-only role.
std::string postgres_target(const std::string& dbname, const std::string& user = "sqlmorph_reader") {
  const auto& pg = test::postgres();
  return "Driver={PostgreSQL Unicode};Servername=" + pg.host + ";Port=" + std::to_string(pg.port) +
         ";Database=" + dbname + ";Username=" + user;
}

struct postgres_db {
  std::string name;
  explicit postgres_db(std::string n, const std::string& sql = postgres_shop) : name(std::move(n)) {
    test::pg_recreate_database(name);
    test::pg_exec("postgres", "ALTER DATABASE \"" + name + "\" SET timezone = 'UTC'");
    test::pg_exec(name, sql);
    test::pg_grant_reader(name);
  }
  std::string target(const std::string& user = "sqlmorph_reader") const {
    return postgres_target(name, user);
  }
  // Changes when the rows, the relations or the sequence change.
  std::string fingerprint() const { return test::pg_shop_fingerprint(name); }
};

// One shop per engine, for the behaviours both drivers must show.
struct shop {
  std::string engine;
  std::string target;
  std::function<std::string()> fingerprint;
};

struct both_shops {
  sqlite_file sqlite;
  postgres_db postgres;
  explicit both_shops(const std::string& pg_name) : postgres(pg_name) {}
  std::vector<shop> list() const {
    return {{"SQLite file, SQLite ODBC driver", sqlite.target(), [this] { return sqlite.fingerprint(); }},
            {"PostgreSQL, psqlODBC", postgres.target(), [this] { return postgres.fingerprint(); }}};
  }
};

// The SQLite ODBC driver's library, as the tests' odbcinst.ini registers it.
std::string sqlite_driver_library() {
  std::ifstream in(test::build_dir() / "test-servers" / "odbc" / "odbcinst.ini");
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] == '[') in_section = line == "[SQLite3]";
    if (in_section && line.rfind("Driver = ", 0) == 0) return line.substr(9);
  }
  return "";
}

// Sets ODBCINI for one test and restores it afterwards.
struct odbc_ini_override {
  std::string previous;
  explicit odbc_ini_override(const std::filesystem::path& file) {
    test::use_test_odbc_config();
    previous = std::getenv("ODBCINI");
    ::setenv("ODBCINI", file.c_str(), 1);
  }
  ~odbc_ini_override() { ::setenv("ODBCINI", previous.c_str(), 1); }
  odbc_ini_override(const odbc_ini_override&) = delete;
  odbc_ini_override& operator=(const odbc_ini_override&) = delete;
};

}  // namespace

// --- type mapping -------------------------------------------------------------------------------

TEST_CASE("odbc: psqlODBC: each PostgreSQL type maps to the value kind of the README's table") {
  const postgres_db db("sqlmorph_odbc_types");
  const auto engine = odbc_backend();
  const auto conn = must_connect(*engine, db.target());
  struct row {
    const char* expression;
    test::cell expected;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const row table[] = {
      {"1::smallint", 1},
      {"2::int", 2},
      {"9223372036854775807::bigint", 9223372036854775807LL},
      {"7::oid", 7},
      {"true", 1},
      {"false", 0},
      {"12.50::numeric(6,2)", 12.5},
      {"3.00::numeric", 3},  // integral: an integer
      {"-5::numeric(10,2)", -5},
      {"123456789012345678901234567890::numeric", 1.2345678901234568e29},  // beyond int64: nearest double
      {"'NaN'::numeric", nan},
      {"1.5::real", 1.5},
      {"0.1::float8", 0.1},
      {"'-Infinity'::float8", -inf},
      {"'héllo'::text", "héllo"},
      {"'ab'::varchar(5)", "ab"},
      {"'x'::char(3)", "x  "},
      {"'\\x00ff'::bytea", test::blob{std::string("\x00\xff", 2)}},
      {"'2020-01-02'::date", "2020-01-02"},
      {"'03:04:05.5'::time", "03:04:05.5"},
      {"'2020-01-02 03:04:05.123456'::timestamp", "2020-01-02 03:04:05.123456"},
      {"'2020-01-02 03:04:05+02'::timestamptz", "2020-01-02 01:04:05"},  // psqlODBC drops the offset
      {"'1 day 02:03:04'::interval", "1 day 02:03:04"},
      {"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid",
       "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"},  // psqlODBC's case
      {"'{\"a\": 1}'::jsonb", "{\"a\": 1}"},
      {"ARRAY[1, 2]", "{1,2}"},
      {"12.34::money", "$12.34"},  // SQL_DOUBLE by the driver, not a number: text
      {"NULL::int", nullptr},
      {"NULL", nullptr},
  };
  for (const row& r : table) {
    const std::string expression = r.expression;
    CAPTURE(expression);
    const query_outcome o = conn->execute(std::string("SELECT ") + r.expression + " AS v", {});
    INFO(o.message);
    REQUIRE(o.ok());
    REQUIRE(o.rows.row_count() == 1);
    result holder;
    const value expected = cell_value(holder, r.expected);
    INFO("got ", show(o.rows.cell(0, 0)), ", expected ", show(expected));
    CHECK(same(o.rows.cell(0, 0), expected));
  }
  const query_outcome named = conn->execute("SELECT 1 AS \"a.b\", 2, id, name FROM items WHERE id = 1", {});
  REQUIRE(named.ok());
  CHECK(named.rows.column_names() == std::vector<std::string>{"a.b", "?column?", "id", "name"});
  CHECK(named.rows.column_types() == std::vector<std::string>{"int4", "int4", "int4", "text"});
  // Long values come through in chunks, byte for byte.
  const query_outcome big =
      conn->execute("SELECT repeat('é', 100000) AS t, decode(repeat('00ff', 60000), 'hex') AS b", {});
  REQUIRE(big.ok());
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "é";
  std::string bytes;
  for (int i = 0; i < 60000; ++i) bytes += std::string("\x00\xff", 2);
  CHECK(big.rows.cell(0, 0).bytes() == text);
  CHECK(big.rows.cell(0, 1).kind() == value_kind::blob);
  CHECK(big.rows.cell(0, 1).bytes() == bytes);
}

namespace {
// A SQLite file with every kind of declared type and values of every storage class, including
// values SQLite keeps in a column of another affinity.
const char* const sqlite_types =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, i INT, name TEXT, v VARCHAR(10), price REAL, data BLOB, n "
    "NUMERIC, "
    "  dec DECIMAL(10,2), d DATE, ts TIMESTAMP, b BOOLEAN, big BIGINT, anyc);"
    "INSERT INTO t VALUES (1, 3, 'apple', 'abc', 1.5, x'00ff', 12.5, 3.25, '2020-01-02', '2020-01-02 "
    "03:04:05', 1,"
    "  9223372036854775807, 'x');"
    "INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);"
    "INSERT INTO t VALUES (3, 'not a number', CAST(x'61ff62' AS TEXT), 12, 3, x'', 'abc', '1e5', 'notadate', "
    "20200102,"
    "  0, -9223372036854775808, 3.5);"
    "INSERT INTO t VALUES (4, 2.5, x'41', 'X', 1e300 * 10, 'text in a blob column', 7, 0.5, 5, 1.5, 2, 0,"
    "  x'0a0b');"
    "CREATE TABLE odd(lv varchar);"
    "INSERT INTO odd VALUES ('12');"
    "CREATE TABLE long(t TEXT, b BLOB);"
    "CREATE VIEW cheap AS SELECT name FROM t WHERE price < 2;";
}  // namespace

TEST_CASE("odbc: SQLite ODBC driver: the same values as the native SQLite backend, except the listed cases") {
  sqlite_file f(sqlite_types);
  {
    // Long values, read in chunks: a multi-byte text of 200 kB and a 100 kB blob.
    std::string text;
    for (int i = 0; i < 100000; ++i) text += "é";
    test::create_sqlite(f.file, "INSERT INTO long VALUES ('" + text + "', randomblob(100000))");
  }
  const auto native = test::registry().create<backend>(core::component_spec("sqlite"));
  const auto engine = odbc_backend();
  const auto native_conn = must_connect(*native, f.file.string());
  const auto odbc_conn = must_connect(*engine, f.target());

  const char* const same_queries[] = {
      "SELECT * FROM t ORDER BY id",
      "SELECT id, name, price, data, id * 2 AS twice, i + 1 FROM t ORDER BY id",
      "SELECT count(*), sum(i), avg(id), max(name), min(price), total(qty) FROM t, (SELECT 1 AS qty)",
      "SELECT 1.5 * 2, 0.5, -3, 'x', x'00ff', NULL, 1e300 * 10, -(1e300 * 10), 0.25, 100.0, 1e-5, 1.5e20",
      "SELECT CASE WHEN id = 1 THEN 'x' WHEN id = 2 THEN 2 ELSE 2.5 END FROM t ORDER BY id",
      "SELECT anyc, typeof(anyc) FROM t ORDER BY id",
      "SELECT i, typeof(i), v, typeof(v), n, dec, d, ts, b FROM t ORDER BY id",
      "SELECT b, sum(price) FROM t GROUP BY b ORDER BY b",
      "SELECT * FROM cheap",
      "SELECT name, length(name), hex(data) FROM t WHERE name LIKE 'a%'",
      "SELECT id FROM t WHERE 0",
      "SELECT 9223372036854775807, -9223372036854775808, 9007199254740993",
      "SELECT t, b FROM long",
      "SELECT id AS \"a.b\", t.name AS \"x.y.z\" FROM t ORDER BY id",
      "SELECT 'multi\nline', 'tab\there', '  padded  '",
      "SELECT id AS \"a.b\" FROM t ORDER BY id",
      "SELECT avg(price) * 1.0 FROM t WHERE id < 3",
      "SELECT x.a, t.id FROM (SELECT id AS a FROM t) x JOIN t ON t.id = x.a",
      "VALUES (1, 'a'), (2.5, x'00')",
  };
  for (const std::string sql : same_queries) {
    CAPTURE(sql);
    const query_outcome n = native_conn->execute(sql, {});
    const query_outcome o = odbc_conn->execute(sql, {});
    INFO("native: ", n.message, " / odbc: ", o.message);
    REQUIRE(n.ok());
    REQUIRE(o.ok());
    for (std::size_t c = 0; c < n.rows.column_count() && c < o.rows.column_count(); ++c) {
      CHECK(o.rows.column_names()[c] == n.rows.column_names()[c]);
    }
    REQUIRE(o.rows.row_count() == n.rows.row_count());
    REQUIRE(o.rows.column_count() == n.rows.column_count());
    for (std::size_t r = 0; r < n.rows.row_count(); ++r) {
      for (std::size_t c = 0; c < n.rows.column_count(); ++c) {
        INFO("row ", r, " column ", c, ": native ", show(n.rows.cell(r, c)), ", odbc ",
             show(o.rows.cell(r, c)));
        CHECK(same(o.rows.cell(r, c), n.rows.cell(r, c)));
      }
    }
  }

  // The known differences (README "Differences from the native SQLite backend"): the driver keeps
  // each value as SQLite's text of it, so the ODBC side sees only that text.
  struct difference {
    const char* sql;
    test::cell native;
    test::cell odbc;
    const char* why;
  };
  const difference differences[] = {
      {"SELECT 1 / 3.0", 1.0 / 3.0, 0.333333333333333, "reals come as SQLite's 15-digit text"},
      {"SELECT 0.1 + 0.2", 0.1 + 0.2, 0.3, "reals come as SQLite's 15-digit text"},
      {"SELECT 9223372036854775807 + 1", 9223372036854775808.0, 9.22337203685478e18,
       "reals come as SQLite's 15-digit text"},
      {"SELECT CAST(12 AS TEXT)", "12", 12, "an expression's text that looks like a number reads as one"},
      {"SELECT strftime('%Y', '2020-05-01')", "2020", 2020,
       "an expression's text that looks like a number reads as one"},
      {"SELECT lv FROM odd", "12", 12, "a column declared just 'varchar' looks undeclared"},
      {"SELECT quote(x'41')", "X'41'", test::blob{"A"}, "text spelled like the driver's rendering of a blob"},
      {"SELECT 'a' || char(0) || 'b'", std::string("a\0b", 3), "a", "the driver stops text at a NUL byte"},
  };
  for (const difference& d : differences) {
    const std::string sql = d.sql;
    const std::string why = d.why;
    CAPTURE(sql);
    CAPTURE(why);
    const query_outcome n = native_conn->execute(d.sql, {});
    const query_outcome o = odbc_conn->execute(d.sql, {});
    REQUIRE(n.ok());
    REQUIRE(o.ok());
    result h1;
    result h2;
    const value native_expected = cell_value(h1, d.native);
    const value odbc_expected = cell_value(h2, d.odbc);
    INFO("native ", show(n.rows.cell(0, 0)), ", odbc ", show(o.rows.cell(0, 0)));
    CHECK(same(n.rows.cell(0, 0), native_expected));
    CHECK(same(o.rows.cell(0, 0), odbc_expected));
  }
  // Declared types: the driver's name for them (no size), "" where SQLite has none.
  const query_outcome typed =
      odbc_conn->execute("SELECT id, name, v, price, data, d, anyc, id + 1 FROM t", {});
  REQUIRE(typed.ok());
  const std::vector<std::string> expected_types = {"INTEGER", "TEXT", "VARCHAR", "REAL",
                                                   "BLOB",    "DATE", "",        ""};
  for (std::size_t c = 0; c < expected_types.size(); ++c) {
    CAPTURE(c);
    CHECK(typed.rows.column_types().at(c) == expected_types[c]);
  }
  CHECK(native_conn->execute("SELECT v FROM t", {}).rows.column_types() ==
        std::vector<std::string>{"VARCHAR(10)"});
}

// --- safety --------------------------------------------------------------------------------------

TEST_CASE("odbc: SQLite ODBC driver: the layers behind the statement gate (attacks: tests/cases/backend)") {
  sqlite_file f;
  const auto engine = odbc_backend();
  const auto conn = must_connect(*engine, f.target());
  const std::string before = f.fingerprint();
  const auto outside = f.dir.path() / "outside.bin";
  CHECK(conn->execute("DROP TABLE items", {}).message.find("only a query may be executed") !=
        std::string::npos);
  CHECK(conn->execute("SELECT blob_export(x'41', '/tmp/x')", {}).message ==
        "not authorized: the evaluation is read-only and refuses blob_export(), which reaches outside the "
        "database");
  // SQLite's query_only is on for the session, so a write that slips through fails in SQLite.
  const query_outcome returning = conn->execute("WITH a AS (SELECT 1) DELETE FROM items RETURNING id", {});
  INFO(returning.message);
  CHECK(returning.message.find("attempt to write a readonly database") != std::string::npos);
  CHECK(returning.message.find("(the evaluation's session is read-only: PRAGMA query_only)") !=
        std::string::npos);
  CHECK(conn->execute("SELECT query_only FROM pragma_query_only", {}).rows.cell(0, 0).as_integer() == 1);
  CHECK_FALSE(std::filesystem::exists(outside));
  CHECK(f.fingerprint() == before);
}

TEST_CASE("odbc: psqlODBC: the read-only session behind the statement gate (attacks: tests/cases/backend)") {
  const postgres_db db("sqlmorph_odbc_safety");
  const auto engine = odbc_backend();
  const auto conn = must_connect(*engine, db.target());
  const std::string before = db.fingerprint();
  const std::string marker = "/tmp/sqlmorph-odbc-copy-marker-" + std::to_string(::getpid());
  std::filesystem::remove(marker);
  CHECK(conn->execute("SELECT current_setting('transaction_read_only')", {}).rows.cell(0, 0).bytes() == "on");
  // Refusals say which layer refused.
  CHECK(conn->execute("SELECT * FROM items FOR UPDATE", {})
            .message.find("(the evaluation runs every query in a read-only transaction)") !=
        std::string::npos);
  CHECK(conn->execute("SELECT pg_read_file('/etc/passwd')", {})
            .message.find("(refused by the privileges of the role the evaluation connects as)") !=
        std::string::npos);
  // A query that turns the session's default off is rolled back with its transaction.
  CHECK(conn->execute("SELECT set_config('default_transaction_read_only', 'off', false)", {}).ok());
  CHECK(conn->execute("SELECT current_setting('transaction_read_only')", {}).rows.cell(0, 0).bytes() == "on");
  CHECK(conn->execute("WITH d AS (DELETE FROM items RETURNING *) SELECT count(*) FROM d", {}).status ==
        query_status::error);
  CHECK_FALSE(std::filesystem::exists(marker));
  CHECK(db.fingerprint() == before);

  // The session is read-only even for a role that may write (the superuser): it does not rest on
  // grants alone.
  const auto owner = must_connect(*engine, db.target(test::postgres().superuser));
  const query_outcome o = owner->execute("SELECT nextval('seq')", {});
  CHECK(o.status == query_status::error);
  CHECK(o.message.find("cannot execute nextval() in a read-only transaction") != std::string::npos);
  CHECK(owner->execute("WITH d AS (DELETE FROM items RETURNING *) SELECT count(*) FROM d", {}).status ==
        query_status::error);
  CHECK(db.fingerprint() == before);
}

// Time limits, cancel(), row and byte caps and the hostile SQL of every engine: the conformance
// suite (test_backend_conformance.cpp, tests/cases/backend) runs them through both drivers.

// --- connections ---------------------------------------------------------------------------------

TEST_CASE("odbc: one connection serves many queries, across errors, refusals, timeouts and truncation") {
  const both_shops shops("sqlmorph_odbc_reuse");
  const auto engine = odbc_backend();
  for (const shop& s : shops.list()) {
    CAPTURE(s.engine);
    const auto conn = must_connect(*engine, s.target);
    const std::string before = s.fingerprint();
    exec_limits capped;
    capped.max_rows = 2;
    for (int i = 0; i < 10; ++i) {
      CAPTURE(i);
      const query_outcome good =
          conn->execute("SELECT id, name FROM items WHERE id = " + std::to_string(i % 3 + 1), {});
      REQUIRE(good.ok());
      CHECK(good.rows.cell(0, 0).as_integer() == i % 3 + 1);
      CHECK(conn->execute("SELECT no_such_column FROM items", {}).status == query_status::error);
      CHECK(conn->execute("DELETE FROM items", {}).status == query_status::error);
      CHECK(conn->execute("SELECT * FROM items", capped).rows.truncated());
    }
    CHECK(conn->execute(endless + "SELECT count(*) FROM c", time_limit(0.2)).status == query_status::timeout);
    CHECK(conn->execute("SELECT count(*) FROM items", {}).rows.cell(0, 0).as_integer() == 3);
    // The other statements the gate lets through.
    CHECK(conn->execute("VALUES (1, 'a'), (2, 'b')", {}).rows.row_count() == 2);
    CHECK(conn->execute("SELECT 1; -- done\n", {}).ok());
    CHECK(s.fingerprint() == before);
  }
}

TEST_CASE("odbc: connections of one backend work side by side from several threads") {
  const both_shops shops("sqlmorph_odbc_threads");
  const auto engine = odbc_backend();
  const std::vector<shop> list = shops.list();
  std::vector<std::thread> workers;
  std::vector<int> good(8, 0);
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&, w] {
      connect_outcome c = engine->connect(list[static_cast<std::size_t>(w % 2)].target);
      if (c.conn == nullptr) return;
      for (int i = 0; i < 20; ++i) {
        // Every other query runs into the time limit, so the watchdog serves several at once.
        const bool slow = i % 5 == 0;
        const query_outcome o = c.conn->execute(
            slow ? endless + "SELECT count(*) FROM c" : "SELECT sum(id) FROM items", time_limit(0.2));
        if (slow ? o.status == query_status::timeout : (o.ok() && o.rows.cell(0, 0).as_integer() == 6))
          ++good[w];
      }
    });
  }
  for (auto& t : workers) t.join();
  for (int w = 0; w < 8; ++w) {
    CAPTURE(w);
    CHECK(good[static_cast<std::size_t>(w)] == 20);
  }
}

TEST_CASE("odbc: a database that does not exist is db_missing, and never created") {
  const auto engine = odbc_backend();
  test::temp_dir dir;
  const auto missing = dir.path() / "nope.sqlite";
  connect_outcome c = engine->connect("Driver=SQLite3;Database=" + missing.string());
  CHECK(c.conn == nullptr);
  CHECK(c.status == query_status::db_missing);
  CHECK(c.message == "database not found: " + missing.string());
  // Even when the target asks the driver to create it.
  c = engine->connect("Driver=SQLite3;NoCreat=0;Database=" + missing.string() + ";NoCreat=0");
  CHECK(c.status == query_status::db_missing);
  CHECK_FALSE(std::filesystem::exists(missing));
  CHECK(std::filesystem::is_empty(dir.path()));

  // Not a database: a folder, a text file.
  CHECK(engine->connect("Driver=SQLite3;Database=" + dir.path().string()).status ==
        query_status::backend_error);
  const auto junk = dir.path() / "junk.sqlite";
  std::ofstream(junk)
      << "this is not a database, just text long enough to have a header..........................";
  const connect_outcome j = engine->connect("Driver=SQLite3;Database=" + junk.string());
  CHECK(j.status == query_status::backend_error);
  CHECK(j.message.find("not a database") != std::string::npos);

  const connect_outcome pg = engine->connect(postgres_target("sqlmorph_odbc_no_such_database"));
  CHECK(pg.conn == nullptr);
  CHECK(pg.status == query_status::db_missing);
  CHECK(pg.message.find("sqlmorph_odbc_no_such_database") != std::string::npos);

  // Other failures are the backend's: no server there, no such driver, no such data source.
  const auto& server = test::postgres();
  const connect_outcome no_server = engine->connect("Driver={PostgreSQL Unicode};Servername=" + server.host +
                                                    ";Port=1;Database=postgres;Username=sqlmorph_reader");
  CHECK(no_server.status == query_status::backend_error);
  CHECK(no_server.message.find("SQLSTATE 08001") != std::string::npos);
  CHECK(engine->connect("Driver={No Such Driver};Database=x").status == query_status::backend_error);
  const connect_outcome no_dsn = engine->connect("DSN=sqlmorph_odbc_no_such_dsn");
  CHECK(no_dsn.status == query_status::backend_error);
  CHECK(no_dsn.message.find("IM002") != std::string::npos);
}

TEST_CASE("odbc: a data source of odbc.ini works, with the backend's settings for its driver") {
  sqlite_file f;
  const postgres_db db("sqlmorph_odbc_dsn");
  test::temp_dir dir;
  const auto ini = dir.path() / "odbc.ini";
  const auto missing = dir.path() / "missing.sqlite";
  const auto& pg = test::postgres();
  std::ofstream(ini) << "[sqlmorph_shop]\nDriver = SQLite3\nDatabase = " << f.file.string()
                     << "\n\n[sqlmorph_shop_by_path]\nDriver = " << sqlite_driver_library()
                     << "\nDatabase = " << f.file.string()
                     << "\n\n[sqlmorph_missing]\nDriver = SQLite3\nDatabase = " << missing.string()
                     << "\nNoCreat = 0\nStepAPI = 0\n\n[sqlmorph_pg]\nDriver = PostgreSQL Unicode\n"
                     << "Servername = " << pg.host << "\nPort = " << pg.port << "\nDatabase = " << db.name
                     << "\nUsername = sqlmorph_reader\n";
  const auto engine = odbc_backend();
  const odbc_ini_override use(ini);

  for (const std::string dsn : {"DSN=sqlmorph_shop", "DSN=sqlmorph_shop_by_path", "DSN=sqlmorph_pg"}) {
    CAPTURE(dsn);
    const auto conn = must_connect(*engine, dsn);
    const query_outcome o = conn->execute("SELECT name FROM items ORDER BY id", {});
    REQUIRE(o.ok());
    CHECK(o.rows.row_count() == 3);
    CHECK(o.rows.cell(0, 0).bytes() == "apple");
    // The driver's settings apply to a DSN too: rows stream, so the row cap is quick.
    exec_limits rows = time_limit(10);
    rows.max_rows = 10;
    const auto start = std::chrono::steady_clock::now();
    CHECK(conn->execute(endless + "SELECT x FROM c", rows).rows.truncated());
    CHECK(seconds_since(start) < 20.0);  // generous: proves it stopped, not how fast
    CHECK(conn->execute("WITH a AS (SELECT 1) DELETE FROM items", {}).status == query_status::error);
  }
  // The DSN's missing file is db_missing and not created, whatever the DSN says.
  const connect_outcome m = engine->connect("DSN=sqlmorph_missing");
  CHECK(m.status == query_status::db_missing);
  CHECK_FALSE(std::filesystem::exists(missing));
}

TEST_CASE("odbc: psqlODBC: a query whose session another session ends runs once more on a new session") {
  // As on the native backend: pg_terminate_backend() from another session (a query of another
  // worker, an administrator) is not the query's doing. The query waits for an advisory lock this
  // test holds, so that it surely runs when its session is ended.
  const postgres_db db("sqlmorph_odbc_dropped");
  const auto engine = odbc_backend();
  const auto conn = must_connect(*engine, db.target());
  const std::string waiting = "SELECT 5 FROM (SELECT pg_advisory_xact_lock_shared(4712)) l";
  const auto pid_of = [](const std::string& waiter) { return waiter.substr(0, waiter.find('@')); };
  query_outcome o;
  SUBCASE("ended once: it runs again and succeeds") {
    const auto waiters = test::pg_stop_waiting_query(db.name, 4712, "pg_terminate_backend", 1,
                                                     [&] { o = conn->execute(waiting, time_limit(120)); });
    INFO(o.message);
    REQUIRE(waiters.size() == 2);
    CHECK(pid_of(waiters[1]) != pid_of(waiters[0]));
    REQUIRE(o.ok());
    CHECK(o.rows.cell(0, 0).as_integer() == 5);
    CHECK(conn->execute("SELECT count(*) FROM items", {}).rows.cell(0, 0).as_integer() == 3);
  }
  SUBCASE("cancelled once: it runs again and succeeds") {
    const auto waiters = test::pg_stop_waiting_query(db.name, 4712, "pg_cancel_backend", 1,
                                                     [&] { o = conn->execute(waiting, time_limit(120)); });
    INFO(o.message);
    REQUIRE(waiters.size() == 2);
    REQUIRE(o.ok());
    CHECK(o.rows.cell(0, 0).as_integer() == 5);
  }
  SUBCASE("ended twice: a backend_error, and the connection stays unusable") {
    const auto waiters = test::pg_stop_waiting_query(db.name, 4712, "pg_terminate_backend", 2,
                                                     [&] { o = conn->execute(waiting, time_limit(120)); });
    INFO(o.message);
    CHECK(waiters.size() == 2);
    CHECK(o.status == query_status::backend_error);
    CHECK(o.message.find("57P01") != std::string::npos);
    CHECK(o.message.find("(run twice: another session had stopped the first run too)") != std::string::npos);
    CHECK(conn->execute("SELECT 1", {}).status == query_status::backend_error);
    // A new connection works.
    CHECK(must_connect(*engine, db.target())->execute("SELECT 1", {}).ok());
  }
}

TEST_CASE("odbc: the backend declares what it guarantees, and the dialect is the DBMS the driver names") {
  const auto fresh = [](std::int64_t login_timeout) {
    return odbc_backend(core::component_spec("odbc").with("login_timeout", login_timeout));
  };
  const auto sqlite_engine = fresh(11);
  const backend_capabilities caps = sqlite_engine->capabilities();
  CHECK(caps.dialect == "odbc");  // nothing connected yet
  CHECK(caps.gate == statement_gate::sdk);
  CHECK_FALSE(caps.checks_without_executing);
  CHECK_FALSE(caps.describes_schema);
  sqlite_file f;
  const auto conn = must_connect(*sqlite_engine, f.target());
  // What it does not declare, the SDK answers for it, whatever the hooks would do.
  const query_outcome checked = conn->check("SELECT 1", {});
  CHECK(checked.status == query_status::backend_error);
  CHECK(checked.message == "this backend cannot check SQL without executing it");
  CHECK(conn->describe_schema({}).status == query_status::backend_error);
  CHECK(sqlite_engine->capabilities().dialect == "sqlite");

  const postgres_db db("sqlmorph_odbc_dialect");
  const auto postgres_engine = fresh(12);
  must_connect(*postgres_engine, db.target());
  CHECK(postgres_engine->capabilities().dialect == "postgresql");

  const auto declared = odbc_backend(core::component_spec("odbc").with("dialect", std::string("duckdb")));
  CHECK(declared->capabilities().dialect == "duckdb");
}
