#pragma once
// parallel_for: fn(i) for every i in [0, count), spread over up to `threads` threads (the calling
// thread is one of them), each taking the next index until none is left. The first exception
// thrown by fn is rethrown once every thread has stopped; the other indexes may or may not have
// run. Used where independent pieces of work are each written to their own slot (suite databases,
// the intervals of a summary), so the result does not depend on the number of threads.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace sqlmorph::core {

/// The threads parallel_for uses when asked for 0: one per hardware thread.
inline unsigned default_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

template <typename Fn>
void parallel_for(std::size_t count, unsigned threads, Fn&& fn) {
  if (threads == 0) threads = default_threads();
  const std::size_t started = std::min<std::size_t>(threads, count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i = next++; i < count && !failed; i = next++) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < started; ++t) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // the system refuses more threads: the ones started (and this one) do the work
    }
  }
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace sqlmorph::core
