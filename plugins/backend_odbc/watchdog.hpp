#pragma once
// A deadline keeper: calls a function from its own thread when a deadline passes, unless it is
// disarmed first. Drivers that ignore SQL_ATTR_QUERY_TIMEOUT (the SQLite ODBC driver does) are
// interrupted this way, with SQLCancel, instead of being waited for.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace sqlmorph::odbc {

/// One thread for every connection of a backend, started on first use, stopped by the destructor.
/// Thread-safe.
class watchdog {
 public:
  using clock = std::chrono::steady_clock;
  using ticket = std::uint64_t;

  watchdog() = default;
  ~watchdog();
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;

  /// `on_deadline` runs on the watchdog's thread at `deadline` unless disarm() comes first. It must
  /// not throw and must not call arm() or disarm(). May throw (allocation, thread creation).
  ticket arm(clock::time_point deadline, std::function<void()> on_deadline);

  /// After disarm() returns the function of `t` is not running and never will (if it had started,
  /// this waits until it returned). Returns true if it ran.
  bool disarm(ticket t) noexcept;

 private:
  struct entry {
    clock::time_point deadline;
    std::function<void()> on_deadline;
  };
  void run_() noexcept;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  std::map<ticket, entry> armed_;
  ticket next_ = 1;
  ticket running_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace sqlmorph::odbc
