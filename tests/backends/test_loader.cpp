// sqlmorph-load: SQLite databases copied into PostgreSQL and MariaDB, types chosen from the values
// stored.

#include <doctest/doctest.h>

#include <sqlmorph/backend.hpp>

#include "duckdb_test_db.hpp"
#include "mariadb_support.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::string to_arg(const std::string& db_placeholder = "{db_id}") {
  const auto& pg = test::postgres();
  return "postgres:host=" + pg.host + " port=" + std::to_string(pg.port) + " user=" + pg.superuser +
         " dbname=" + db_placeholder;
}

// Each row of `rows` as its cells shown by test::show, separated by " | ".
std::vector<std::string> shown_rows(const result& rows) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < rows.row_count(); ++i) {
    std::string row;
    for (std::size_t j = 0; j < rows.column_count(); ++j)
      row += (j ? " | " : "") + test::show(rows.cell(i, j));
    out.push_back(row);
  }
  return out;
}

}  // namespace

TEST_CASE("sqlmorph-load copies a SQLite file: types from the values, names lower-cased, counts checked") {
  test::temp_dir dir;
  const auto file = dir.path() / "sqlmorph_load_mixed.sqlite";
  test::create_sqlite(file, R"(
    CREATE TABLE "Singer" ("Singer_ID" INT, "Name" TEXT, "Net Worth" REAL, "Age" TEXT, photo BLOB, mixed, empty_int INTEGER, empty_any);
    INSERT INTO "Singer" VALUES (1, 'Ann', 1.5, 30, x'00ff', 1, NULL, NULL);
    INSERT INTO "Singer" VALUES (2, 'Bé' || char(9) || 'to', 2, '31', x'', 'two', NULL, NULL);
    INSERT INTO "Singer" VALUES (3, NULL, NULL, 32.5, NULL, 3.25, NULL, NULL);
    INSERT INTO "Singer" VALUES (4, CAST(x'41ff42' AS TEXT), 1e300, NULL, NULL, NULL, NULL, NULL);
    CREATE TABLE "orders" (id INTEGER PRIMARY KEY, note TEXT);
    INSERT INTO orders(note) VALUES ('a\b'), ('line
break');
  )");
  const auto r = test::run_loader(
      {"--from", "sqlite:" + file.string(), "--to", to_arg(), "--replace", "--grant", "sqlmorph_reader"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("sqlmorph_load_mixed: 2 tables, 6 rows") != std::string::npos);
  CHECK(r.out.find("1 values had invalid UTF-8, replaced by U+FFFD") != std::string::npos);
  const std::string db = "sqlmorph_load_mixed";
  const auto type_of = [&](const std::string& column) {
    return test::pg_value(
        db,
        "SELECT data_type FROM information_schema.columns WHERE table_name = 'singer' AND column_name = '" +
            column + "'");
  };
  CHECK(type_of("singer_id") == "bigint");
  CHECK(type_of("name") == "text");
  CHECK(type_of("Net Worth") == "double precision");  // not a plain identifier: kept as it is
  CHECK(type_of("age") == "text");                    // text and numbers mixed
  CHECK(type_of("photo") == "bytea");
  CHECK(type_of("mixed") == "text");
  CHECK(type_of("empty_int") == "bigint");  // only NULLs: the declared type decides
  CHECK(type_of("empty_any") == "text");
  CHECK(test::pg_value(db, "SELECT string_agg(coalesce(age, 'NULL'), ',' ORDER BY singer_id) FROM singer") ==
        "30,31,32.5,NULL");
  CHECK(
      test::pg_value(db, "SELECT string_agg(coalesce(mixed, 'NULL'), ',' ORDER BY singer_id) FROM singer") ==
      "1,two,3.25,NULL");
  CHECK(test::pg_value(db, "SELECT name FROM singer WHERE singer_id = 2") == "Bé\tto");
  CHECK(test::pg_value(db, "SELECT name FROM singer WHERE singer_id = 4") ==
        "A\xEF\xBF\xBD"
        "B");
  CHECK(test::pg_value(db, "SELECT \"Net Worth\" FROM singer WHERE singer_id = 4") == "1e+300");
  CHECK(test::pg_value(db, "SELECT encode(photo, 'hex') FROM singer WHERE singer_id = 1") == "00ff");
  CHECK(test::pg_value(db, "SELECT string_agg(note, '|' ORDER BY id) FROM orders") == "a\\b|line\nbreak");
  CHECK(test::pg_value("postgres", "SELECT datcollate FROM pg_database WHERE datname = '" + db + "'") == "C");
  // The reading role may read and nothing else.
  CHECK(test::pg_value(db, "SELECT has_table_privilege('sqlmorph_reader', 'singer', 'SELECT')::text") ==
        "true");
  CHECK(test::pg_value(db, "SELECT has_table_privilege('sqlmorph_reader', 'singer', 'INSERT')::text") ==
        "false");

  // An existing database is not replaced unless asked.
  const auto again = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to_arg()});
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("database sqlmorph_load_mixed already exists (--replace") != std::string::npos);
}

TEST_CASE("sqlmorph-load refuses bad arguments with a clear message") {
  test::temp_dir dir;
  CHECK(test::run_loader({"--from", "mysql:x", "--to", to_arg()})
            .err.find("--from must be sqlite:FILE or sqlite-dir:DB_ROOT") != std::string::npos);
  CHECK(test::run_loader({"--from", "sqlite:" + (dir.path() / "none.sqlite").string(), "--to", to_arg()})
            .err.find("no such database file") != std::string::npos);
  CHECK(test::run_loader({"--from", "sqlite-dir:" + dir.path().string(), "--to", to_arg("x")})
            .err.find("dbname={db_id}") != std::string::npos);
  test::create_sqlite(dir.path() / "a.sqlite", "CREATE TABLE t(x)");
  CHECK(
      test::run_loader({"--from", "sqlite:" + (dir.path() / "a.sqlite").string(), "--to", to_arg(), "--grant",
                        test::postgres().superuser, "--replace", "--database", "sqlmorph_load_a"})
          .err.find("is a superuser") != std::string::npos);
}

TEST_CASE("sqlmorph-load runs started at once into one server all succeed, with the right data") {
  // Loaders racing to create the same reading role, and to (re)load the same database, behave as if
  // they had run one after the other (ctest runs several loading tests at once on one cluster).
  test::temp_dir dir;
  const std::string role = "sqlmorph_load_race_reader";
  const int separate = 4;
  // Nearly the same size, so that the loaders reach the role at about the same time.
  const auto rows = [](int i) { return 100 + i; };
  std::vector<std::filesystem::path> files;
  for (int i = 0; i <= separate; ++i) {
    const auto file = dir.path() / ("race" + std::to_string(i) + ".sqlite");
    test::create_sqlite(file,
                        "CREATE TABLE t(x INTEGER); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 "
                        "FROM c WHERE n < " +
                            std::to_string(rows(i)) + ") INSERT INTO t SELECT n FROM c;");
    files.push_back(file);
  }
  const auto database = [](int i) { return "sqlmorph_load_race_" + std::to_string(i); };
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    // A fresh start each round: no database, no role, so that every loader finds them missing.
    for (int i = 0; i <= separate; ++i)
      test::pg_exec("postgres", "DROP DATABASE IF EXISTS " + database(i) + " WITH (FORCE)");
    test::pg_exec("postgres", "DROP ROLE IF EXISTS " + role + "_1, " + role + "_2, " + role);

    struct started {
      int pid;
      int database;
      std::filesystem::path err;
    };
    std::vector<started> loaders;
    const auto start = [&](int i, int copy) {
      const auto err = dir.path() / ("err" + std::to_string(i) + "_" + std::to_string(copy));
      loaders.push_back(
          {test::start_program(
               test::loader_binary(),
               {"--from", "sqlite:" + files[static_cast<std::size_t>(i)].string(), "--database", database(i),
                "--to", to_arg(), "--replace", "--grant", role, "--worker-roles", i % 2 ? "2" : "0", "-q"},
               dir.path() / "out", err),
           i, err});
    };
    for (int i = 1; i <= separate; ++i) start(i, 0);
    start(0, 0);  // two loaders of the same database, both with --replace
    start(0, 1);
    for (const started& l : loaders) {
      const int code = test::wait_for(l.pid);
      INFO("loader of ", database(l.database), ": ", test::file_bytes(l.err));
      CHECK(code == 0);
    }
    for (int i = 0; i <= separate; ++i) {
      CAPTURE(i);
      CHECK(test::pg_value(database(i), "SELECT count(*) || '/' || sum(x) FROM t") ==
            std::to_string(rows(i)) + "/" + std::to_string(rows(i) * (rows(i) + 1) / 2));
      CHECK(test::pg_value(database(i), "SELECT has_table_privilege('" + role + "', 't', 'SELECT')::text") ==
            "true");
    }
    // The worker roles some loaders asked for: login roles that read through the reading role.
    CHECK(test::pg_value("postgres",
                         "SELECT string_agg(rolname || ':' || rolcanlogin || ':' || "
                         "pg_has_role(rolname, '" +
                             role +
                             "', 'USAGE'), ',' ORDER BY rolname) "
                             "FROM pg_roles WHERE rolname LIKE '" +
                             role + "\\_%'") == role + "_1:true:true," + role + "_2:true:true");
  }
  for (int i = 0; i <= separate; ++i)
    test::pg_exec("postgres", "DROP DATABASE IF EXISTS " + database(i) + " WITH (FORCE)");
  test::pg_exec("postgres", "DROP ROLE IF EXISTS " + role + "_1, " + role + "_2, " + role);
}

TEST_CASE(
    "sqlmorph-load copies a SQLite file into MariaDB: the same types, a reading account, counts checked") {
  test::temp_dir dir;
  const auto file = dir.path() / "sqlmorph_load_maria.sqlite";
  test::create_sqlite(file, R"(
    CREATE TABLE "Singer" ("Singer_ID" INT, "Name" TEXT, "Net Worth" REAL, "Age" TEXT, photo BLOB, mixed, empty_int INTEGER);
    INSERT INTO "Singer" VALUES (1, 'Ann', 1.5, 30, x'00ff', 1, NULL);
    INSERT INTO "Singer" VALUES (2, 'Bé' || char(9) || 'to', 2, '31', x'', 'two', NULL);
    INSERT INTO "Singer" VALUES (3, NULL, NULL, 32.5, NULL, 3.25, NULL);
    INSERT INTO "Singer" VALUES (4, CAST(x'41ff42' AS TEXT), 1e300, NULL, x'5c4e', NULL, NULL);
    CREATE TABLE "orders" (id INTEGER PRIMARY KEY, note TEXT);
    INSERT INTO orders(note) VALUES ('a\b'), ('line
break'), ('\N'), (printf('%.600c', 'x'));
    CREATE TABLE pad (v TEXT);
    INSERT INTO pad VALUES ('a'), ('a '), ('A');
  )");
  const std::string to = "mysql:" + test::mariadb().target("{db_id}", "root");
  const auto r = test::run_loader(
      {"--from", "sqlite:" + file.string(), "--to", to, "--replace", "--grant", "sqlmorph_reader"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("sqlmorph_load_maria: 3 tables, 11 rows") != std::string::npos);
  CHECK(r.out.find("1 values had invalid UTF-8, replaced by U+FFFD") != std::string::npos);
  const std::string db = "sqlmorph_load_maria";
  const auto type_of = [&](const std::string& column) {
    return test::maria_value(db, "SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '" +
                                     db + "' AND TABLE_NAME = 'singer' AND COLUMN_NAME = '" + column + "'");
  };
  CHECK(type_of("singer_id") == "bigint");
  CHECK(type_of("name") == "varchar");  // VARCHAR(6): 'Bé\tto' is the longest, in bytes
  CHECK(type_of("Net Worth") == "double");
  CHECK(type_of("age") == "varchar");
  CHECK(type_of("photo") == "longblob");
  CHECK(type_of("mixed") == "varchar");
  CHECK(type_of("empty_int") == "bigint");
  CHECK(test::maria_value(db,
                          "SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE "
                          "TABLE_SCHEMA = '" +
                              db + "' AND TABLE_NAME = 'singer' AND COLUMN_NAME = 'name'") == "6");
  // A text longer than 512 bytes makes its column LONGTEXT.
  CHECK(test::maria_value(db, "SELECT DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '" + db +
                                  "' AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'") == "longtext");
  CHECK(test::maria_value(
            db, "SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + db +
                    "'") == "utf8mb4_nopad_bin");

  // Read back through the backend, as the reading account: every value as it was in SQLite.
  auto c = test::registry()
               .create<backend>(core::component_spec("mysql"))
               ->connect(test::mariadb().target(db, "sqlmorph_reader"));
  INFO(c.message);
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->execute("SELECT * FROM Singer ORDER BY singer_id", {});
  INFO(o.message);
  REQUIRE(o.ok());
  const std::vector<std::string> got = shown_rows(o.rows);
  REQUIRE(got.size() == 4);
  CHECK(got[0] == "integer 1 | text Ann | real 1.5 | text 30 | blob 00ff | text 1 | null");
  CHECK(got[1] == "integer 2 | text B\xc3\xa9\tto | real 2.0 | text 31 | blob  | text two | null");
  CHECK(got[2] == "integer 3 | null | null | text 32.5 | null | text 3.25 | null");
  CHECK(got[3] ==
        "integer 4 | text A\xEF\xBF\xBD"
        "B | real 1e+300 | null | blob 5c4e | null | null");
  const query_outcome notes = c.conn->execute("SELECT note FROM orders ORDER BY id", {});
  REQUIRE(notes.ok());
  REQUIRE(notes.rows.row_count() == 4);
  CHECK(test::show(notes.rows.cell(0, 0)) == "text a\\b");
  CHECK(test::show(notes.rows.cell(1, 0)) == "text line\nbreak");
  CHECK(test::show(notes.rows.cell(2, 0)) == "text \\N");  // the text, not a NULL
  // Text compares byte for byte, trailing spaces included, as in SQLite (utf8mb4_bin would take 'a '
  // for 'a').
  const query_outcome pad = c.conn->execute(
      "SELECT (SELECT COUNT(DISTINCT v) FROM pad), (SELECT COUNT(*) FROM pad WHERE v = 'a'), "
      "(SELECT COUNT(*) FROM pad GROUP BY v ORDER BY COUNT(*) DESC LIMIT 1)",
      {});
  INFO(pad.message);
  REQUIRE(pad.ok());
  CHECK(shown_rows(pad.rows) == std::vector<std::string>{"integer 3 | integer 1 | integer 1"});
  // The reading account may read and nothing else.
  CHECK(test::maria_value("", "SHOW GRANTS FOR 'sqlmorph_reader'@'localhost'") ==
        "GRANT USAGE ON *.* TO `sqlmorph_reader`@`localhost`");
  CHECK(c.conn->execute("SELECT COUNT(*) FROM singer", {}).ok());

  // An existing database is not replaced unless asked; bad arguments say what is wrong.
  const auto again = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to});
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("database sqlmorph_load_maria already exists (--replace") != std::string::npos);
  CHECK(
      test::run_loader({"--from", "sqlite:" + file.string(), "--to", "mysql:socket=/x user=root database=d"})
          .err.find("database={db_id}") != std::string::npos);
  CHECK(test::run_loader({"--from", "sqlite:" + file.string(), "--to", to, "--grant", "o'neil", "--replace"})
            .err.find("quotes and backslashes are not allowed") != std::string::npos);
  CHECK(test::run_loader({"--from", "sqlite:" + file.string(), "--to", to, "--worker-roles", "2", "--grant",
                          "r", "--replace"})
            .err.find("--worker-roles is for PostgreSQL") != std::string::npos);
}

TEST_CASE("sqlmorph-load --temporal-types --primary-keys: dates, timestamps and keys where the data allow") {
  test::temp_dir dir;
  const auto file = dir.path() / "sqlmorph_load_typed.sqlite";
  test::create_sqlite(file, R"(
    CREATE TABLE ev (id INTEGER, day DATE, at DATETIME, stamp TIMESTAMP, odd DATE, none_yet DATE, n INT,
                     PRIMARY KEY (id));
    INSERT INTO ev VALUES (1, '2024-02-29', '2024-02-29 13:45:01', '2024-02-29T13:45:01.25', '29/02/2024', NULL, 1);
    INSERT INTO ev VALUES (2, NULL, '2024-03-01', NULL, '2024-03-01', NULL, 2);
    CREATE TABLE pair (a TEXT, b INT, note DATE, PRIMARY KEY (b, a));
  )");
  const auto r = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to_arg(), "--replace",
                                   "--temporal-types", "--primary-keys"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string db = "sqlmorph_load_typed";
  const auto type_of = [&](const std::string& table, const std::string& column) {
    return test::pg_value(db, "SELECT data_type FROM information_schema.columns WHERE table_name = '" +
                                  table + "' AND column_name = '" + column + "'");
  };
  CHECK(type_of("ev", "day") == "date");
  CHECK(type_of("ev", "at") == "timestamp without time zone");  // a date alone is a timestamp at midnight
  CHECK(type_of("ev", "stamp") == "timestamp without time zone");
  CHECK(type_of("ev", "odd") == "text");       // not every value is an ISO date
  CHECK(type_of("ev", "none_yet") == "date");  // empty: the declared type
  CHECK(type_of("pair", "note") == "date");
  CHECK(test::pg_value(db, "SELECT stamp::text FROM ev WHERE id = 1") == "2024-02-29 13:45:01.25");
  CHECK(test::pg_value(db, "SELECT at::text FROM ev WHERE id = 2") == "2024-03-01 00:00:00");
  // The keys, in key order; a SELECT of columns that depend on the key binds.
  CHECK(test::pg_value(db,
                       "SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM pg_constraint c "
                       "CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY k(attnum, ord) "
                       "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum "
                       "WHERE c.conrelid = 'pair'::regclass AND c.contype = 'p'") == "b,a");
  CHECK(test::pg_value(db, "SELECT count(*) FROM (SELECT id, day FROM ev GROUP BY id) t") == "2");
  // Without the flags: text, and no keys.
  const auto plain = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to_arg(), "--replace"});
  REQUIRE(plain.exit_code == 0);
  CHECK(type_of("ev", "day") == "text");
  CHECK(test::pg_value(db,
                       "SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND connamespace = "
                       "'public'::regnamespace") == "0");
  // --primary-keys is PostgreSQL's only.
  CHECK(
      test::run_loader({"--from", "sqlite:" + file.string(), "--to",
                        "mysql:" + test::mariadb().target("{db_id}", "root"), "--replace", "--primary-keys"})
          .err.find("--primary-keys is for PostgreSQL") != std::string::npos);
}

TEST_CASE(
    "sqlmorph-load writes DuckDB files: the same types, every value as in SQLite, never a partial file") {
  test::temp_dir dir;
  const auto file = dir.path() / "shop.sqlite";
  test::create_sqlite(file, R"(
    CREATE TABLE "Singer" ("Singer_ID" INT, "Name" TEXT, "Net Worth" REAL, "Age" TEXT, photo BLOB, mixed, empty_int INTEGER);
    INSERT INTO "Singer" VALUES (1, 'Ann', 1.5, 30, x'00ff', 1, NULL);
    INSERT INTO "Singer" VALUES (2, 'Bé' || char(9) || 'to', 2, '31', x'', 'two', NULL);
    INSERT INTO "Singer" VALUES (3, NULL, NULL, 32.5, NULL, 3.25, NULL);
    INSERT INTO "Singer" VALUES (4, CAST(x'41ff42' AS TEXT), 1e300, NULL, x'5c4e', NULL, NULL);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT, day DATE);
    INSERT INTO orders(note, day) VALUES ('a\b', '2024-02-29'), ('line
break', NULL), ('\N', '2024-03-01'), ('it''s', '2024-03-02');
  )");
  const std::string to = "duckdb:" + (dir.path() / "duck" / "{db_id}" / "{db_id}.duckdb").string();
  const auto r = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to, "--temporal-types",
                                   "--duckdb-library", test::duckdb_library_path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("shop: 2 tables, 8 rows (columns: 3 BIGINT, 1 BLOB, 1 DATE, 1 DOUBLE, 4 VARCHAR)") !=
        std::string::npos);
  CHECK(r.out.find("1 values had invalid UTF-8, replaced by U+FFFD") != std::string::npos);
  const auto written = dir.path() / "duck" / "shop" / "shop.duckdb";
  REQUIRE(std::filesystem::exists(written));
  // Only the database is left: no partial file, no write-ahead log.
  CHECK(std::distance(std::filesystem::directory_iterator(written.parent_path()),
                      std::filesystem::directory_iterator()) == 1);

  // Read back through the duckdb backend: every value as it was in SQLite, names as written there.
  auto c = test::registry().create<backend>(core::component_spec("duckdb"))->connect(written.string());
  INFO(c.message);
  REQUIRE(c.conn != nullptr);
  const query_outcome o = c.conn->execute("SELECT * FROM singer ORDER BY singer_id", {});
  INFO(o.message);
  REQUIRE(o.ok());
  CHECK(o.rows.column_names() ==
        std::vector<std::string>{"Singer_ID", "Name", "Net Worth", "Age", "photo", "mixed", "empty_int"});
  const std::vector<std::string> got = shown_rows(o.rows);
  REQUIRE(got.size() == 4);
  CHECK(got[0] == "integer 1 | text Ann | real 1.5 | text 30 | blob 00ff | text 1 | null");
  CHECK(got[1] == "integer 2 | text B\xc3\xa9\tto | real 2.0 | text 31 | blob  | text two | null");
  CHECK(got[2] == "integer 3 | null | null | text 32.5 | null | text 3.25 | null");
  CHECK(got[3] ==
        "integer 4 | text A\xEF\xBF\xBD"
        "B | real 1e+300 | null | blob 5c4e | null | null");
  const query_outcome notes = c.conn->execute("SELECT note, day FROM orders ORDER BY id", {});
  REQUIRE(notes.ok());
  REQUIRE(notes.rows.row_count() == 4);
  CHECK(test::show(notes.rows.cell(0, 0)) == "text a\\b");
  CHECK(test::show(notes.rows.cell(1, 0)) == "text line\nbreak");
  CHECK(test::show(notes.rows.cell(2, 0)) == "text \\N");  // the text, not a NULL
  CHECK(test::show(notes.rows.cell(3, 0)) == "text it's");
  CHECK(test::show(notes.rows.cell(0, 1)) == "text 2024-02-29");
  CHECK(test::show(notes.rows.cell(1, 1)) == "null");
  c.conn.reset();

  // An existing file is not replaced unless asked; --replace writes it again.
  const auto again = test::run_loader({"--from", "sqlite:" + file.string(), "--to", to});
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("shop.duckdb already exists (--replace writes it again)") != std::string::npos);
  CHECK(test::run_loader({"--from", "sqlite:" + file.string(), "--to", to, "--replace", "-q"}).exit_code ==
        0);
  // Options for servers are refused; a library that is not DuckDB's says how to get it, and leaves nothing.
  CHECK(test::run_loader({"--from", "sqlite:" + file.string(), "--to", to, "--replace", "--grant", "r"})
            .err.find("--grant and --worker-roles are for database servers") != std::string::npos);
  const auto other = dir.path() / "other" / "{db_id}.duckdb";
  const auto bad = test::run_loader({"--from", "sqlite:" + file.string(), "--to", "duckdb:" + other.string(),
                                     "--duckdb-library", file.string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("make deps") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "other" / "shop.duckdb"));
}
