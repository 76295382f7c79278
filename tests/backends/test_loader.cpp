// sqlmorph-load: SQLite databases copied into PostgreSQL, types chosen from the values stored.

#include <doctest/doctest.h>

#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::string to_arg(const std::string& db_placeholder = "{db_id}") {
  const auto& pg = test::postgres();
  return "postgres:host=" + pg.host + " port=" + std::to_string(pg.port) + " user=" + pg.superuser +
         " dbname=" + db_placeholder;
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
