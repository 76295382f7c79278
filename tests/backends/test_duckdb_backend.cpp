// The DuckDB backend beyond the conformance suite: how every DuckDB type maps to a value, the
// read-only settings in force, missing and foreign files, spilling refused, the library's loading
// and its refusals. Databases are written by the test (duckdb_test_db.hpp), read by the plugin.

#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <thread>
#include <vector>

#include <sqlmorph/backend.hpp>

#include "duckdb_library.hpp"
#include "duckdb_test_db.hpp"
#include "duckdb_values.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

std::shared_ptr<const backend> duckdb(core::component_spec spec = core::component_spec("duckdb")) {
  return test::registry().create<backend>(spec);
}

struct duckdb_file {
  test::temp_dir dir;
  std::filesystem::path file = dir.path() / "db.duckdb";
  explicit duckdb_file(const std::string& sql) { test::create_duckdb(file, sql); }
};

using test::show;

struct expected_cell {
  const char* sql;   // a SELECT expression
  const char* type;  // DuckDB's type name
  const char* cell;  // show() of the value
};

}  // namespace

TEST_CASE("duckdb: every type maps to a value, with DuckDB's type name") {
  const duckdb_file db("CREATE TABLE t(x INTEGER); CREATE TYPE mood AS ENUM ('sad', 'happy');");
  const std::vector<expected_cell> cells = {
      {"true", "BOOLEAN", "integer 1"},
      {"false", "BOOLEAN", "integer 0"},
      {"(-128)::TINYINT", "TINYINT", "integer -128"},
      {"32767::SMALLINT", "SMALLINT", "integer 32767"},
      {"(-2147483648)::INTEGER", "INTEGER", "integer -2147483648"},
      {"9223372036854775807::BIGINT", "BIGINT", "integer 9223372036854775807"},
      {"255::UTINYINT", "UTINYINT", "integer 255"},
      {"65535::USMALLINT", "USMALLINT", "integer 65535"},
      {"4294967295::UINTEGER", "UINTEGER", "integer 4294967295"},
      {"9223372036854775807::UBIGINT", "UBIGINT", "integer 9223372036854775807"},
      // Beyond int64: the exact decimal text.
      {"18446744073709551615::UBIGINT", "UBIGINT", "text 18446744073709551615"},
      {"(-9223372036854775808)::HUGEINT", "HUGEINT", "integer -9223372036854775808"},
      {"170141183460469231731687303715884105727::HUGEINT", "HUGEINT",
       "text 170141183460469231731687303715884105727"},
      {"(-170141183460469231731687303715884105728)::HUGEINT", "HUGEINT",
       "text -170141183460469231731687303715884105728"},
      {"42::UHUGEINT", "UHUGEINT", "integer 42"},
      {"340282366920938463463374607431768211455::UHUGEINT", "UHUGEINT",
       "text 340282366920938463463374607431768211455"},
      // FLOAT through its shortest text: 1.1, not 1.100000023841858.
      {"1.1::FLOAT", "FLOAT", "real 1.1"},
      {"0.1::DOUBLE", "DOUBLE", "real 0.1"},
      {"'inf'::DOUBLE", "DOUBLE", "real inf"},
      // DECIMAL as PostgreSQL's numeric: integral and within int64 exactly, else the nearest double.
      {"12.00::DECIMAL(4,2)", "DECIMAL(4,2)", "integer 12"},
      {"12.50::DECIMAL(4,2)", "DECIMAL(4,2)", "real 12.5"},
      {"(-0.05)::DECIMAL(9,2)", "DECIMAL(9,2)", "real -0.05"},
      {"123456789012.345::DECIMAL(18,3)", "DECIMAL(18,3)", "real 123456789012.345"},
      {"12345678901234567890123.5::DECIMAL(38,1)", "DECIMAL(38,1)", "real 1.2345678901234568e+22"},
      {"7::DECIMAL(38,0)", "DECIMAL(38,0)", "integer 7"},
      {"'héllo'", "VARCHAR", "text héllo"},
      {"'a string longer than twelve bytes'", "VARCHAR", "text a string longer than twelve bytes"},
      {"'\\x00\\xFFA'::BLOB", "BLOB", "blob 00ff41"},
      {"DATE '2024-02-29'", "DATE", "text 2024-02-29"},
      {"DATE '0001-01-01' - 1", "DATE", "text 0001-12-31 (BC)"},
      {"'infinity'::DATE", "DATE", "text infinity"},
      {"TIME '12:34:56.5'", "TIME", "text 12:34:56.5"},
      {"TIMESTAMP '2024-01-02 03:04:05.25'", "TIMESTAMP", "text 2024-01-02 03:04:05.25"},
      {"TIMESTAMP '1969-12-31 23:59:59'", "TIMESTAMP", "text 1969-12-31 23:59:59"},
      {"'-infinity'::TIMESTAMP", "TIMESTAMP", "text -infinity"},
      {"TIMESTAMP_S '2024-01-02 03:04:05'", "TIMESTAMP_S", "text 2024-01-02 03:04:05"},
      {"TIMESTAMP_MS '2024-01-02 03:04:05.120'", "TIMESTAMP_MS", "text 2024-01-02 03:04:05.12"},
      {"TIMESTAMP_NS '2024-01-02 03:04:05.123456789'", "TIMESTAMP_NS", "text 2024-01-02 03:04:05.123456789"},
      // In UTC, whatever the session's time zone.
      {"TIMESTAMPTZ '2024-01-02 03:04:05.5+00'", "TIMESTAMP WITH TIME ZONE", "text 2024-01-02 03:04:05.5+00"},
      {"INTERVAL '1 year 2 months 3 days 04:05:06.5'", "INTERVAL", "text P1Y2M3DT4H5M6.5S"},
      {"INTERVAL '-90 minutes'", "INTERVAL", "text PT-1H-30M"},
      {"INTERVAL 0 DAYS", "INTERVAL", "text PT0S"},
      {"UUID '550e8400-e29b-41d4-a716-446655440000'", "UUID", "text 550e8400-e29b-41d4-a716-446655440000"},
      {"UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff'", "UUID", "text ffffffff-ffff-ffff-ffff-ffffffffffff"},
      {"UUID '00000000-0000-0000-0000-000000000000'", "UUID", "text 00000000-0000-0000-0000-000000000000"},
      {"'happy'::mood", "ENUM", "text happy"},
      {"'b'::ENUM('a', 'b')", "ENUM", "text b"},
      // Nested values as JSON text.
      {"[1, 2, NULL]", "INTEGER[]", "text [1, 2, null]"},
      {"[]::INTEGER[]", "INTEGER[]", "text []"},
      {"[[1], [2, 3]]", "INTEGER[][]", "text [[1], [2, 3]]"},
      {"['a\"b', NULL]", "VARCHAR[]", "text [\"a\\\"b\", null]"},
      {"[1, 2]::INTEGER[2]", "INTEGER[2]", "text [1, 2]"},
      {"{'a': 1, 'B c': 'x', 'd': [DATE '2024-01-01']}", "STRUCT(a INTEGER, \"B c\" VARCHAR, d DATE[])",
       "text {\"a\": 1, \"B c\": \"x\", \"d\": [\"2024-01-01\"]}"},
      {"MAP {'k': 1.5, 'l': NULL}", "MAP(VARCHAR, DECIMAL(2,1))", "text {\"k\": 1.5, \"l\": null}"},
      {"MAP {1: true}", "MAP(INTEGER, BOOLEAN)", "text {\"1\": true}"},
      {"[true, false]", "BOOLEAN[]", "text [true, false]"},
      {"[1.5::DOUBLE, 'nan'::DOUBLE]", "DOUBLE[]", "text [1.5, \"nan\"]"},
      {"[12345678901234567890::HUGEINT]", "HUGEINT[]", "text [12345678901234567890]"},
      {"[UUID '550e8400-e29b-41d4-a716-446655440000']", "UUID[]",
       "text [\"550e8400-e29b-41d4-a716-446655440000\"]"},
      {"['\\x00A'::BLOB]", "BLOB[]", "text [\"\\\\x00A\"]"},
      {"NULL::INTEGER", "INTEGER", "null"},
      {"NULL::INTEGER[]", "INTEGER[]", "null"},
      {"NULL::VARCHAR", "VARCHAR", "null"},
  };
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE_MESSAGE(c.conn != nullptr, c.message);
  for (const expected_cell& e : cells) {
    const std::string sql = std::string("SELECT ") + e.sql + " AS v";
    CAPTURE(sql);
    const query_outcome o = c.conn->execute(sql, {});
    INFO(o.message);
    REQUIRE(o.ok());
    REQUIRE(o.rows.row_count() == 1);
    CHECK(o.rows.column_types().at(0) == e.type);
    CHECK(show(o.rows.cell(0, 0)) == e.cell);
  }
}

TEST_CASE("duckdb: dates, times and timestamps read as DuckDB itself prints them") {
  const duckdb_file db("CREATE TABLE t(x INTEGER);");
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  // A spread of values, each beside DuckDB's own text of it.
  const query_outcome o = c.conn->execute(
      "SELECT d, d::VARCHAR, t, t::VARCHAR, ts, ts::VARCHAR FROM (SELECT DATE '1970-01-01' + (i * 7919 - "
      "400000)::INTEGER "
      "AS d, TIME '00:00:00' + INTERVAL (i * 7777777) MICROSECONDS AS t, TIMESTAMP '1970-01-01' + INTERVAL "
      "(i * "
      "123456789123 - 10000000000000000) MICROSECONDS AS ts FROM range(200) r(i))",
      {});
  INFO(o.message);
  REQUIRE(o.ok());
  REQUIRE(o.rows.row_count() == 200);
  for (std::size_t r = 0; r < o.rows.row_count(); ++r) {
    for (std::size_t c2 = 0; c2 < 6; c2 += 2) {
      CAPTURE(r);
      CHECK(o.rows.cell(r, c2).bytes() == o.rows.cell(r, c2 + 1).bytes());
    }
  }
}

TEST_CASE("duckdb: the text forms of dates, times and intervals") {
  using namespace duckdb_backend;
  CHECK(date_text(0) == "1970-01-01");
  CHECK(date_text(-1) == "1969-12-31");
  CHECK(date_text(19782) == "2024-02-29");
  CHECK(date_text(-719162) == "0001-01-01");
  CHECK(date_text(-719163) == "0001-12-31 (BC)");
  CHECK(date_text(2932897) == "10000-01-01");
  CHECK(time_text(0) == "00:00:00");
  CHECK(time_text(86'399'999'999) == "23:59:59.999999");
  CHECK(time_text(1'000) == "00:00:00.001");
  CHECK(interval_text({14, 3, 0}) == "P1Y2M3D");
  CHECK(interval_text({0, 0, 1'500'000}) == "PT1.5S");
  CHECK(interval_text({-1, -2, -3'600'000'000}) == "P-1M-2DT-1H");
  CHECK(interval_text({0, 0, 0}) == "PT0S");
}

TEST_CASE("duckdb: connections run with DuckDB's read-only settings, locked") {
  const duckdb_file db("CREATE TABLE t(x INTEGER);");
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->execute(
      "SELECT current_setting('access_mode'), current_setting('enable_external_access'), "
      "current_setting('autoinstall_known_extensions'), current_setting('autoload_known_extensions'), "
      "current_setting('lock_configuration'), current_setting('threads'), "
      "current_setting('max_temp_directory_size')",
      {});
  INFO(o.message);
  REQUIRE(o.ok());
  CHECK(show(o.rows.cell(0, 0)) == "text read_only");
  CHECK(show(o.rows.cell(0, 1)) == "integer 0");
  CHECK(show(o.rows.cell(0, 2)) == "integer 0");
  CHECK(show(o.rows.cell(0, 3)) == "integer 0");
  CHECK(show(o.rows.cell(0, 4)) == "integer 1");
  CHECK(show(o.rows.cell(0, 5)) == "integer 1");
  CHECK(show(o.rows.cell(0, 6)) == "text 0 bytes");
  CHECK(show(o.rows.cell(0, 7)) == "null");  // no temporary folder
  CHECK(c.conn->execute("SELECT * FROM duckdb_settings()", {}).ok());
}

TEST_CASE(
    "duckdb: a query that needs more memory than memory_limit fails, and nothing is spilled beside the "
    "database") {
  const duckdb_file db("CREATE TABLE t(x INTEGER);");
  const std::string before = test::folder_fingerprint(db.file);
  connect_outcome c = duckdb(core::component_spec("duckdb").with("memory_limit", std::string("64MB")))
                          ->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->execute(
      "SELECT length(string_agg(repeat('x', 100) || x::VARCHAR, ',')) FROM range(5000000) r(x)", {});
  INFO(o.message);
  CHECK(o.status == query_status::error);
  CHECK(o.message.find("emory") != std::string::npos);
  CHECK(test::folder_fingerprint(db.file) == before);
  // A query DuckDB would spill to disk (a folder beside the database by default).
  std::atomic<bool> done{false};
  std::atomic<bool> spilled{false};
  std::thread watcher([&] {
    while (!done.load()) {
      for (const auto& e : std::filesystem::directory_iterator(db.dir.path()))
        if (e.path() != db.file) spilled.store(true);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  const query_outcome big = c.conn->execute(
      "SELECT count(*) FROM (SELECT x, string_agg(x::VARCHAR || repeat('x', 20), ',') FROM range(20000000) "
      "r(x) GROUP "
      "BY x)",
      {});
  done.store(true);
  watcher.join();
  INFO(big.message);
  CHECK_FALSE(spilled.load());
  c.conn.reset();
  CHECK(test::folder_fingerprint(db.file) == before);
}

TEST_CASE(
    "duckdb: a missing database is db_missing and never created, and a foreign file is refused unchanged") {
  test::temp_dir dir;
  const auto missing = dir.path() / "nope.duckdb";
  connect_outcome c = duckdb()->connect(missing.string());
  CHECK(c.conn == nullptr);
  CHECK(c.status == query_status::db_missing);
  CHECK(c.message == "database not found: " + missing.string());
  CHECK_FALSE(std::filesystem::exists(missing));

  c = duckdb()->connect(dir.path().string());
  CHECK(c.status == query_status::backend_error);
  CHECK(c.message.find("not a database file") != std::string::npos);

  const auto sqlite = dir.path() / "shop.sqlite";
  test::create_sqlite(sqlite, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
  const std::string before = test::folder_fingerprint(sqlite);
  c = duckdb()->connect(sqlite.string());
  INFO(c.message);
  CHECK(c.conn == nullptr);
  CHECK(c.status == query_status::backend_error);
  CHECK(c.message.find("cannot open " + sqlite.string()) == 0);
  CHECK(test::folder_fingerprint(sqlite) == before);
}

TEST_CASE("duckdb: a column of a type the backend does not read is refused with how to cast it") {
  const duckdb_file db("CREATE TABLE t(x INTEGER);");
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  query_outcome o = c.conn->execute("SELECT '101'::BIT AS b", {});
  CHECK(o.status == query_status::error);
  CHECK(
      o.message ==
      "column 'b' is of DuckDB type BIT, which the DuckDB backend does not read: cast it in the query, e.g. "
      "CAST(b AS VARCHAR)");
  o = c.conn->execute("SELECT ['101'::BIT] AS l", {});
  CHECK(o.message.find("BIT[], which the DuckDB backend does not read (because of the BIT inside)") !=
        std::string::npos);
  CHECK(c.conn->execute("SELECT CAST('101'::BIT AS VARCHAR) AS b", {}).ok());
}

TEST_CASE("duckdb: describe_schema gives the CREATE statements of the tables and views") {
  const duckdb_file db(
      "CREATE TABLE a(id INTEGER PRIMARY KEY, name VARCHAR NOT NULL); CREATE TABLE b(id INTEGER REFERENCES "
      "a(id)); "
      "CREATE VIEW v AS SELECT name FROM a;");
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->describe_schema({});
  INFO(o.message);
  REQUIRE(o.ok());
  CHECK(o.message.find("CREATE TABLE a(id INTEGER PRIMARY KEY") != std::string::npos);
  CHECK(o.message.find("FOREIGN KEY") != std::string::npos);
  CHECK(o.message.find("CREATE VIEW v AS SELECT") != std::string::npos);
  CHECK(o.message.find(";;") == std::string::npos);
}

TEST_CASE("duckdb: the time limit interrupts a long query inside DuckDB") {
  const duckdb_file db("CREATE TABLE t(x INTEGER);");
  connect_outcome c = duckdb()->connect(db.file.string());
  REQUIRE(c.conn != nullptr);
  exec_limits limits;
  limits.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const query_outcome o =
      c.conn->execute("SELECT count(*) FROM range(1000000000000) a(x) WHERE x % 7 = 3", limits);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(o.status == query_status::timeout);
  CHECK(o.message == "exceeded the time limit of 0.5 s (interrupted by DuckDB)");
  CHECK(took < 10);
  // The next query is not disturbed by the interrupt.
  CHECK(c.conn->execute("SELECT 1", limits).ok());
}

TEST_CASE("duckdb: a missing library, or one that is not DuckDB's, is refused with how to get it") {
  const auto message = [](const std::string& library) {
    return test::usage_error_of([&] { duckdb(core::component_spec("duckdb").with("library", library)); });
  };
  std::string m = message("/nonexistent/libduckdb.so");
  CAPTURE(m);
  CHECK(m.find("DuckDB's library /nonexistent/libduckdb.so does not exist") != std::string::npos);
  CHECK(m.find("make deps") != std::string::npos);
  CHECK(m.find("@duckdb/node-bindings-linux-x64@") != std::string::npos);

  m = message("libsqlmorph-no-such-duckdb.so");
  CHECK(m.find("cannot load DuckDB's library libsqlmorph-no-such-duckdb.so") != std::string::npos);
  CHECK(m.find("make deps") != std::string::npos);

  // A real library without DuckDB's symbols.
  const std::string plugin = (test::plugin_dir() / "sqlmorph_backend_sqlite.so").string();
  m = message(plugin);
  CHECK(m.find("is not a usable DuckDB C API library: it has no duckdb_library_version") !=
        std::string::npos);
  CHECK(m.find("make deps") != std::string::npos);

  // The library the build put beside the plugins loads, and is the pinned version.
  const auto lib = duckdb_api::library::load(test::duckdb_library_path().string());
  CHECK(lib->version() == "v1.5.6");
  int major = 0;
  int minor = 0;
  CHECK(duckdb_api::parse_version("v1.5.6", major, minor));
  CHECK((major == 1 && minor == 5));
  CHECK_FALSE(duckdb_api::parse_version("unknown", major, minor));
}

TEST_CASE(
    "duckdb: connections to one file work side by side from several threads, cancel stops only its own") {
  const duckdb_file db("CREATE TABLE t AS SELECT range AS x FROM range(100000);");
  const std::string before = test::folder_fingerprint(db.file);
  const auto b = duckdb();
  std::vector<std::unique_ptr<connection>> conns;
  for (int i = 0; i < 4; ++i) {
    connect_outcome c = b->connect(db.file.string());
    REQUIRE_MESSAGE(c.conn != nullptr, c.message);
    conns.push_back(std::move(c.conn));
  }
  std::vector<std::string> sums(conns.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < conns.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 20; ++k) {
        const query_outcome o =
            conns[i]->execute("SELECT sum(x) FROM t WHERE x % 4 = " + std::to_string(i), {});
        sums[i] = o.ok() ? show(o.rows.cell(0, 0)) : o.message;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(sums[0] == "integer 1249950000");
  CHECK(sums[3] == "integer 1250025000");

  // A cancel on one connection stops its statement, not the other's.
  exec_limits no_limit;
  no_limit.timeout_seconds = 0;
  query_outcome cancelled;
  query_outcome other;
  std::thread a([&] {
    cancelled = conns[0]->execute("SELECT count(*) FROM range(1000000000000) r(x) WHERE x % 7 = 3", no_limit);
  });
  std::thread o([&] { other = conns[1]->execute("SELECT count(*) FROM t", no_limit); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  conns[0]->cancel();
  a.join();
  o.join();
  CHECK(cancelled.status == query_status::error);
  CHECK(cancelled.message == "cancelled");
  CHECK(other.ok());
  conns.clear();
  CHECK(test::folder_fingerprint(db.file) == before);
}

TEST_CASE("duckdb: sqlmorph compare runs gold and prediction on a DuckDB file with --backend duckdb") {
  const duckdb_file db(
      "CREATE TABLE items(id INTEGER, name VARCHAR, price DECIMAL(6,2)); INSERT INTO items VALUES (1, "
      "'apple', "
      "1.50), (2, 'pear', 2.00);");
  const std::string before = test::folder_fingerprint(db.file);
  auto r = test::run_sqlmorph({"compare", "--db", db.file.string(), "--backend", "duckdb", "--gold",
                               "SELECT name FROM items WHERE price < 2", "--pred",
                               "SELECT name FROM items ORDER BY id LIMIT 1"});
  INFO(r.out, r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("execution_accuracy                -         ok           1") != std::string::npos);
  r = test::run_sqlmorph({"compare", "--db", db.file.string(), "--backend", "duckdb", "--gold", "SELECT 1",
                          "--pred", "SELECT * FROM read_csv('/etc/passwd')"});
  CHECK(r.out.find("pred_error") != std::string::npos);
  CHECK(r.out.find("Permission Error: Cannot access file \"/etc/passwd\"") != std::string::npos);
  CHECK(test::folder_fingerprint(db.file) == before);
}
