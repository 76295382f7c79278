// The SQLite backend on untrusted SQL: nothing is ever written, every refusal is a clear error,
// runaway queries are interrupted by the engine, results are capped, text is bytes.

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include <sqlite3.h>
#include <nlohmann/json.hpp>
#include <sqlmorph/backend.hpp>

#include "app/sqlite_memory.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

struct fixture {
  test::temp_dir dir;
  std::filesystem::path db = dir.path() / "shop.sqlite";
  std::shared_ptr<const backend> engine;
  std::unique_ptr<connection> conn;

  fixture() {
    test::create_sqlite(db,
                        "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB);"
                        "INSERT INTO items VALUES (1, 'apple', 1.5, x'00ff'), (2, 'pear', NULL, NULL),"
                        "  (3, CAST(x'61ff62' AS TEXT), 3.0, x'');"
                        "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;");
    engine = test::registry().create<backend>(core::component_spec("sqlite"));
    connect_outcome c = engine->connect(db.string());
    REQUIRE(c.conn != nullptr);
    conn = std::move(c.conn);
  }

  query_outcome run(std::string_view sql, exec_limits limits = {}) { return conn->execute(sql, limits); }

  std::set<std::string> files() const {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
      out.insert(e.path().filename().string());
    return out;
  }
};

// `sqlmorph compare` of one predicted query against `SELECT 1` on `db`: the record, and the peak
// resident memory of the sqlmorph process.
struct measured_compare {
  int exit_code = -1;
  nlohmann::json record;
  std::string err;
  long peak_rss_kb = 0;
};
measured_compare compare_measuring_memory(const std::filesystem::path& db, const std::string& pred) {
  test::temp_dir dir;
  const int pid = test::start_sqlmorph({"compare", "--db", db.string(), "--gold", "SELECT 1", "--pred", pred,
                                        "--techniques", "execution_accuracy", "--json"},
                                       dir.path() / "out", dir.path() / "err");
  measured_compare m;
  int status = 0;
  rusage usage{};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_kb = usage.ru_maxrss;
  m.err = test::file_bytes(dir.path() / "err");
  const std::string out = test::file_bytes(dir.path() / "out");
  if (m.exit_code == 0) m.record = nlohmann::json::parse(out)["results"][0];
  return m;
}

}  // namespace

TEST_CASE("rows come back with names, declared types and every kind of value") {
  fixture f;
  const query_outcome o = f.run("SELECT id, name, price, data, id * 2 AS twice FROM items ORDER BY id");
  REQUIRE(o.ok());
  const result& r = o.rows;
  CHECK(r.column_names() == std::vector<std::string>{"id", "name", "price", "data", "twice"});
  CHECK(r.column_types() == std::vector<std::string>{"INTEGER", "TEXT", "REAL", "BLOB", ""});
  REQUIRE(r.row_count() == 3);
  CHECK(r.cell(0, 0).as_integer() == 1);
  CHECK(r.cell(0, 2).as_real() == 1.5);
  CHECK(r.cell(0, 3).bytes() == std::string_view("\x00\xff", 2));
  CHECK(r.cell(1, 2).is_null());
  // Invalid UTF-8 is data, returned byte for byte.
  CHECK(r.cell(2, 1).kind() == value_kind::text);
  CHECK(r.cell(2, 1).bytes() ==
        "a\xff"
        "b");
  CHECK(r.cell(2, 3).kind() == value_kind::blob);
  CHECK(r.cell(2, 3).bytes().empty());
  CHECK_FALSE(r.truncated());
  CHECK(f.run("SELECT * FROM cheap").rows.row_count() == 1);
  CHECK(f.run("PRAGMA table_info(items)").rows.row_count() == 4);
}

TEST_CASE("read-only table-valued functions work: json_each, json_tree and the pragma_* that only report") {
  fixture f;
  const auto column = [&](std::string_view sql) {
    const query_outcome o = f.run(sql);
    INFO(sql, " -> ", o.message);
    REQUIRE(o.ok());
    std::vector<std::string> out;
    for (std::size_t r = 0; r < o.rows.row_count(); ++r) out.push_back(python_str(o.rows.cell(r, 0)));
    return out;
  };
  using strings = std::vector<std::string>;
  CHECK(column("SELECT value FROM json_each('[1,2]')") == strings{"1", "2"});
  CHECK(column("SELECT * FROM json_each('[1,2]')").size() == 2);
  CHECK(column("SELECT fullkey FROM json_tree('{\"a\": [1]}') ORDER BY id") == strings{"$", "$.a", "$.a[0]"});
  CHECK(column("SELECT items.name FROM items JOIN json_each('[1, 3]') j ON j.value = items.id ORDER BY 1")
            .size() == 2);
  // pragma_table_info('items') answers what PRAGMA table_info(items) answers.
  CHECK(column("SELECT name FROM pragma_table_info('items') ORDER BY cid") ==
        strings{"id", "name", "price", "data"});
  CHECK(column("SELECT * FROM pragma_table_info('items')") == column("PRAGMA table_info(items)"));
  CHECK(column("SELECT count(*) FROM pragma_table_xinfo('items')") == strings{"4"});
  CHECK(column("SELECT count(*) FROM pragma_index_list('items')") == strings{"0"});
  CHECK(column("SELECT count(*) FROM pragma_foreign_key_list('items')") == strings{"0"});
  CHECK(column("SELECT name FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite%' "
               "ORDER BY name") == strings{"cheap", "items"});
  // A PRAGMA that reads a setting, without changing it.
  CHECK(column("SELECT * FROM pragma_user_version") == strings{"0"});
  CHECK(column("PRAGMA user_version") == strings{"0"});
  CHECK(column("SELECT journal_mode FROM pragma_journal_mode") == strings{"delete"});
  // A pragma function cannot set anything: its argument is a schema name, or there is none.
  CHECK(f.run("SELECT * FROM pragma_journal_mode('wal')").message == "unknown database 'wal'");
  CHECK(f.run("SELECT * FROM pragma_user_version(7)").message ==
        "too many arguments on pragma_user_version() - max 0");
  // generate_series is not built into Debian's SQLite library (only its shell has it): where it
  // is missing it is an unknown table, never a refusal.
  const query_outcome series = f.run("SELECT value FROM generate_series(1, 3)");
  if (series.ok()) {
    CHECK(series.rows.row_count() == 3);
  } else {
    CHECK(series.message == "no such table: generate_series");
  }
}

TEST_CASE("memory bombs end as a clear status while the process stays under a few hundred MB") {
  test::temp_dir dir;
  const auto db = dir.path() / "small.sqlite";
  test::create_sqlite(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
  const std::string too_big = "string or blob too big: a value would be longer than 32 MiB";
  const std::string heap =
      "out of memory: the query reached SQLite's heap limit (heap_limit_mb: 256 MiB per worker)";
  struct bomb {
    std::string sql;
    std::string error;  // a fragment of the record's error ("" when the query may end ok)
  };
  const bomb bombs[] = {
      // A string doubled until it is gigabytes long (3.1 GB of memory before values were capped).
      {"WITH RECURSIVE d(s, n) AS (SELECT 'x', 0 UNION ALL SELECT s || s, n + 1 FROM d WHERE n < 40) "
       "SELECT length(s) FROM d",
       too_big},
      {"SELECT length(replace(zeroblob(500000000), x'00', 'ab'))", too_big},
      // One cell larger than the result's byte cap (it used to be copied whole before the cap).
      {"SELECT zeroblob(900000000)", too_big},
      {"WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000000) "
       "SELECT length(group_concat(printf('%.100c', 'x'))) FROM c",
       too_big},
      // SQLite's printf stops at the longest value by itself.
      {"SELECT length(printf('%.*c', 900000000, 'x'))", ""},
      // Values each under the limit, twenty of them in one row: the heap limit stops it.
      {"WITH v(s) AS (SELECT printf('%.*c', 30000000, 'x')) "
       "SELECT s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s FROM v",
       heap},
  };
  for (const bomb& b : bombs) {
    CAPTURE(b.sql);
    const measured_compare m = compare_measuring_memory(db, b.sql);
    INFO(m.err);
    REQUIRE(m.exit_code == 0);
    INFO(m.record.dump());
    if (!b.error.empty()) {
      CHECK(m.record["status"] == "pred_error");
      CHECK(m.record["error"].get<std::string>().find(b.error) != std::string::npos);
    }
#if defined(__SANITIZE_ADDRESS__)
    MESSAGE("peak memory not checked under AddressSanitizer (its shadow memory and quarantine)");
#else
    CHECK(m.peak_rss_kb < 384 * 1024);
#endif
  }
}

namespace {

// A worker (thread) running memory bombs three times while this thread runs an innocent query until
// it is done: how many bombs ended out of memory, with which message, and whether the innocent
// query ever failed.
struct bomb_beside_innocent {
  int bombs_stopped = 0;
  std::string bomb_message;
  int innocent = 0;
  int failed = 0;
  std::string failure;
};

bomb_beside_innocent run_bomb_beside_innocent(fixture& f) {
  bomb_beside_innocent out;
  std::atomic<bool> done{false};
  std::thread bomber([&] {
    connect_outcome c = f.engine->connect(f.db.string());
    for (int i = 0; i < 3 && c.conn; ++i) {
      const query_outcome o = c.conn->execute(
          "WITH v(s) AS (SELECT printf('%.*c', 30000000, 'x')) SELECT s, s, s, s, s, s, s, s, s, s, s, s, s, "
          "s, "
          "s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s FROM v",
          {});
      if (o.status == query_status::error && o.message.find("out of memory") == 0) {
        ++out.bombs_stopped;
        out.bomb_message = o.message;
      }
    }
    done = true;
  });
  while (!done) {
    const query_outcome o = f.run("SELECT count(*), group_concat(name) FROM items");
    ++out.innocent;
    if (!o.ok()) {
      ++out.failed;
      out.failure = o.message;
    }
  }
  bomber.join();
  return out;
}

}  // namespace

TEST_CASE("a memory bomb in one worker does not fail the queries of another") {
  // Without the host's per-thread counting (SQLite had started: here no environment installed it),
  // SQLite's heap limit is process-wide: the second worker's connection doubles it, and a query that
  // meets the limit because of the other worker's bomb runs again once the memory is back.
  fixture f;
  const bomb_beside_innocent b = run_bomb_beside_innocent(f);
  INFO(b.failure);
  CHECK(b.bombs_stopped == 3);
  CHECK(b.innocent > 0);
  CHECK(b.failed == 0);
}

TEST_CASE("with SQLite's memory counted per thread, each worker has its own heap limit") {
  // As sqlmorph sets SQLite up before anything starts it (environment::load): the plugin learns
  // through the host services that a worker's queries have a limit of their own.
  REQUIRE(sqlite3_shutdown() == SQLITE_OK);
  REQUIRE(core::count_sqlite_memory_per_thread());
  fixture f;
  const bomb_beside_innocent b = run_bomb_beside_innocent(f);
  INFO(b.failure);
  CHECK(b.bombs_stopped == 3);
  // Stopped at its own worker's limit the first time: no second try waiting for another's memory.
  CHECK(b.bomb_message.find("the query reached SQLite's heap limit (heap_limit_mb: 256 MiB per worker)") !=
        std::string::npos);
  CHECK(b.bomb_message.find("tried twice") == std::string::npos);
  CHECK(b.innocent > 0);
  CHECK(b.failed == 0);
  // The process-wide limit is not used.
  CHECK(sqlite3_hard_heap_limit64(-1) == 0);
}

TEST_CASE("missing, unreadable and oddly named databases") {
  const auto engine = test::registry().create<backend>(core::component_spec("sqlite"));
  test::temp_dir dir;
  connect_outcome missing = engine->connect((dir.path() / "nope.sqlite").string());
  CHECK(missing.conn == nullptr);
  CHECK(missing.status == query_status::db_missing);
  CHECK(missing.message == "database not found: " + (dir.path() / "nope.sqlite").string());
  CHECK(engine->connect(dir.path().string()).status == query_status::backend_error);
  const auto junk = dir.path() / "junk.sqlite";
  std::ofstream(junk)
      << "this is not a database, just text long enough to have a header..........................";
  connect_outcome j = engine->connect(junk.string());
  CHECK(j.status == query_status::backend_error);
  CHECK(j.message.find("file is not a database") != std::string::npos);
  // A name that would be URI parameters if it were pasted into a file: URI.
  const auto odd = dir.path() / "db?mode=rwc&x=%41#frag.sqlite";
  test::create_sqlite(odd, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
  const std::string before = test::file_bytes(odd);
  connect_outcome o = engine->connect(odd.string());
  REQUIRE(o.conn != nullptr);
  CHECK(o.conn->execute("SELECT x FROM t", {}).rows.cell(0, 0).as_integer() == 1);
  CHECK(o.conn->execute("DELETE FROM t", {}).status == query_status::error);
  CHECK(test::file_bytes(odd) == before);
}

TEST_CASE("the backend declares what it guarantees") {
  const auto caps = test::registry().create<backend>(core::component_spec("sqlite"))->capabilities();
  CHECK(caps.dialect == "sqlite");
  CHECK(caps.gate == statement_gate::engine);
  CHECK(caps.checks_without_executing);
  CHECK(caps.describes_schema);
}
