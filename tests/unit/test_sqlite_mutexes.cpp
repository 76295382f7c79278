// SQLite's mutexes made to spin before they sleep (core/app/sqlite_mutexes.hpp): still mutexes,
// and installed only before SQLite starts.

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "app/sqlite_mutexes.hpp"

TEST_CASE(
    "SQLite's mutexes spin before they sleep, still exclude each other, and are installed only before SQLite "
    "starts") {
  // SQLite takes mutex methods only while it is not initialized: shut it down, as in a fresh process.
  REQUIRE(sqlite3_shutdown() == SQLITE_OK);
  REQUIRE(sqlmorph::core::spin_sqlite_mutexes());
  CHECK(sqlmorph::core::spin_sqlite_mutexes());  // again, before SQLite starts: still installed

  // Four threads allocate at the same time through SQLite, which counts every allocation under
  // one process-wide mutex (memory statistics are on, SQLite's default): were the mutex not
  // exclusive, counts would be lost and the total would not come back to where it started.
  REQUIRE(sqlite3_initialize() == SQLITE_OK);
  const sqlite3_int64 before = sqlite3_memory_used();
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&failures, t] {
      sqlite3* db = nullptr;
      if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                          nullptr) != SQLITE_OK) {
        ++failures;
        sqlite3_close(db);
        return;
      }
      const std::string portable =
          "create table t(a, b); with recursive s(v) as (select 1 union all select v + 1 from s where v < "
          "200) insert into t select v, printf('%0" +
          std::to_string(10 + t) + "d', v) from s;";
      if (sqlite3_exec(db, portable.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ++failures;
      for (int round = 0; round < 300; ++round) {
        void* p = sqlite3_malloc(64 + round);
        if (p == nullptr) ++failures;
        sqlite3_free(p);
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, "select count(*), max(b) from t where a > ?", -1, &stmt, nullptr) !=
            SQLITE_OK) {
          ++failures;
          continue;
        }
        sqlite3_bind_int(stmt, 1, round % 200);
        if (sqlite3_step(stmt) != SQLITE_ROW || sqlite3_column_int(stmt, 0) != 200 - round % 200) ++failures;
        sqlite3_finalize(stmt);
      }
      sqlite3_close(db);
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures.load() == 0);
  CHECK(sqlite3_memory_used() == before);

  // Initialized now: the methods are refused, and it says so.
  CHECK_FALSE(sqlmorph::core::spin_sqlite_mutexes());
}
