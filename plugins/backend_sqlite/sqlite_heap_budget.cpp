#include "sqlite_heap_budget.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace sqlmorph::sqlite {
namespace {

struct registry {
  std::mutex mutex;
  std::map<std::thread::id, std::vector<std::int64_t>> budgets;  // per thread, one per connection
  std::int64_t limit = 0;

  // Sets SQLite's limit from the budgets (called with the mutex held).
  void apply() {
    std::int64_t total = 0;
    bool unlimited = false;
    for (const auto& [thread, bytes] : budgets) {
      const std::int64_t largest = *std::max_element(bytes.begin(), bytes.end());
      unlimited = unlimited || *std::min_element(bytes.begin(), bytes.end()) == 0;
      total += largest;
    }
    limit = unlimited ? 0 : total;
    sqlite3_hard_heap_limit64(limit);
  }
};

registry& the_registry() {
  static registry* r = new registry;  // never destroyed: connections may close during exit
  return *r;
}

}  // namespace

heap_budget_lease::heap_budget_lease(std::int64_t bytes)
    : thread_(std::this_thread::get_id()), bytes_(bytes) {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.budgets[thread_].push_back(bytes_);
  r.apply();
}

heap_budget_lease::~heap_budget_lease() {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  auto it = r.budgets.find(thread_);
  if (it == r.budgets.end()) return;
  auto& bytes = it->second;
  bytes.erase(std::find(bytes.begin(), bytes.end(), bytes_));
  if (bytes.empty()) r.budgets.erase(it);
  r.apply();
}

std::int64_t heap_limit_in_force() noexcept {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  return r.limit;
}

bool heap_shared_with_other_threads() noexcept {
  registry& r = the_registry();
  std::lock_guard lock(r.mutex);
  const auto self = r.budgets.find(std::this_thread::get_id());
  return r.budgets.size() > (self == r.budgets.end() ? 0u : 1u);
}

}  // namespace sqlmorph::sqlite
