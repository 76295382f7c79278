#pragma once
// SQLite's memory, counted per thread.
//
// SQLite counts the memory it holds for its heap limit (the engine's guard against memory bombs)
// in process-wide statistics, updated under one mutex by every allocation: workers executing
// queries at the same time meet on it constantly (Debian's SQLite has no lookaside, so every small
// object of a statement is an allocation). Here SQLite's allocator is replaced by one that counts,
// per thread and without a lock, what SQLite allocates on that thread less what it frees there,
// and refuses an allocation past the thread's own limit (SQLite then reports "out of memory");
// SQLite's statistics are turned off. A worker's queries thus have a heap limit of their own,
// which another worker's memory bomb cannot use up.
//
// Memory freed on another thread than the one that allocated it counts on the freeing thread (a
// worker's connections closed after the run by another thread): the counts are for limiting a
// thread's queries, not for reporting the process's use.

#include <cstdint>

namespace sqlmorph::core {

/// Installs the counting allocator and turns SQLite's memory statistics off. SQLite takes both only
/// before it is initialized, and nothing it allocated may be outstanding: returns false, changing
/// nothing, when SQLite had started (also when this allocator was installed before it started).
/// Not thread-safe, as sqlite3_config() is not: call it before other threads use SQLite.
bool count_sqlite_memory_per_thread();

/// count_sqlite_memory_per_thread() once per process (environment::load calls it before loading
/// plugins; they reach limit_sqlite_heap_of_thread through the host services).
void apply_sqlite_memory();

/// Limits the SQLite memory of the calling thread to `bytes` (0: no limit) and returns true, when
/// the allocator is installed; false otherwise (SQLite's process-wide heap limit is all there is).
bool limit_sqlite_heap_of_thread(std::int64_t bytes) noexcept;

/// The SQLite memory the calling thread holds: what SQLite allocated on it less what it freed on it.
std::int64_t sqlite_heap_of_thread() noexcept;

}  // namespace sqlmorph::core
