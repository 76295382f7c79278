#include "app/exit_memory.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace sqlmorph::core {
namespace {
std::atomic<bool> left_to_exit{false};
}  // namespace

void leave_memory_to_exit(bool yes) noexcept {
  left_to_exit = yes && !address_sanitized;
}

bool memory_left_to_exit() noexcept {
  return left_to_exit.load(std::memory_order_relaxed);
}

void detail::keep_until_exit(const void* object) {
  static std::mutex mutex;
  static auto* const kept = new std::vector<const void*>;  // never freed
  const std::lock_guard lock(mutex);
  kept->push_back(object);
}

}  // namespace sqlmorph::core
