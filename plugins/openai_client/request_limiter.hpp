#pragma once
// A counting semaphore bounding the requests in flight to an endpoint, shared by every thread that
// uses one component instance.

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace sqlmorph::openai {

class request_limiter {
 public:
  explicit request_limiter(std::size_t limit) : free_(limit == 0 ? 1 : limit) {}

  /// Holds one slot from construction to destruction (blocks while none is free).
  class slot {
   public:
    explicit slot(const request_limiter& l) : limiter_(l) { limiter_.acquire_(); }
    ~slot() { limiter_.release_(); }
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;

   private:
    const request_limiter& limiter_;
  };

 private:
  void acquire_() const {
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [this] { return free_ > 0; });
    --free_;
  }
  void release_() const {
    {
      const std::lock_guard lock(mutex_);
      ++free_;
    }
    freed_.notify_one();
  }

  mutable std::mutex mutex_;
  mutable std::condition_variable freed_;
  mutable std::size_t free_;
};

}  // namespace sqlmorph::openai
