#pragma once
/// \file worker_slot.hpp
/// A small number per worker thread, for backends whose engine needs a setting per worker: a login
/// role per worker (sessions of one PostgreSQL role may cancel and terminate each other), a share
/// of a limit the engine only has process-wide (SQLite's heap limit).
///
/// Workers open their own connections on their own threads (backend.hpp), so a connection holds a
/// slot of the thread that opened it. Thread-safe.

#include <thread>

namespace sqlmorph {

class worker_slot {
 public:
  /// A slot of the calling thread: the number it already holds, else the lowest number (1, 2, ...)
  /// that no other thread holds. The thread keeps its number while any of its slots lives; then
  /// the number is free for another thread.
  worker_slot();
  ~worker_slot();
  worker_slot(const worker_slot&) = delete;
  worker_slot& operator=(const worker_slot&) = delete;

  int number() const noexcept { return number_; }

  /// How many threads hold slots now (in this plugin: each plugin has its own numbering).
  static int threads_holding() noexcept;

 private:
  std::thread::id thread_;
  int number_ = 0;
};

}  // namespace sqlmorph
