#include "app/sqlite_mutexes.hpp"

#include <mutex>

#include <spdlog/spdlog.h>
#include <sqlite3.h>

namespace sqlmorph::core {
namespace {

sqlite3_mutex_methods sqlite_own;  // SQLite's methods (pthreads), called by ours
sqlite3_mutex_methods spinning;

inline void pause_briefly() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

void enter_spinning(sqlite3_mutex* m) {
  constexpr int tries = 100;
  constexpr int pauses = 4;  // between tries: tens to hundreds of cycles, by processor
  for (int t = 0; t < tries; ++t) {
    if (sqlite_own.xMutexTry(m) == SQLITE_OK) return;
    for (int p = 0; p < pauses; ++p) pause_briefly();
  }
  sqlite_own.xMutexEnter(m);
}

}  // namespace

bool spin_sqlite_mutexes() {
  // Before initialization SQLite's methods are filled in only by sqlite3_initialize(): initialize
  // and shut down once to read them. (Once initialized, SQLite refuses to give or take methods.)
  sqlite3_mutex_methods current{};
  if (sqlite3_config(SQLITE_CONFIG_GETMUTEX, &current) != SQLITE_OK) return false;
  if (current.xMutexAlloc == nullptr) {
    if (sqlite3_initialize() != SQLITE_OK) return false;
    sqlite3_shutdown();
    if (sqlite3_config(SQLITE_CONFIG_GETMUTEX, &current) != SQLITE_OK) return false;
  }
  if (current.xMutexEnter == enter_spinning) return true;  // installed already
  if (current.xMutexAlloc == nullptr || current.xMutexTry == nullptr || current.xMutexEnter == nullptr)
    return false;
  sqlite_own = current;
  spinning = current;
  spinning.xMutexEnter = enter_spinning;
  return sqlite3_config(SQLITE_CONFIG_MUTEX, &spinning) == SQLITE_OK;
}

void apply_sqlite_mutexes() {
  static std::once_flag applied;
  std::call_once(applied, [] {
    if (!spin_sqlite_mutexes())
      spdlog::debug("SQLite was initialized before sqlmorph's settings: its mutexes stay as they are");
  });
}

}  // namespace sqlmorph::core
