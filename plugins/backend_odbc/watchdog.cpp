#include "watchdog.hpp"

namespace sqlmorph::odbc {

watchdog::~watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

watchdog::ticket watchdog::arm(clock::time_point deadline, std::function<void()> on_deadline) {
  std::lock_guard lock(mutex_);
  if (!thread_.joinable()) thread_ = std::thread([this] { run_(); });
  const ticket t = next_++;
  armed_.emplace(t, entry{deadline, std::move(on_deadline)});
  wake_.notify_all();
  return t;
}

bool watchdog::disarm(ticket t) noexcept {
  std::unique_lock lock(mutex_);
  if (armed_.erase(t) > 0) return false;
  finished_.wait(lock, [&] { return running_ != t; });
  return true;
}

void watchdog::run_() noexcept {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    // Few entries (one per worker at most): a linear search for the earliest is enough.
    auto next = armed_.end();
    for (auto it = armed_.begin(); it != armed_.end(); ++it) {
      if (next == armed_.end() || it->second.deadline < next->second.deadline) next = it;
    }
    if (next == armed_.end()) {
      wake_.wait(lock);
      continue;
    }
    // A copy: the entry may be disarmed (erased) while this thread waits.
    const clock::time_point deadline = next->second.deadline;
    if (clock::now() < deadline) {
      wake_.wait_until(lock, deadline);
      continue;
    }
    std::function<void()> fn = std::move(next->second.on_deadline);
    running_ = next->first;
    armed_.erase(next);
    lock.unlock();
    fn();
    lock.lock();
    running_ = 0;
    finished_.notify_all();
  }
}

}  // namespace sqlmorph::odbc
