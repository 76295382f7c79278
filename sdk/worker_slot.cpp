#include "sqlmorph/worker_slot.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace sqlmorph {
namespace {

struct holder {
  int number = 0;
  int slots = 0;
};

struct slot_registry {
  std::mutex mutex;
  std::map<std::thread::id, holder> threads;
};

slot_registry& registry() {
  static auto* r = new slot_registry;  // never destroyed: connections may close while the process exits
  return *r;
}

}  // namespace

worker_slot::worker_slot() : thread_(std::this_thread::get_id()) {
  slot_registry& r = registry();
  std::lock_guard lock(r.mutex);
  holder& h = r.threads[thread_];
  if (h.slots == 0) {
    const auto taken = [&](int n) {
      return std::any_of(r.threads.begin(), r.threads.end(),
                         [n](const auto& t) { return t.second.slots > 0 && t.second.number == n; });
    };
    int lowest = 1;
    while (taken(lowest)) ++lowest;
    h.number = lowest;
  }
  ++h.slots;
  number_ = h.number;
}

worker_slot::~worker_slot() {
  slot_registry& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.threads.find(thread_);
  if (it != r.threads.end() && --it->second.slots == 0) r.threads.erase(it);
}

int worker_slot::threads_holding() noexcept {
  slot_registry& r = registry();
  std::lock_guard lock(r.mutex);
  return static_cast<int>(r.threads.size());
}

}  // namespace sqlmorph
