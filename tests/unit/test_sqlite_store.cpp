// sqlite_store: the SQLite file behind the on-disk caches (support/sqlite_store): opened or created
// with WAL, a busy timeout and a schema, errors that name the file, statements that round-trip what
// they bind, and write transactions that two handles on one file see whole or not at all.

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sqlite_store/statement.hpp"
#include "sqlite_store/store_file.hpp"
#include "sqlite_store/write_transaction.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using sqlite_store::open_error;
using sqlite_store::statement;
using sqlite_store::store_file;
using sqlite_store::store_options;
using sqlite_store::write_transaction;

namespace {

store_options test_options(std::chrono::milliseconds busy_timeout = std::chrono::seconds(5)) {
  return {.label = "test store",
          .schema = "CREATE TABLE IF NOT EXISTS entries (k TEXT PRIMARY KEY, bytes BLOB, n INTEGER, x REAL)",
          .busy_timeout = busy_timeout};
}

std::int64_t count_entries(const store_file& file) {
  statement s(file, "SELECT count(*) FROM entries");
  REQUIRE(s.step());
  return s.column_int(0);
}

std::string thrown_by(const auto& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("sqlite_store: a new file is created in WAL mode with the schema, and reopening keeps its rows") {
  const test::temp_dir dir;
  const auto path = dir.path() / "cache.sqlite";
  {
    const store_file file(path, test_options());
    CHECK(std::filesystem::exists(path));
    CHECK(file.file() == path);
    CHECK(file.label() == "test store");
    statement mode(file, "PRAGMA journal_mode");
    REQUIRE(mode.step());
    CHECK(mode.column_text(0) == "wal");
    statement insert(file, "INSERT INTO entries (k) VALUES ('kept')");
    CHECK_FALSE(insert.step());
  }
  // The schema runs again on an existing file and must leave its rows alone.
  const store_file again(path, test_options());
  CHECK(count_entries(again) == 1);
}

TEST_CASE("sqlite_store: what a statement binds comes back bit for bit") {
  const test::temp_dir dir;
  const store_file file(dir.path() / "cache.sqlite", test_options());
  const std::string text("key with a \0 inside, and \xc3\xa9", 28);
  const std::vector<double> vector = {1.0, -0.0, 1e-300, 0.1};
  {
    statement insert(file, "INSERT INTO entries (k, bytes, n, x) VALUES (?1, ?2, ?3, ?4)");
    insert.bind_text(1, text);
    insert.bind_blob(2, std::as_bytes(std::span(vector)));
    insert.bind_int(3, -(std::int64_t{1} << 40));
    insert.bind_double(4, 0.875);
    CHECK_FALSE(insert.step());
    // Reset and rebind: the same statement stores a second row; empty values are not NULL.
    insert.reset();
    insert.bind_text(1, std::string_view());
    insert.bind_blob(2, {});
    insert.bind_null(3);
    insert.bind_null(4);
    CHECK_FALSE(insert.step());
  }
  statement select(file, "SELECT k, bytes, n, x FROM entries WHERE k = ?1");
  select.bind_text(1, text);
  REQUIRE(select.step());
  CHECK(select.column_text(0) == text);
  const std::span<const std::byte> bytes = select.column_blob(1);
  REQUIRE(bytes.size() == vector.size() * sizeof(double));
  CHECK(std::equal(bytes.begin(), bytes.end(), std::as_bytes(std::span(vector)).begin()));
  CHECK(select.column_int(2) == -(std::int64_t{1} << 40));
  CHECK(select.column_double(3) == 0.875);
  CHECK_FALSE(select.column_is_null(3));
  CHECK_FALSE(select.step());

  select.reset();
  select.bind_text(1, "");
  REQUIRE(select.step());
  CHECK_FALSE(select.column_is_null(0));
  CHECK_FALSE(select.column_is_null(1));
  CHECK(select.column_text(0).empty());
  CHECK(select.column_blob(1).empty());
  CHECK(select.column_is_null(2));
  CHECK(select.column_is_null(3));

  select.reset();
  select.bind_text(1, "absent");
  CHECK_FALSE(select.step());
}

TEST_CASE("sqlite_store: a file that cannot be opened or used is refused with its name") {
  const test::temp_dir dir;
  // A regular file where a folder should be: no one can create the cache, not even root.
  test::write_file(dir.path() / "plain-file", "x");
  const auto unopenable = dir.path() / "plain-file" / "cache.sqlite";
  for (const bool create_folders : {false, true}) {
    store_options options = test_options();
    options.create_folders = create_folders;
    try {
      const store_file file(unopenable, options);
      FAIL("opened ", unopenable);
    } catch (const open_error& e) {
      CHECK(e.failed_at() == open_error::stage::open);
      CHECK(e.file() == unopenable);
      CHECK(std::string(e.what()) == "cannot open the test store " + unopenable.string() + ": " + e.reason());
      CHECK_FALSE(e.reason().empty());
    }
  }
  // The error is an invalid_argument, as a bad option value would be.
  CHECK_THROWS_AS(store_file(unopenable, test_options()), std::invalid_argument);

  const auto not_a_database = dir.path() / "notes.sqlite";
  test::write_file(not_a_database, std::string(4096, 'n'));
  try {
    const store_file file(not_a_database, test_options());
    FAIL("used ", not_a_database);
  } catch (const open_error& e) {
    CHECK(e.failed_at() == open_error::stage::setup);
    CHECK(std::string(e.what()) ==
          "cannot use " + not_a_database.string() + " as the test store: " + e.reason());
    CHECK(e.reason() == "file is not a database");
  }

  store_options bad_schema = test_options();
  bad_schema.schema = "CREATE TABLE broken (";
  CHECK(thrown_by([&] {
          store_file(dir.path() / "schema.sqlite", bad_schema);
        }).starts_with("cannot use " + (dir.path() / "schema.sqlite").string() + " as the test store: "));
}

TEST_CASE("sqlite_store: create_folders makes the missing folders, without it they stay missing") {
  const test::temp_dir dir;
  const auto nested = dir.path() / "a" / "b" / "cache.sqlite";
  CHECK_THROWS_AS(store_file(nested, test_options()), open_error);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "a"));
  store_options options = test_options();
  options.create_folders = true;
  const store_file file(nested, options);
  CHECK(std::filesystem::exists(nested));
}

TEST_CASE("sqlite_store: statement errors are runtime errors with the label") {
  const test::temp_dir dir;
  const store_file file(dir.path() / "cache.sqlite", test_options());
  CHECK(thrown_by([&] { statement(file, "SELECT * FROM missing_table"); }) ==
        "test store: no such table: missing_table");
  statement insert(file, "INSERT INTO entries (k) VALUES (?1)");
  insert.bind_text(1, "once");
  CHECK_FALSE(insert.step());
  insert.reset();
  CHECK_THROWS_WITH_AS(insert.step(), "test store: UNIQUE constraint failed: entries.k", std::runtime_error);
  CHECK_THROWS_AS(insert.bind_text(7, "no such parameter"), std::runtime_error);
  CHECK_THROWS_WITH(file.exec("COMMIT"), doctest::Contains("test store: cannot commit"));
}

TEST_CASE("sqlite_store: two handles on one file see a write transaction whole, or not at all") {
  const test::temp_dir dir;
  const auto path = dir.path() / "shared.sqlite";
  const store_file writer(path, test_options());
  const store_file other(path, test_options(std::chrono::milliseconds(50)));

  {
    write_transaction transaction(writer);
    statement insert(writer, "INSERT INTO entries (k) VALUES (?1)");
    for (const char* k : {"a", "b", "c"}) {
      insert.bind_text(1, k);
      CHECK_FALSE(insert.step());
      insert.reset();
    }
    // WAL: the other handle reads the last committed state while the write is under way...
    CHECK(count_entries(other) == 0);
    // ...and cannot take the write lock; it gives up after its busy timeout.
    CHECK_THROWS_WITH(write_transaction{other}, "test store: database is locked");
    transaction.commit();
  }
  CHECK(count_entries(other) == 3);

  {
    write_transaction transaction(other);
    statement insert(other, "INSERT INTO entries (k) VALUES ('dropped')");
    CHECK_FALSE(insert.step());
    // Out of scope without commit(): rolled back, and the lock is free again.
  }
  CHECK(count_entries(writer) == 3);
  write_transaction next(writer);
  next.commit();
}
