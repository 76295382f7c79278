#include "runner/shared_query_cache.hpp"

#include "app/exit_memory.hpp"

namespace sqlmorph::core {

shared_query_cache::~shared_query_cache() {
  leave_to_exit(entries_);
  leave_to_exit(lru_);
}

shared_query_cache::outcome_ptr shared_query_cache::get(const std::string& key,
                                                        const std::function<outcome_ptr()>& run) {
  std::promise<outcome_ptr> promise;
  {
    std::unique_lock lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      ++stats_.reused;
      if (it->second.ready) {
        lru_.splice(lru_.begin(), lru_, it->second.lru);
        return it->second.outcome.get();
      }
      std::shared_future<outcome_ptr> pending = it->second.outcome;
      lock.unlock();
      return pending.get();  // another worker is running it
    }
    entries_[key].outcome = promise.get_future().share();
  }
  outcome_ptr outcome;
  try {
    outcome = run();
  } catch (...) {
    // Waiters must not hang: they get the exception, and the key is forgotten.
    promise.set_exception(std::current_exception());
    std::lock_guard lock(mutex_);
    entries_.erase(key);
    throw;
  }
  promise.set_value(outcome);
  const std::size_t bytes = outcome->rows.memory_bytes() + outcome->message.size() + key.size() + 64;
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (bytes > budget_ / 8 || outcome->status == query_status::backend_error) {
    entries_.erase(it);  // too large to keep, or not worth keeping (a failing connection may recover)
    return outcome;
  }
  it->second.ready = true;
  it->second.bytes = bytes;
  lru_.push_front(key);
  it->second.lru = lru_.begin();
  used_ += bytes;
  evict_locked();
  return outcome;
}

void shared_query_cache::evict_locked() {
  while (used_ > budget_ && !lru_.empty()) {
    auto it = entries_.find(lru_.back());
    used_ -= it->second.bytes;
    entries_.erase(it);
    lru_.pop_back();
  }
}

}  // namespace sqlmorph::core
