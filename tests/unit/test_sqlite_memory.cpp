// SQLite's memory counted per thread (core/app/sqlite_memory.hpp): each thread's allocations under
// its own limit, counted without SQLite's process-wide statistics, installed only before SQLite
// starts.

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <thread>

#include "app/sqlite_memory.hpp"

namespace {

constexpr std::int64_t mib = 1 << 20;

// Twenty copies of a 1 MB value in one row: about 20 MB of SQLite's heap at once.
int step_twenty_megabytes() {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return -1;
  }
  sqlite3_stmt* stmt = nullptr;
  int rc =
      sqlite3_prepare_v2(db,
                         "WITH v(s) AS (SELECT printf('%.*c', 1000000, 'x')) SELECT s, s, s, s, s, s, s, "
                         "s, s, s, s, s, s, s, s, s, s, s, s, s FROM v",
                         -1, &stmt, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rc & 0xff;
}

}  // namespace

TEST_CASE("SQLite's memory is counted per thread, each thread under its own limit") {
  // SQLite takes an allocator only while it is not initialized: shut it down, as in a fresh process.
  REQUIRE(sqlite3_shutdown() == SQLITE_OK);
  REQUIRE(sqlmorph::core::count_sqlite_memory_per_thread());
  REQUIRE(sqlite3_initialize() == SQLITE_OK);

  // (Checks only inside the threads: a failed REQUIRE would throw out of them.)
  std::thread limited([&] {
    const std::int64_t start = sqlmorph::core::sqlite_heap_of_thread();
    CHECK(sqlmorph::core::limit_sqlite_heap_of_thread(8 * mib));
    void* a = sqlite3_malloc(4 * mib);
    CHECK(a != nullptr);
    CHECK(sqlmorph::core::sqlite_heap_of_thread() - start >= 4 * mib);
    CHECK(sqlite3_msize(a) >= static_cast<sqlite3_uint64>(4 * mib));
    // 4 + 6 MiB is over the thread's 8: refused, and nothing is counted for it.
    CHECK(sqlite3_malloc(6 * mib) == nullptr);
    CHECK(sqlite3_realloc(a, 10 * mib) == nullptr);  // a stays as it was
    void* b = sqlite3_realloc(a, 6 * mib);           // growing within the limit
    CHECK(b != nullptr);
    CHECK(sqlmorph::core::sqlite_heap_of_thread() - start >= 6 * mib);
    sqlite3_free(b);
    CHECK(sqlmorph::core::sqlite_heap_of_thread() == start);
    // A query that needs more than the thread's limit fails as SQLite fails out of memory...
    CHECK(step_twenty_megabytes() == SQLITE_NOMEM);
    CHECK(sqlmorph::core::sqlite_heap_of_thread() == start);
    // ... and runs once the limit allows it.
    CHECK(sqlmorph::core::limit_sqlite_heap_of_thread(64 * mib));
    CHECK(step_twenty_megabytes() == SQLITE_ROW);
    CHECK(sqlmorph::core::limit_sqlite_heap_of_thread(0));  // no limit
    void* big = sqlite3_malloc(100 * mib);
    CHECK(big != nullptr);
    sqlite3_free(big);
    CHECK(sqlmorph::core::sqlite_heap_of_thread() == start);
  });
  // Meanwhile another thread (no limit of its own) holds more than the first one's limit.
  std::thread unlimited([] {
    void* p = sqlite3_malloc(32 * mib);
    CHECK(p != nullptr);
    CHECK(step_twenty_megabytes() == SQLITE_ROW);
    sqlite3_free(p);
  });
  limited.join();
  unlimited.join();

  // Memory freed on another thread counts there: the allocating thread still holds it.
  std::int64_t held_by_allocator = 0;
  void* handed = nullptr;
  std::thread allocator([&] {
    const std::int64_t start = sqlmorph::core::sqlite_heap_of_thread();
    handed = sqlite3_malloc(mib);
    held_by_allocator = sqlmorph::core::sqlite_heap_of_thread() - start;
  });
  allocator.join();
  CHECK(held_by_allocator >= mib);
  const std::int64_t before_free = sqlmorph::core::sqlite_heap_of_thread();
  sqlite3_free(handed);
  CHECK(before_free - sqlmorph::core::sqlite_heap_of_thread() == held_by_allocator);

  // SQLite's own statistics are off: nothing takes their process-wide mutex.
  CHECK(sqlite3_memory_used() == 0);

  // Initialized now: the allocator is refused, and it says so.
  CHECK_FALSE(sqlmorph::core::count_sqlite_memory_per_thread());
}

TEST_CASE("without the counting allocator, no thread limit is set") {
  // SQLite started first (as when something else in the process used it before sqlmorph). (Each
  // test case runs in a process of its own under ctest: the one above installed the allocator in
  // its own.)
  REQUIRE(sqlite3_initialize() == SQLITE_OK);
  CHECK_FALSE(sqlmorph::core::count_sqlite_memory_per_thread());
  CHECK_FALSE(sqlmorph::core::limit_sqlite_heap_of_thread(8 * mib));
}
