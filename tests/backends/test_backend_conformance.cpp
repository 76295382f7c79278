// The backend conformance suite: every case of tests/cases/backend/*.toml (SQL -> expected status,
// message, columns, types, rows; limits, cancel, check) runs against every backend configuration —
// native SQLite, native PostgreSQL, ODBC on SQLite, ODBC on PostgreSQL, MariaDB, DuckDB — on the
// same small shop.
// After every case the connection must still answer, the data must be unchanged and nothing may
// have been written outside the database. tests/cases/backend/README.md describes the format.

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <regex>
#include <thread>

#include <toml++/toml.h>

#include <sqlmorph/backend.hpp>

#include "duckdb_test_db.hpp"
#include "mariadb_support.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

const char* const engines[] = {"sqlite", "postgres", "odbc+sqlite", "odbc+postgres", "mysql", "duckdb"};

// --- the shop, in each engine ---------------------------------------------------------------------

const char* const shop_rows =
    "INSERT INTO items VALUES (1, 'apple', 1.5, 3, x'00ff'), (2, 'pear', NULL, 5, NULL), (3, 'fig', 3.0, "
    "NULL, "
    "x'');";

struct database {
  std::string target;
  std::string outside;  // a file no query may create
  std::function<std::string()> fingerprint;
};

struct sqlite_shop {
  test::temp_dir dir;
  std::filesystem::path file = dir.path() / "shop.sqlite";
  sqlite_shop() {
    test::create_sqlite(file, std::string("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL, "
                                          "qty INTEGER, data BLOB);") +
                                  shop_rows + "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;");
  }
  // Changes when anything in the folder changes: the file's bytes, a journal, a new file.
  std::string fingerprint() const { return test::folder_fingerprint(file); }
};

struct postgres_shop {
  std::string name;
  explicit postgres_shop(std::string n) : name(std::move(n)) {
    test::pg_recreate_database(name);
    test::pg_exec("postgres", "ALTER DATABASE \"" + name + "\" SET timezone = 'UTC'");
    test::pg_exec(
        name,
        std::string("CREATE TABLE items(id int PRIMARY KEY, name text, price double precision, qty int, "
                    "data bytea);") +
            "INSERT INTO items VALUES (1, 'apple', 1.5, 3, '\\x00ff'), (2, 'pear', NULL, 5, NULL), "
            "(3, 'fig', 3.0, NULL, '');"
            "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;"
            "CREATE SEQUENCE seq;"
            "CREATE FUNCTION wipe() RETURNS int LANGUAGE plpgsql AS "
            "$$ BEGIN DELETE FROM items; RETURN 0; END $$;");
    test::pg_grant_reader(name);
  }
  // Changes when the rows, the relations or the sequence change.
  std::string fingerprint() const { return test::pg_shop_fingerprint(name); }
};

struct mariadb_shop {
  std::string name;
  explicit mariadb_shop(std::string n) : name(std::move(n)) {
    test::maria_recreate_database(name);
    test::maria_exec(name,
                     "CREATE TABLE items(id INT PRIMARY KEY, name TEXT, price DOUBLE, qty INT, data BLOB);"
                     "INSERT INTO items VALUES (1, 'apple', 1.5, 3, x'00ff'), (2, 'pear', NULL, 5, NULL), "
                     "(3, 'fig', 3.0, NULL, x'');"
                     "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;");
    test::maria_grant_reader(name);
  }
  // Changes when the rows, the tables or the server's file folder change.
  std::string fingerprint() const { return test::maria_shop_fingerprint(name); }
};

struct duckdb_shop {
  test::temp_dir dir;
  std::filesystem::path file = dir.path() / "shop.duckdb";
  duckdb_shop() {
    test::create_duckdb(
        file,
        "CREATE TABLE items(id INTEGER PRIMARY KEY, name VARCHAR, price DOUBLE, qty INTEGER, "
        "data BLOB);"
        "INSERT INTO items VALUES (1, 'apple', 1.5, 3, '\\x00\\xFF'::BLOB), (2, 'pear', NULL, 5, "
        "NULL), (3, 'fig', 3.0, NULL, ''::BLOB);"
        "CREATE VIEW cheap AS SELECT name FROM items WHERE price < 2;");
  }
  // Changes when anything in the folder changes: the file's bytes, a WAL, a temp folder, a new file.
  std::string fingerprint() const { return test::folder_fingerprint(file); }
};

// --- the cases ------------------------------------------------------------------------------------

struct expectation {
  std::optional<std::string> sql;
  std::optional<std::string> status;
  std::optional<std::string> message;                // exact
  std::optional<std::vector<std::string>> contains;  // fragments of the message
  std::optional<std::vector<std::string>> columns;
  std::optional<std::vector<std::string>> types;
  std::optional<std::vector<std::vector<std::string>>> rows;
  std::optional<std::int64_t> row_count;
  std::optional<std::int64_t> cell_count;
  std::optional<bool> truncated;
  std::optional<std::string> skip;
};

struct conformance_case {
  std::string file;
  std::string name;
  std::string mode = "execute";  // execute | check | cancel | describe
  exec_limits limits;
  double ends_within = 0;  // generous bound in seconds for runaway cases (0: none)
  expectation expect;
  std::vector<std::pair<std::vector<std::string>, expectation>> on;  // per-engine overrides
};

std::vector<std::string> strings_of(const toml::node& n, const std::string& where) {
  std::vector<std::string> out;
  if (const auto* s = n.as_string()) return {s->get()};
  const toml::array* a = n.as_array();
  if (a == nullptr) FAIL(where << ": expected a string or an array of strings");
  for (const toml::node& e : *a) {
    if (!e.is_string()) FAIL(where << ": expected an array of strings");
    out.push_back(e.as_string()->get());
  }
  return out;
}

expectation read_expectation(const toml::table& t, const std::string& where) {
  static const std::vector<std::string> keys = {"sql",     "status",    "message", "contains",
                                                "columns", "types",     "rows",    "row_count",
                                                "cells",   "truncated", "skip"};
  expectation e;
  for (const auto& [key, node] : t) {
    const std::string k(key.str());
    if (k == "name" || k == "mode" || k == "timeout" || k == "max_rows" || k == "max_bytes" ||
        k == "ends_within" || k == "on")
      continue;
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) FAIL(where << ": unknown key '" << k << "'");
  }
  if (auto v = t["sql"].value<std::string>()) e.sql = *v;
  if (auto v = t["status"].value<std::string>()) e.status = *v;
  if (auto v = t["message"].value<std::string>()) e.message = *v;
  if (const toml::node* n = t.get("contains")) e.contains = strings_of(*n, where + ".contains");
  if (const toml::node* n = t.get("columns")) e.columns = strings_of(*n, where + ".columns");
  if (const toml::node* n = t.get("types")) e.types = strings_of(*n, where + ".types");
  if (const toml::array* rows = t["rows"].as_array()) {
    e.rows.emplace();
    for (const toml::node& row : *rows) e.rows->push_back(strings_of(row, where + ".rows"));
  }
  if (auto v = t["row_count"].value<std::int64_t>()) e.row_count = *v;
  if (auto v = t["cells"].value<std::int64_t>()) e.cell_count = *v;
  if (auto v = t["truncated"].value<bool>()) e.truncated = *v;
  if (auto v = t["skip"].value<std::string>()) e.skip = *v;
  return e;
}

// Later fields win: the case's own, then each matching override in file order.
expectation merged(expectation base, const expectation& over) {
  const auto take = [](auto& into, const auto& from) {
    if (from) into = from;
  };
  take(base.sql, over.sql);
  take(base.status, over.status);
  if (over.message || over.contains) {
    base.message = over.message;
    base.contains = over.contains;
  }
  take(base.columns, over.columns);
  take(base.types, over.types);
  take(base.rows, over.rows);
  take(base.row_count, over.row_count);
  take(base.cell_count, over.cell_count);
  take(base.truncated, over.truncated);
  take(base.skip, over.skip);
  return base;
}

std::vector<conformance_case> read_cases() {
  std::vector<conformance_case> out;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() / "tests/cases/backend"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    toml::table doc;
    try {
      doc = toml::parse_file(file.string());
    } catch (const toml::parse_error& e) {
      FAIL(file.string() << ": " << e.description() << " at line " << e.source().begin.line);
    }
    const toml::array* cases = doc["case"].as_array();
    REQUIRE_MESSAGE(cases != nullptr, file.string() << ": no [[case]]");
    for (const toml::node& n : *cases) {
      const toml::table& t = *n.as_table();
      conformance_case c;
      c.file = file.filename().string();
      c.name = t["name"].value_or(std::string());
      const std::string where = c.file + ": case '" + c.name + "'";
      REQUIRE_MESSAGE(!c.name.empty(), c.file << ": a case without a name");
      c.mode = t["mode"].value_or(std::string("execute"));
      REQUIRE_MESSAGE(
          (c.mode == "execute" || c.mode == "check" || c.mode == "cancel" || c.mode == "describe"),
          where << ": unknown mode " << c.mode);
      c.limits.timeout_seconds = t["timeout"].value_or(c.mode == "cancel" ? 0.0 : 10.0);
      c.limits.max_rows = static_cast<std::uint64_t>(t["max_rows"].value_or(std::int64_t{1'000'000}));
      c.limits.max_bytes = static_cast<std::uint64_t>(t["max_bytes"].value_or(std::int64_t{256 << 20}));
      c.ends_within = t["ends_within"].value_or(0.0);
      c.expect = read_expectation(t, where);
      if (const toml::table* on = t["on"].as_table()) {
        for (const auto& [key, node] : *on) {
          std::vector<std::string> names;
          const std::string list(key.str());
          for (std::size_t start = 0; start <= list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            names.push_back(list.substr(start, comma - start));
            start = comma + 1;
          }
          for (const std::string& name : names) {
            REQUIRE_MESSAGE(std::find(std::begin(engines), std::end(engines), name) != std::end(engines),
                            where << ": unknown engine '" << name << "' in [on]");
          }
          REQUIRE_MESSAGE(node.is_table(), where << ": on." << list << " must be a table");
          c.on.emplace_back(names, read_expectation(*node.as_table(), where + " on " + list));
        }
      }
      REQUIRE_MESSAGE((c.expect.status || c.expect.skip), where << ": no status");
      out.push_back(std::move(c));
    }
  }
  return out;
}

// --- running them ---------------------------------------------------------------------------------

using test::show;

std::string expand(std::string sql, const database& db, const std::string& engine) {
  const auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = sql.find(from); at != std::string::npos; at = sql.find(from, at + to.size()))
      sql.replace(at, from.size(), to);
  };
  replace_all("{outside}", db.outside);
  // The test server's superuser on PostgreSQL; elsewhere any role name does (the SQLite and DuckDB
  // runs need no PostgreSQL server).
  if (sql.find("{superuser}") != std::string::npos) {
    replace_all("{superuser}",
                engine.find("postgres") != std::string::npos ? test::postgres().superuser : "postgres");
  }
  replace_all("{NUL}", std::string(1, '\0'));
  return sql;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out = "[";
  for (const std::string& p : parts) out += (out.size() > 1 ? ", " : "") + ("'" + p + "'");
  return out + "]";
}

void check_outcome(const query_outcome& o, const expectation& e) {
  INFO("status ", query_status_name(o.status), ", message: ", o.message);
  if (e.status) CHECK(query_status_name(o.status) == *e.status);
  if (e.message) CHECK(o.message == *e.message);
  if (e.contains)
    for (const std::string& fragment : *e.contains) {
      CAPTURE(fragment);
      CHECK(o.message.find(fragment) != std::string::npos);
    }
  const result& r = o.rows;
  if (e.columns) CHECK(joined(r.column_names()) == joined(*e.columns));
  if (e.types) CHECK(joined(r.column_types()) == joined(*e.types));
  if (e.rows) {
    std::vector<std::vector<std::string>> got;
    for (std::size_t i = 0; i < r.row_count(); ++i) {
      got.emplace_back();
      for (std::size_t c = 0; c < r.column_count(); ++c) got.back().push_back(show(r.cell(i, c)));
    }
    std::string got_text;
    std::string want_text;
    for (const auto& row : got) got_text += joined(row);
    for (const auto& row : *e.rows) want_text += joined(row);
    CHECK(got_text == want_text);
  }
  if (e.row_count) CHECK(static_cast<std::int64_t>(r.row_count()) == *e.row_count);
  if (e.cell_count) CHECK(static_cast<std::int64_t>(r.cells().size()) == *e.cell_count);
  if (e.truncated) CHECK(r.truncated() == *e.truncated);
  if (o.status != query_status::ok) CHECK(r.row_count() == 0);
}

void run_conformance(const std::string& engine, const backend& b, const database& db) {
  const std::vector<conformance_case> cases = read_cases();
  connect_outcome c = b.connect(db.target);
  INFO("connecting to ", db.target, ": ", c.message);
  REQUIRE(c.conn != nullptr);
  connection& conn = *c.conn;
  const std::string before = db.fingerprint();
  std::size_t ran = 0;
  for (const conformance_case& k : cases) {
    expectation e = k.expect;
    for (const auto& [names, over] : k.on)
      if (std::find(names.begin(), names.end(), engine) != names.end()) e = merged(e, over);
    INFO(k.file, ": ", k.name, " on ", engine);
    if (e.skip) continue;
    REQUIRE_MESSAGE((e.sql || k.mode == "describe"), "no sql");
    const std::string sql = e.sql ? expand(*e.sql, db, engine) : "";
    if (e.message) e.message = expand(*e.message, db, engine);
    if (e.contains)
      for (std::string& fragment : *e.contains) fragment = expand(fragment, db, engine);
    INFO("sql: ", sql);
    const auto start = std::chrono::steady_clock::now();
    query_outcome o;
    if (k.mode == "check") {
      o = conn.check(sql, k.limits);
    } else if (k.mode == "describe") {
      o = conn.describe_schema(k.limits);
    } else if (k.mode == "cancel") {
      conn.cancel();  // nothing runs yet: no effect on what follows
      std::thread canceller([&conn] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        conn.cancel();
      });
      o = conn.execute(sql, k.limits);
      canceller.join();
    } else {
      o = conn.execute(sql, k.limits);
    }
    const double took = seconds_since(start);
    check_outcome(o, e);
    if (k.ends_within > 0) CHECK(took < k.ends_within);  // generous: proves it stopped, not how fast
    // The connection goes on answering, nothing changed, nothing was written outside.
    const query_outcome after = conn.execute("SELECT count(*) FROM items", {});
    INFO("afterwards: ", after.message);
    REQUIRE(after.ok());
    CHECK(show(after.rows.cell(0, 0)) == "integer 3");
    CHECK(db.fingerprint() == before);
    CHECK_FALSE(std::filesystem::exists(db.outside));
    ++ran;
  }
  MESSAGE(engine << ": " << ran << " of " << cases.size() << " cases ran (the rest are marked skip for it)");
  CHECK(ran > cases.size() / 2);
}

std::string pg_outside(const std::string& engine) {
  // In /tmp, where the server's system user could write it, and of this process only.
  return "/tmp/sqlmorph-conformance-" + engine + "-" + std::to_string(::getpid());
}

}  // namespace

TEST_CASE("conformance: the case files parse, and every override names a known engine") {
  const std::vector<conformance_case> cases = read_cases();
  CHECK(cases.size() > 50);
}

TEST_CASE("conformance: native SQLite passes every case of tests/cases/backend") {
  const sqlite_shop shop;
  const database db{shop.file.string(), (shop.dir.path() / "outside.bin").string(),
                    [&] { return shop.fingerprint(); }};
  run_conformance("sqlite", *test::registry().create<backend>(core::component_spec("sqlite")), db);
}

TEST_CASE("conformance: native PostgreSQL passes every case of tests/cases/backend") {
  const postgres_shop shop("sqlmorph_conformance_pg");
  const database db{test::postgres().conninfo(shop.name, "sqlmorph_reader"), pg_outside("pg"),
                    [&] { return shop.fingerprint(); }};
  std::filesystem::remove(db.outside);
  run_conformance("postgres", *test::registry().create<backend>(core::component_spec("postgres")), db);
}

TEST_CASE("conformance: DuckDB passes every case of tests/cases/backend") {
  const duckdb_shop shop;
  const database db{shop.file.string(), (shop.dir.path() / "outside.bin").string(),
                    [&] { return shop.fingerprint(); }};
  run_conformance("duckdb", *test::registry().create<backend>(core::component_spec("duckdb")), db);
}

TEST_CASE("conformance: ODBC with the SQLite ODBC driver passes every case of tests/cases/backend") {
  test::use_test_odbc_config();
  const sqlite_shop shop;
  const database db{"Driver=SQLite3;Database=" + shop.file.string(),
                    (shop.dir.path() / "outside.bin").string(), [&] { return shop.fingerprint(); }};
  run_conformance("odbc+sqlite", *test::registry().create<backend>(core::component_spec("odbc")), db);
}

TEST_CASE("conformance: ODBC with psqlODBC passes every case of tests/cases/backend") {
  test::use_test_odbc_config();
  const postgres_shop shop("sqlmorph_conformance_odbc_pg");
  const auto& pg = test::postgres();
  const database db{"Driver={PostgreSQL Unicode};Servername=" + pg.host + ";Port=" + std::to_string(pg.port) +
                        ";Database=" + shop.name + ";Username=sqlmorph_reader",
                    pg_outside("odbc-pg"), [&] { return shop.fingerprint(); }};
  std::filesystem::remove(db.outside);
  run_conformance("odbc+postgres", *test::registry().create<backend>(core::component_spec("odbc")), db);
}

TEST_CASE("conformance: MariaDB passes every case of tests/cases/backend") {
  const mariadb_shop shop("sqlmorph_conformance");
  const database db{test::mariadb().target(shop.name, "sqlmorph_reader"),
                    test::maria_value("", "SELECT @@secure_file_priv") + "outside.bin",
                    [&] { return shop.fingerprint(); }};
  run_conformance("mysql", *test::registry().create<backend>(core::component_spec("mysql")), db);
}
