// The PostgreSQL backend on the throwaway test cluster: the type mapping, refusing superusers,
// untrusted SQL that can never change the data, time limits, cancel, caps, and sessions that the
// server closes.

#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <thread>

#include <sqlmorph/backend.hpp>

#include "test_support.hpp"

using namespace sqlmorph;

namespace {

using clock_type = std::chrono::steady_clock;

constexpr const char* reader = "sqlmorph_reader";

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

std::shared_ptr<const backend> postgres_backend(bool allow_superuser) {
  return test::registry().create<backend>(
      core::component_spec("postgres").with("allow_superuser", allow_superuser));
}

// A database of its own per test case (ctest runs test cases in parallel processes).
struct pg_database {
  std::string name;

  explicit pg_database(std::string db, const std::string& schema = "") : name(std::move(db)) {
    test::pg_recreate_database(name);
    if (!schema.empty()) test::pg_exec(name, schema);
    test::pg_grant_reader(name);
  }

  // Connects as `user` (the reader by default; the superuser with allow_superuser).
  std::unique_ptr<connection> connect(const std::string& user = reader, const std::string& extra = "") const {
    const bool superuser = user == test::postgres().superuser;
    connect_outcome c = postgres_backend(superuser)->connect(test::postgres().conninfo(name, user) + extra);
    INFO(c.message);
    REQUIRE(c.conn != nullptr);
    return std::move(c.conn);
  }
};

query_outcome run(connection& conn, std::string_view sql, const exec_limits& limits = {}) {
  return conn.execute(sql, limits);
}

std::int64_t single_integer(connection& conn, std::string_view sql) {
  const query_outcome o = run(conn, sql);
  INFO(sql, " -> ", o.message);
  REQUIRE(o.ok());
  REQUIRE(o.rows.row_count() == 1);
  REQUIRE(o.rows.cell(0, 0).kind() == value_kind::integer);
  return o.rows.cell(0, 0).as_integer();
}

// The peak resident memory of this process so far (VmHWM), in bytes.
std::size_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:  1234 kB"
  }
  return 0;
}

// What one cell must be: its kind and value (text and blob bytes, integers and reals exactly).
struct expected_cell {
  value_kind kind;
  std::int64_t integer = 0;
  double real = 0;
  std::string bytes;
};
expected_cell null_cell() {
  return {value_kind::null, 0, 0, {}};
}
expected_cell int_cell(std::int64_t i) {
  return {value_kind::integer, i, 0, {}};
}
expected_cell real_cell(double d) {
  return {value_kind::real, 0, d, {}};
}
expected_cell text_cell(std::string s) {
  return {value_kind::text, 0, 0, std::move(s)};
}
expected_cell blob_cell(std::string s) {
  return {value_kind::blob, 0, 0, std::move(s)};
}

void check_cell(const value& v, const expected_cell& e) {
  REQUIRE(v.kind() == e.kind);
  switch (e.kind) {
    case value_kind::integer:
      CHECK(v.as_integer() == e.integer);
      break;
    case value_kind::real:
      if (std::isnan(e.real)) {
        CHECK(std::isnan(v.as_real()));
      } else {
        CHECK(v.as_real() == e.real);
        CHECK(std::signbit(v.as_real()) == std::signbit(e.real));
      }
      break;
    case value_kind::text:
    case value_kind::blob:
      CHECK(std::string(v.bytes()) == e.bytes);
      break;
    case value_kind::null:
      break;
  }
}

// Restarts a process stopped with SIGSTOP when the test ends, whatever happens.
struct continue_on_exit {
  pid_t pid;
  ~continue_on_exit() { ::kill(pid, SIGCONT); }
};

}  // namespace

TEST_CASE("postgres: every row of the type mapping table") {
  const pg_database db("sqlmorph_pg_types");
  // TimeZone through the connection string: the target's options are kept beside the backend's.
  auto conn = db.connect(reader, " options='-c TimeZone=UTC'");
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct row {
    const char* expression;
    const char* type;
    expected_cell expected;
  };
  const row table[] = {
      // integers
      {"1::int2", "int2", int_cell(1)},
      {"(-32768)::int2", "int2", int_cell(-32768)},
      {"(-2147483648)::int4", "int4", int_cell(-2147483648LL)},
      {"9223372036854775807::int8", "int8", int_cell(std::numeric_limits<std::int64_t>::max())},
      {"'-9223372036854775808'::int8", "int8", int_cell(std::numeric_limits<std::int64_t>::min())},
      {"4294967295::oid", "oid", int_cell(4294967295LL)},
      // numeric: exact integers when integral and within int64, otherwise the nearest double
      {"42::numeric", "numeric", int_cell(42)},
      {"12.000::numeric", "numeric", int_cell(12)},
      {"(-7.00)::numeric", "numeric", int_cell(-7)},
      {"(-0.000)::numeric", "numeric", int_cell(0)},
      {"9223372036854775807::numeric", "numeric", int_cell(std::numeric_limits<std::int64_t>::max())},
      {"(-9223372036854775808)::numeric", "numeric", int_cell(std::numeric_limits<std::int64_t>::min())},
      {"9223372036854775808::numeric", "numeric", real_cell(9223372036854775808.0)},
      {"1.5::numeric", "numeric", real_cell(1.5)},
      {"0.1::numeric", "numeric", real_cell(0.1)},
      {"(-2.50)::numeric", "numeric", real_cell(-2.5)},
      {"avg(x) FROM (VALUES (1), (2)) v(x)", "numeric", real_cell(1.5)},
      {"avg(x) FROM (VALUES (1), (3)) v(x)", "numeric", int_cell(2)},
      {"12345678901234567890.5::numeric", "numeric", real_cell(12345678901234567890.5)},
      {"'1e400'::numeric", "numeric", real_cell(inf)},
      {"'-1e400'::numeric", "numeric", real_cell(-inf)},
      {"'1e-400'::numeric", "numeric", real_cell(0.0)},
      {"'NaN'::numeric", "numeric", real_cell(nan)},
      {"'Infinity'::numeric", "numeric", real_cell(inf)},
      {"'-Infinity'::numeric", "numeric", real_cell(-inf)},
      // floats: round-trip digits, infinities and NaN
      {"1.5::float8", "float8", real_cell(1.5)},
      {"0.1::float8", "float8", real_cell(0.1)},
      {"(1.0 / 3)::float8", "float8", real_cell(1.0 / 3)},
      {"1e300::float8", "float8", real_cell(1e300)},
      {"'-0'::float8", "float8", real_cell(-0.0)},
      {"'Infinity'::float8", "float8", real_cell(inf)},
      {"'-Infinity'::float8", "float8", real_cell(-inf)},
      {"'NaN'::float8", "float8", real_cell(nan)},
      {"0.1::float4", "float4", real_cell(0.1)},
      {"'Infinity'::float4", "float4", real_cell(inf)},
      // booleans as SQLite stores them
      {"true", "bool", int_cell(1)},
      {"false", "bool", int_cell(0)},
      {"1 < 2", "bool", int_cell(1)},
      // character types
      {"'h\xc3\xa9llo'::text", "text", text_cell("h\xc3\xa9llo")},
      {"''::text", "text", text_cell("")},
      {"'ab'::varchar(5)", "varchar", text_cell("ab")},
      {"'ab'::char(4)", "bpchar", text_cell("ab  ")},
      {"'ab'::name", "name", text_cell("ab")},
      {"'a'::\"char\"", "char", text_cell("a")},
      {"'untyped'", "text", text_cell("untyped")},
      // bytea (hex output decoded)
      {"'\\x00ff41'::bytea", "bytea",
       blob_cell(std::string("\x00\xff"
                             "A",
                             3))},
      {"''::bytea", "bytea", blob_cell("")},
      {"decode('5c78', 'hex')", "bytea", blob_cell("\\x")},
      // temporal types in ISO form
      {"date '2024-02-29'", "date", text_cell("2024-02-29")},
      {"time '13:14:15.5'", "time", text_cell("13:14:15.5")},
      {"timetz '13:14:15+02'", "timetz", text_cell("13:14:15+02")},
      {"timestamp '2024-02-29 13:14:15'", "timestamp", text_cell("2024-02-29 13:14:15")},
      {"timestamptz '2024-02-29 13:14:15.25+02'", "timestamptz", text_cell("2024-02-29 11:14:15.25+00")},
      {"interval '1 day 2 hours 3.5 seconds'", "interval", text_cell("P1DT2H3.5S")},
      {"interval '-1 year'", "interval", text_cell("P-1Y")},
      // everything else: the text PostgreSQL prints
      {"'{\"a\": [1, 2]}'::json", "json", text_cell("{\"a\": [1, 2]}")},
      {"'{\"b\":1, \"a\":2}'::jsonb", "jsonb", text_cell("{\"a\": 2, \"b\": 1}")},
      {"'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid", "uuid",
       text_cell("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")},
      {"ARRAY[1, 2, 3]", "", text_cell("{1,2,3}")},
      {"ARRAY['a b', NULL]", "", text_cell("{\"a b\",NULL}")},
      {"'10.1.2.3/8'::inet", "inet", text_cell("10.1.2.3/8")},
      {"ROW(1, 'x')", "record", text_cell("(1,x)")},
      {"B'101'", "bit", text_cell("101")},
      // NULL of any type
      {"NULL::int4", "int4", null_cell()},
      {"NULL::text", "text", null_cell()},
      {"NULL::bytea", "bytea", null_cell()},
      {"NULL::numeric", "numeric", null_cell()},
  };
  for (const row& r : table) {
    const std::string sql = std::string("SELECT ") + r.expression;
    CAPTURE(sql);
    const query_outcome o = run(*conn, sql);
    INFO(o.message);
    REQUIRE(o.ok());
    REQUIRE(o.rows.row_count() == 1);
    REQUIRE(o.rows.column_count() == 1);
    CHECK(o.rows.column_types()[0] == r.type);
    check_cell(o.rows.cell(0, 0), r.expected);
  }

  // Column names as PostgreSQL gives them; several rows and columns; zero rows keep the columns.
  const query_outcome named = run(*conn, "SELECT 1 AS one, 'x' AS \"Two Words\", 2 + 2, NULL AS n");
  REQUIRE(named.ok());
  CHECK(named.rows.column_names() == std::vector<std::string>{"one", "Two Words", "?column?", "n"});
  const query_outcome many = run(*conn, "SELECT i, i::text FROM generate_series(1, 5) AS g(i) ORDER BY 1");
  INFO(many.message);
  REQUIRE(many.ok());
  CHECK(many.rows.row_count() == 5);
  CHECK(many.rows.cell(4, 0).as_integer() == 5);
  CHECK(many.rows.cell(4, 1).bytes() == "5");
  const query_outcome none = run(*conn, "SELECT 1 AS a, 'b'::text AS b WHERE false");
  REQUIRE(none.ok());
  CHECK(none.rows.row_count() == 0);
  CHECK(none.rows.column_names() == std::vector<std::string>{"a", "b"});
  CHECK(none.rows.column_types() == std::vector<std::string>{"int4", "text"});

  // The session settings the mapping relies on.
  const query_outcome settings =
      run(*conn,
          "SELECT current_setting('DateStyle'), current_setting('IntervalStyle'), "
          "current_setting('client_encoding'), current_setting('extra_float_digits'), "
          "current_setting('transaction_read_only'), "
          "current_setting('default_transaction_read_only'), current_setting('TimeZone'), "
          "current_setting('application_name')");
  REQUIRE(settings.ok());
  const char* expected_settings[] = {"ISO, YMD", "iso_8601", "UTF8", "3", "on", "on", "UTC", "sqlmorph"};
  for (std::size_t c = 0; c < 8; ++c) CHECK(settings.rows.cell(0, c).bytes() == expected_settings[c]);
}

TEST_CASE("postgres: a missing database is db_missing and other connection failures are backend_error") {
  const auto engine = postgres_backend(true);
  const connect_outcome missing = engine->connect(test::postgres().conninfo("sqlmorph_pg_does_not_exist"));
  CHECK(missing.conn == nullptr);
  CHECK(missing.status == query_status::db_missing);
  CHECK(missing.message.find("database \"sqlmorph_pg_does_not_exist\" does not exist") != std::string::npos);

  const connect_outcome no_server = engine->connect("host=/nonexistent/sqlmorph dbname=x");
  CHECK(no_server.conn == nullptr);
  CHECK(no_server.status == query_status::backend_error);
  CHECK(no_server.message.find("/nonexistent/sqlmorph") != std::string::npos);

  const connect_outcome no_role =
      engine->connect(test::postgres().conninfo("postgres", "sqlmorph_pg_nobody"));
  CHECK(no_role.status == query_status::backend_error);
  CHECK(no_role.message.find("role \"sqlmorph_pg_nobody\" does not exist") != std::string::npos);

  const connect_outcome malformed = engine->connect("host=");
  CHECK(malformed.status == query_status::backend_error);
  const connect_outcome unknown = engine->connect("nonsense=1");
  CHECK(unknown.status == query_status::backend_error);
  CHECK(unknown.message.find("invalid PostgreSQL connection string") != std::string::npos);
  CHECK(unknown.message.find("nonsense") != std::string::npos);

  // A URI works as well as key=value.
  const auto& pg = test::postgres();
  connect_outcome uri = engine->connect("postgresql:///postgres?host=" + pg.host +
                                        "&port=" + std::to_string(pg.port) + "&user=" + pg.superuser);
  INFO(uri.message);
  REQUIRE(uri.conn != nullptr);
  CHECK(single_integer(*uri.conn, "SELECT 7") == 7);
}

TEST_CASE("postgres: superusers and roles that reach server files are refused unless allowed") {
  const pg_database db("sqlmorph_pg_roles", "CREATE TABLE t(a int); INSERT INTO t VALUES (1)");
  const auto& pg = test::postgres();
  const connect_outcome refused = postgres_backend(false)->connect(pg.conninfo(db.name, pg.superuser));
  CHECK(refused.conn == nullptr);
  CHECK(refused.status == query_status::backend_error);
  CHECK(refused.message.find("'" + pg.superuser + "'") != std::string::npos);
  CHECK(refused.message.find("it is a superuser") != std::string::npos);
  CHECK(refused.message.find("COPY ... TO PROGRAM") != std::string::npos);
  CHECK(refused.message.find("allow_superuser") != std::string::npos);

  connect_outcome allowed = postgres_backend(true)->connect(pg.conninfo(db.name, pg.superuser));
  REQUIRE(allowed.conn != nullptr);
  CHECK(single_integer(*allowed.conn, "SELECT count(*) FROM t") == 1);

  // Roles that are no superusers but members of a predefined role that reaches too far.
  struct member {
    const char* role;
    const char* of;
    const char* why;  // a fragment of the refusal
  };
  const member members[] = {
      {"sqlmorph_pg_filereader", "pg_read_server_files", "member of 'pg_read_server_files'"},
      {"sqlmorph_pg_signaller", "pg_signal_backend",
       "it is a member of 'pg_signal_backend', so a query could cancel or terminate the sessions of every "
       "other role"},
  };
  for (const member& m : members) {
    CAPTURE(m.role);
    test::pg_exec("postgres",
                  std::string("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '") + m.role +
                      "') THEN CREATE ROLE " + m.role + " LOGIN; END IF; END $$; GRANT " + m.of + " TO " +
                      m.role);
    const connect_outcome refused_member = postgres_backend(false)->connect(pg.conninfo(db.name, m.role));
    CHECK(refused_member.conn == nullptr);
    CHECK(refused_member.status == query_status::backend_error);
    CHECK(refused_member.message.find(m.why) != std::string::npos);
  }

  // The read-only role is accepted.
  connect_outcome ok = postgres_backend(false)->connect(pg.conninfo(db.name, reader));
  INFO(ok.message);
  REQUIRE(ok.conn != nullptr);
  CHECK(single_integer(*ok.conn, "SELECT count(*) FROM t") == 1);
}

TEST_CASE("postgres: untrusted SQL can never change the data, even as a superuser") {
  const pg_database db("sqlmorph_pg_attacks",
                       "CREATE TABLE t(id int PRIMARY KEY, name text); "
                       "INSERT INTO t VALUES (1, 'apple'), (2, 'pear'), (3, 'plum'); "
                       "CREATE SEQUENCE s; "
                       "CREATE FUNCTION wipe() RETURNS int LANGUAGE plpgsql AS "
                       "$$ BEGIN DELETE FROM t; RETURN 0; END $$;");
  const std::string checksum_sql = "SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM t";
  const std::string before = test::pg_value(db.name, checksum_sql);
  // In /tmp, where the server's system user could write it, and of this process only (test runs of
  // other checkouts may run at the same time).
  const std::filesystem::path probe = "/tmp/sqlmorph_pg_copy_probe-" + std::to_string(::getpid());
  std::filesystem::remove(probe);

  struct attack {
    std::string sql;
    std::string message;  // a fragment of the expected message
  };
  const std::string gate = "only a query may be executed";
  const attack everyone[] = {
      {"DROP TABLE t", gate + " (SELECT, WITH, VALUES or TABLE), not a statement starting with 'DROP'"},
      {"DELETE FROM t", gate},
      {"UPDATE t SET name = 'x'", gate},
      {"CREATE TABLE u(x int)", gate},
      {"INSERT INTO t VALUES (9, 'fig')", gate},
      {"TRUNCATE t", gate},
      {"COPY (SELECT 1) TO PROGRAM 'touch " + probe.string() + "'", gate},
      {"SET ROLE " + test::postgres().superuser, gate},
      {"SET default_transaction_read_only = off", gate},
      {"BEGIN", gate},
      {"COMMIT", gate},
      {"SELECT 1; DELETE FROM t", "several statements"},
      {"SELECT 1; COMMIT; DELETE FROM t", "several statements"},
      {"select 1 /* ; */; delete from t", "several statements"},
      {"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
       "cannot execute SELECT in a read-only transaction (the evaluation runs"},
      {"WITH u AS (UPDATE t SET name = 'x' RETURNING *) SELECT * FROM u",
       "cannot execute SELECT in a read-only transaction"},
      {"WITH i AS (INSERT INTO t VALUES (9, 'fig') RETURNING *) SELECT * FROM i",
       "cannot execute SELECT in a read-only transaction"},
      {"SELECT * INTO u FROM t", "cannot execute SELECT INTO in a read-only transaction"},
      {"SELECT wipe()", "cannot execute DELETE in a read-only transaction"},
      {"SELECT set_config('transaction_read_only', 'off', false)", "read-write"},
      {"SELECT * FROM t FOR UPDATE", "cannot execute SELECT FOR UPDATE in a read-only transaction"},
  };
  const attack superuser_only[] = {
      {"SELECT nextval('s')", "cannot execute nextval() in a read-only transaction"},
      {"SELECT setval('s', 42)", "cannot execute setval() in a read-only transaction"},
  };

  const auto try_all = [&](connection& conn, std::span<const attack> attacks) {
    for (const attack& a : attacks) {
      CAPTURE(a.sql);
      const query_outcome o = run(conn, a.sql);
      INFO(o.message);
      CHECK(o.status == query_status::error);
      CHECK(o.message.find(a.message) != std::string::npos);
      CHECK(o.rows.row_count() == 0);
      // The connection goes on answering, and nothing changed.
      CHECK(single_integer(conn, "SELECT count(*) FROM t") == 3);
      CHECK(test::pg_value(db.name, checksum_sql) == before);
    }
  };
  // As the read-only role these attacks (and more) are cases of the conformance suite
  // (tests/cases/backend/hostile.toml); here they run as a superuser, with allow_superuser: the
  // gate and the read-only transaction stop them without the role's grants.
  auto conn = db.connect(test::postgres().superuser);
  try_all(*conn, everyone);
  try_all(*conn, superuser_only);
  CHECK(test::pg_value(db.name, checksum_sql) == before);
  CHECK(test::pg_value(db.name, "SELECT last_value FROM s") == "1");
  CHECK(test::pg_value(db.name, "SELECT count(*) FROM pg_tables WHERE tablename = 'u'") == "0");
  CHECK_FALSE(std::filesystem::exists(probe));
}

TEST_CASE("postgres: a server that ignores the time limit is cancelled and then given up by the client") {
  const pg_database db("sqlmorph_pg_frozen");
  auto conn = db.connect();
  const auto pid = static_cast<pid_t>(single_integer(*conn, "SELECT pg_backend_pid()"));
  REQUIRE(pid > 1);  // kill(0, ...) would stop this test's own process group
  // Freeze the server process in the middle of the query: neither statement_timeout nor a cancel
  // request can stop it now.
  continue_on_exit resume{pid};
  std::thread freezer([pid] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(pid, SIGSTOP);
  });
  exec_limits limits;
  limits.timeout_seconds = 1;
  const auto start = clock_type::now();
  const query_outcome o = conn->execute("SELECT pg_sleep(1e6)", limits);
  const double seconds = seconds_since(start);
  freezer.join();
  ::kill(pid, SIGCONT);
  CHECK(o.status == query_status::timeout);
  CHECK(o.message.find(
            "exceeded the time limit of 1 s (the server ignored statement_timeout and the cancel request") ==
        0);
  CHECK(seconds >= 1.4);
  CHECK(seconds < 40.0);  // generous: proves it stopped, not how fast (about 3.5 s: limit, grace, give-up)
  // The session was given up; the next query opens a new one.
  CHECK(single_integer(*conn, "SELECT 1") == 1);
  CHECK(single_integer(*conn, "SELECT pg_backend_pid()") != pid);
}

TEST_CASE("postgres: row and byte caps cut a huge result quickly in bounded memory") {
  const pg_database db("sqlmorph_pg_caps");
  auto conn = db.connect();
  const std::string cross =
      " FROM generate_series(1, 3000) a(i), generate_series(1, 3000) b(j)";  // 9 million rows
  [[maybe_unused]] const std::size_t peak_before = peak_resident_bytes();

  exec_limits rows;
  rows.max_rows = 1000;
  auto start = clock_type::now();
  const query_outcome by_rows = run(*conn, "SELECT i, j" + cross, rows);
  CHECK(seconds_since(start) < 20.0);  // generous: proves it stopped, not how fast
  REQUIRE(by_rows.ok());
  CHECK(by_rows.rows.truncated());
  CHECK(by_rows.rows.row_count() == 1000);
  CHECK(by_rows.message == "more than 1000 rows (row cap)");

  exec_limits bytes;
  bytes.max_bytes = 100'000;
  start = clock_type::now();
  const query_outcome by_bytes = run(*conn, "SELECT i, repeat('x', 100)" + cross, bytes);
  CHECK(seconds_since(start) < 20.0);  // generous: proves it stopped, not how fast
  REQUIRE(by_bytes.ok());
  CHECK(by_bytes.rows.truncated());
  CHECK(by_bytes.rows.row_count() == 1000);  // the 1001st row went over and was dropped whole
  CHECK(by_bytes.rows.cells().size() == 2000);
  CHECK(by_bytes.rows.payload_bytes() <= 100'100);
  CHECK(by_bytes.message == "more than 100000 bytes of text (byte cap)");

  exec_limits blobs;
  blobs.max_bytes = 10'000;
  const query_outcome by_blobs = run(*conn, "SELECT decode(repeat('ab', 50), 'hex')" + cross, blobs);
  REQUIRE(by_blobs.ok());
  CHECK(by_blobs.rows.truncated());
  CHECK(by_blobs.rows.row_count() == 200);

  // Neither libpq nor the result ever held the millions of rows (the peak is checked; with
  // AddressSanitizer freed memory stays in its quarantine, so the peak means nothing there).
#if defined(__SANITIZE_ADDRESS__)
  MESSAGE("peak memory not checked under AddressSanitizer");
#else
  CHECK(peak_resident_bytes() < peak_before + 64 * 1024 * 1024);
#endif

  // Exactly at the cap is not truncated; the connection is reused after the cancels.
  const query_outcome exact = run(*conn, "SELECT i FROM generate_series(1, 1000) g(i)", rows);
  REQUIRE(exact.ok());
  CHECK_FALSE(exact.rows.truncated());
  CHECK(exact.rows.row_count() == 1000);
  CHECK(single_integer(*conn, "SELECT 3") == 3);
}

TEST_CASE("postgres: one connection serves many queries and a failed one does not break the next") {
  const pg_database db("sqlmorph_pg_reuse",
                       "CREATE TABLE t(id int, name text); INSERT INTO t VALUES (1, 'apple')");
  auto conn = db.connect();
  const std::int64_t pid = single_integer(*conn, "SELECT pg_backend_pid()");
  CHECK(run(*conn, "SELECT 1/0").status == query_status::error);
  CHECK(single_integer(*conn, "SELECT count(*) FROM t") == 1);
  CHECK(run(*conn, "SELECT nope FROM t").status == query_status::error);
  CHECK(run(*conn, "SELECT 1; SELECT 2").status == query_status::error);
  CHECK(single_integer(*conn, "SELECT id FROM t;") == 1);
  CHECK(single_integer(*conn, "SELECT 2 -- a trailing comment") == 2);

  // Every query is rolled back: settings a query changes, and advisory locks it takes, do not stay.
  CHECK(run(*conn, "SELECT set_config('sqlmorph.probe', 'x', false)").ok());
  const query_outcome probe = run(*conn, "SELECT current_setting('sqlmorph.probe', true)");
  REQUIRE(probe.ok());
  CHECK((probe.rows.cell(0, 0).is_null() || probe.rows.cell(0, 0).bytes().empty()));
  CHECK(run(*conn, "SELECT set_config('statement_timeout', '0', false)").ok());
  // (pg_locks shows every database's locks: other tests, and sqlmorph-load, take advisory locks too.)
  const std::string advisory_locks =
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
      "(SELECT oid FROM pg_database WHERE datname = current_database())";
  CHECK(single_integer(*conn, advisory_locks) == 0);
  CHECK(run(*conn, "SELECT pg_advisory_lock(4242)").ok());
  CHECK(test::pg_value(db.name, advisory_locks) == "0");
  CHECK(single_integer(*conn, "SELECT pg_backend_pid()") == pid);
  CHECK(test::pg_value(db.name, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + std::to_string(pid) +
                                    " AND state = 'idle' AND application_name = 'sqlmorph'") == "1");
}

TEST_CASE("postgres: a session the server terminates is reopened") {
  const pg_database db("sqlmorph_pg_killed");
  auto conn = db.connect();
  // pg_terminate_backend() from a superuser session; waits until the server process is gone.
  const auto terminate = [](std::int64_t pid) {
    const std::string p = std::to_string(pid);
    test::pg_value("postgres", "SELECT pg_terminate_backend(" + p + ")");
    const std::string alive = "SELECT count(*) FROM pg_stat_activity WHERE pid = " + p;
    for (int i = 0; i < 100 && test::pg_value("postgres", alive) != "0"; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };

  SUBCASE("while idle") {
    const std::int64_t pid = single_integer(*conn, "SELECT pg_backend_pid()");
    terminate(pid);
    const query_outcome next = run(*conn, "SELECT 5");
    INFO(next.message);
    REQUIRE(next.ok());  // the lost session is found at BEGIN, or while the query runs: run again
    CHECK(next.rows.cell(0, 0).as_integer() == 5);
    CHECK(single_integer(*conn, "SELECT 6") == 6);
    CHECK(single_integer(*conn, "SELECT pg_backend_pid()") != pid);
  }
}

TEST_CASE("postgres: a query that another session stops runs once more, on a new session if needed") {
  // pg_terminate_backend() / pg_cancel_backend() from another session (a query of another worker,
  // an administrator) are not the query's doing. The query waits for an advisory lock this test
  // holds, so that it surely runs when it is stopped; the test lets it go when it has seen enough.
  const pg_database db("sqlmorph_pg_stopped");
  auto conn = db.connect();
  const auto pid_of = [](const std::string& waiter) { return waiter.substr(0, waiter.find('@')); };
  const auto run_stopped = [&](const char* how, int times, std::vector<std::string>& waiters) {
    exec_limits limits;
    limits.timeout_seconds = 120;
    query_outcome o;
    waiters = test::pg_stop_waiting_query(db.name, 4711, how, times, [&] {
      o = conn->execute("SELECT 5 FROM (SELECT pg_advisory_xact_lock_shared(4711)) l", limits);
    });
    return o;
  };

  SUBCASE("terminated once: the query runs again on a new session and succeeds") {
    std::vector<std::string> waiters;
    const query_outcome o = run_stopped("pg_terminate_backend", 1, waiters);
    INFO(o.message);
    REQUIRE(waiters.size() == 2);
    CHECK(pid_of(waiters[1]) != pid_of(waiters[0]));
    REQUIRE(o.ok());
    CHECK(o.rows.cell(0, 0).as_integer() == 5);
  }
  SUBCASE("cancelled once: the query runs again and succeeds") {
    std::vector<std::string> waiters;
    const query_outcome o = run_stopped("pg_cancel_backend", 1, waiters);
    INFO(o.message);
    REQUIRE(waiters.size() == 2);
    CHECK(pid_of(waiters[1]) == pid_of(waiters[0]));  // the same session, a new transaction
    REQUIRE(o.ok());
    CHECK(o.rows.cell(0, 0).as_integer() == 5);
  }
  SUBCASE("terminated twice: a backend_error that says so") {
    std::vector<std::string> waiters;
    const query_outcome o = run_stopped("pg_terminate_backend", 2, waiters);
    CHECK(waiters.size() == 2);
    CHECK(o.status == query_status::backend_error);
    CHECK(o.message.find("terminating connection due to administrator command") != std::string::npos);
    CHECK(o.message.find("(run twice: another session had stopped the first run too)") != std::string::npos);
    CHECK(single_integer(*conn, "SELECT 7") == 7);  // the next query opens a new session
  }
  SUBCASE("cancelled twice: an error that says so") {
    std::vector<std::string> waiters;
    const query_outcome o = run_stopped("pg_cancel_backend", 2, waiters);
    CHECK(waiters.size() == 2);
    CHECK(o.status == query_status::error);
    CHECK(o.message ==
          "canceling statement due to user request (run twice: another session had stopped the "
          "first run too)");
  }
}

TEST_CASE("postgres: invalid SQL is an error with PostgreSQL's message") {
  const pg_database db("sqlmorph_pg_invalid", "CREATE TABLE t(id int, name text)");
  auto conn = db.connect();
  struct invalid {
    const char* sql;
    const char* message;
  };
  const invalid cases[] = {
      {"SELECT * FROM nope", "relation \"nope\" does not exist"},
      {"SELECT 1 +", "syntax error at end of input"},
      {"SELECT FROM WHERE", "syntax error at or near \"WHERE\""},
      {"SELECT 1/0", "division by zero"},
      {"SELECT nam FROM t",
       "column \"nam\" does not exist; HINT: Perhaps you meant to reference the column \"t.name\"."},
      {"SELECT 'abc'::int", "invalid input syntax for type integer: \"abc\""},
      {"SELECT (SELECT i FROM generate_series(1, 2) g(i))",
       "more than one row returned by a subquery used as an expression"},
      {"SELEC 1",
       "only a query may be executed (SELECT, WITH, VALUES or TABLE), not a statement starting with 'SELEC'"},
      {"", "no statement: the SQL is empty or only comments"},
      {"-- nothing", "no statement: the SQL is empty or only comments"},
  };
  for (const invalid& c : cases) {
    CAPTURE(c.sql);
    const query_outcome o = run(*conn, c.sql);
    CHECK(o.status == query_status::error);
    CHECK(o.message == c.message);
  }
  const query_outcome nul = run(*conn, std::string_view("SELECT 1\0; DROP TABLE t", 23));
  CHECK(nul.status == query_status::error);
  CHECK(single_integer(*conn, "SELECT count(*) FROM t") == 0);
}

TEST_CASE("postgres: capabilities and options") {
  const auto engine = postgres_backend(false);
  const backend_capabilities c = engine->capabilities();
  CHECK(c.dialect == "postgresql");
  CHECK(c.gate == statement_gate::sdk);
  CHECK(c.checks_without_executing);
  CHECK(c.describes_schema);
  const core::component_info* info = test::registry().find("backend", "postgres");
  REQUIRE(info != nullptr);
  CHECK(info->library == "backend_postgres");
  for (const char* option : {"allow_superuser", "connect_timeout", "application_name", "user_per_worker"}) {
    CAPTURE(option);
    CHECK(info->find_option(option) != nullptr);
  }
  CHECK(test::usage_error_of([] {
          test::registry().create<backend>(
              core::component_spec("postgres").with("connect_timeout", std::int64_t{-1}));
        }).find("connect_timeout") != std::string::npos);
  CHECK(test::usage_error_of([] {
          test::registry().create<backend>(
              core::component_spec("postgres").with("user_per_worker", std::string("sqlmorph_reader")));
        }).find("user_per_worker must hold {n}") != std::string::npos);
}

TEST_CASE("postgres: check() parses and binds without executing, describe_schema() reads the catalog") {
  const pg_database db(
      "sqlmorph_pg_check",
      "CREATE TABLE items(id int PRIMARY KEY, name text NOT NULL, price numeric(8,2));"
      "CREATE TABLE orders(id int PRIMARY KEY, item_id int REFERENCES items(id), note varchar(20));"
      "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;"
      "INSERT INTO items VALUES (1, 'apple', 1.5)");
  auto conn = db.connect();
  CHECK(conn->check("SELECT i.name, o.note FROM items i JOIN orders o ON o.item_id = i.id", {}).ok());
  CHECK(conn->check("SELECT name FROM cheap;", {}).ok());
  const query_outcome table = conn->check("SELECT name FROM item", {});
  CHECK(table.status == query_status::error);
  CHECK(table.message == "relation \"item\" does not exist");
  const query_outcome column = conn->check("SELECT nme FROM items", {});
  CHECK(column.status == query_status::error);
  CHECK(column.message.find("column \"nme\" does not exist") == 0);
  CHECK(conn->check("SELECT 1 +", {}).message == "syntax error at end of input");
  CHECK(conn->check("DELETE FROM items", {}).status == query_status::error);
  // Never executed: pg_sleep(1e6) and a division by zero are checked at once, without error.
  const auto start = clock_type::now();
  CHECK(conn->check("SELECT pg_sleep(1e6)", {}).ok());
  CHECK(conn->check("SELECT 1 / (id - id) FROM items", {}).ok());
  CHECK(seconds_since(start) < 20.0);  // generous: proves pg_sleep(1e6) did not run, not how fast
  CHECK(single_integer(*conn, "SELECT count(*) FROM items") == 1);  // the session goes on normally

  const query_outcome schema = conn->describe_schema({});
  REQUIRE(schema.ok());
  CHECK(schema.message ==
        "CREATE VIEW cheap (\n  name text\n);\n"
        "CREATE TABLE items (\n  id integer NOT NULL,\n  name text NOT NULL,\n  price numeric(8,2),\n"
        "  PRIMARY KEY (id)\n);\n"
        "CREATE TABLE orders (\n  id integer NOT NULL,\n  item_id integer,\n  note character varying(20),\n"
        "  PRIMARY KEY (id),\n  FOREIGN KEY (item_id) REFERENCES items(id)\n);\n");
}
