#pragma once
// SQLite's mutexes, made to spin briefly before they sleep.
//
// Where sqlmorph could not count SQLite's memory per thread (sqlite_memory.hpp: SQLite had started
// first), SQLite counts it itself, under one process-wide mutex taken by every allocation. Workers
// executing queries at the same time meet on it constantly, for a few dozen instructions each
// time; SQLite's own mutexes then put the thread to sleep and wake it through the kernel (half of a
// two-worker Spider run's futex calls). Spinning for a few microseconds first lets the holder
// finish instead. (SQLite's other process-wide mutexes, taken when connections open and close,
// spin the same way.)

namespace sqlmorph::core {

/// Installs SQLite's own mutex methods with an entry that tries the lock a hundred times, pausing
/// between tries, before it waits as before (everything else, recursive mutexes included, is
/// SQLite's). SQLite takes this only before it is initialized: returns false, changing nothing, when
/// it already was. Not thread-safe, as sqlite3_config() is not: call it before other threads use
/// SQLite.
bool spin_sqlite_mutexes();

/// spin_sqlite_mutexes() once per process (environment::load calls it before loading plugins).
void apply_sqlite_mutexes();

}  // namespace sqlmorph::core
