#include "app/sqlite_memory.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include <spdlog/spdlog.h>
#include <sqlite3.h>

namespace sqlmorph::core {
namespace {

std::atomic<bool> installed{false};

// What SQLite allocated on this thread less what it freed on it, and the most it may hold (0: no
// limit). The sizes are the allocator's (malloc_usable_size), as SQLite's own allocator counts them.
thread_local std::int64_t held = 0;
thread_local std::int64_t limit = 0;

std::int64_t usable(void* p) {
  return static_cast<std::int64_t>(malloc_usable_size(p));
}

void* counted_malloc(int n) {
  if (n <= 0) return nullptr;
  if (limit > 0 && held + n > limit) return nullptr;
  void* p = std::malloc(static_cast<std::size_t>(n));
  if (p != nullptr) held += usable(p);
  return p;
}

void counted_free(void* p) {
  if (p == nullptr) return;
  held -= usable(p);
  std::free(p);
}

void* counted_realloc(void* p, int n) {
  if (p == nullptr) return counted_malloc(n);
  if (n <= 0) return nullptr;  // SQLite never asks for it (sqlite3Realloc frees instead)
  const std::int64_t before = usable(p);
  if (limit > 0 && n > before && held + (n - before) > limit) return nullptr;
  void* q = std::realloc(p, static_cast<std::size_t>(n));
  if (q != nullptr) held += usable(q) - before;
  return q;
}

int counted_size(void* p) {
  return p == nullptr ? 0 : static_cast<int>(usable(p));
}

int rounded_up(int n) {
  return (n + 7) & ~7;
}

int no_init(void*) {
  return SQLITE_OK;
}

void no_shutdown(void*) {}

}  // namespace

bool count_sqlite_memory_per_thread() {
  static sqlite3_mem_methods counting = {&counted_malloc, &counted_free, &counted_realloc, &counted_size,
                                         &rounded_up,     &no_init,      &no_shutdown,     nullptr};
  // Both are refused (SQLITE_MISUSE) once SQLite is initialized.
  if (sqlite3_config(SQLITE_CONFIG_MALLOC, &counting) != SQLITE_OK) return false;
  if (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK) return false;
  installed = true;
  return true;
}

void apply_sqlite_memory() {
  static std::once_flag applied;
  std::call_once(applied, [] {
    if (!count_sqlite_memory_per_thread())
      spdlog::debug(
          "SQLite was initialized before sqlmorph's settings: its heap limit stays process-wide (shared by "
          "the workers)");
  });
}

bool limit_sqlite_heap_of_thread(std::int64_t bytes) noexcept {
  if (!installed.load(std::memory_order_relaxed)) return false;
  limit = bytes > 0 ? bytes : 0;
  return true;
}

std::int64_t sqlite_heap_of_thread() noexcept {
  return held;
}

}  // namespace sqlmorph::core
