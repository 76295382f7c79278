#include "sqlite_heap_budget.hpp"

#include <sqlite3.h>

#include <mutex>

namespace sqlmorph::sqlite {
namespace {

// Guards taking or releasing a slot together with setting the limit from the count, so that the
// last change sets the limit for the count it left.
std::mutex& limit_mutex() {
  static auto* m = new std::mutex;  // never destroyed: connections may close while the process exits
  return *m;
}

void set_limit(std::int64_t bytes_per_worker) {
  const int workers = worker_slot::threads_holding();
  sqlite3_hard_heap_limit64(workers == 0 ? 0 : bytes_per_worker * workers);
}

}  // namespace

heap_budget_lease::heap_budget_lease(std::int64_t bytes) : bytes_(bytes) {
  std::lock_guard lock(limit_mutex());
  slot_.emplace();
  set_limit(bytes_);
}

heap_budget_lease::~heap_budget_lease() {
  std::lock_guard lock(limit_mutex());
  slot_.reset();
  set_limit(bytes_);
}

std::int64_t heap_limit_in_force() noexcept {
  return sqlite3_hard_heap_limit64(-1);  // a negative argument reads the limit
}

bool heap_shared_with_other_threads() noexcept {
  return worker_slot::threads_holding() > 1;
}

}  // namespace sqlmorph::sqlite
