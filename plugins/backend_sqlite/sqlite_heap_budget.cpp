#include "sqlite_heap_budget.hpp"

#include <sqlite3.h>

#include <mutex>

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::sqlite {
namespace {

// Guards taking or releasing a slot together with setting the limit from the count, so that the
// last change sets the limit for the count it left.
std::mutex& limit_mutex() {
  static auto* m = new std::mutex;  // never destroyed: connections may close while the process exits
  return *m;
}

void set_process_limit(std::int64_t bytes_per_worker) {
  const int workers = worker_slot::threads_holding();
  sqlite3_hard_heap_limit64(workers == 0 ? 0 : bytes_per_worker * workers);
}

}  // namespace

heap_budget_lease::heap_budget_lease(std::int64_t bytes)
    : bytes_(bytes), per_thread_(plugin::limit_sqlite_heap_of_thread(bytes)) {
  if (per_thread_) return;
  std::lock_guard lock(limit_mutex());
  slot_.emplace();
  set_process_limit(bytes_);
}

heap_budget_lease::~heap_budget_lease() {
  if (per_thread_) return;
  std::lock_guard lock(limit_mutex());
  slot_.reset();
  set_process_limit(bytes_);
}

void heap_budget_lease::apply() const noexcept {
  if (per_thread_) plugin::limit_sqlite_heap_of_thread(bytes_);
}

bool heap_budget_lease::limited() const noexcept {
  if (per_thread_) return bytes_ > 0;
  return process_heap_limit() > 0;
}

std::int64_t process_heap_limit() noexcept {
  return sqlite3_hard_heap_limit64(-1);  // a negative argument reads the limit
}

bool heap_budget_lease::shared_with_other_threads() const noexcept {
  return !per_thread_ && worker_slot::threads_holding() > 1;
}

}  // namespace sqlmorph::sqlite
