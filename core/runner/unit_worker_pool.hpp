#pragma once
// The workers of a run: each takes the next unit in order and leaves what it made for the writer,
// which takes the units back in order. Finished units wait for the writer within a bounded reorder
// window (a number of units and of bytes), so one slow unit does not stop the other workers until
// the window is full, and memory stays bounded however long it takes.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "eval/record.hpp"
#include "runner/results_file.hpp"

namespace sqlmorph::core {

/// What a worker made of one unit: its records, its examples.jsonl lines and its results.jsonl
/// text.
struct finished_unit {
  std::vector<record> records;
  std::vector<std::string> lines;
  results_unit_text results;
  /// How many examples the unit holds (for progress).
  std::size_t examples = 0;
  /// About how much memory it holds, for the pool's bound on finished units waiting to be written.
  std::size_t bytes() const;
  /// bytes(), as the pool counted it when the unit was finished.
  std::size_t counted_bytes = 0;
  /// The worker that made it (the pool's numbering), which frees it once it is written.
  std::size_t worker = 0;
};

/// How far workers may run ahead of the writer: a unit is started only while fewer than `units`
/// units lie between the writer and it and the finished ones waiting hold less than `bytes`. The
/// unit the writer waits for is always started.
struct reorder_window {
  std::size_t units = 4096;
  std::size_t bytes = std::size_t{256} << 20;
};

class unit_worker_pool {
 public:
  /// Evaluates one unit on the worker thread that made it (the worker's connections, evaluator
  /// and judges live in it).
  using unit_evaluator = std::function<finished_unit(std::size_t unit)>;
  /// Called once on each worker thread to make that worker's evaluator.
  using worker_factory = std::function<unit_evaluator()>;

  /// Starts up to `workers` threads for units [first, count). A thread the system refuses (EAGAIN)
  /// leaves fewer workers, with a warning; none at all is a usage_error.
  unit_worker_pool(std::size_t first, std::size_t count, reorder_window window, unsigned workers,
                   worker_factory make);
  ~unit_worker_pool();
  unit_worker_pool(const unit_worker_pool&) = delete;
  unit_worker_pool& operator=(const unit_worker_pool&) = delete;

  unsigned workers() const noexcept { return static_cast<unsigned>(threads_.size()); }

  /// Unit `u` — the next one to write — once it is finished, waiting at most `wait`; nothing when
  /// it is not finished yet or a worker failed (see failure()).
  std::optional<finished_unit> take(std::size_t u, std::chrono::milliseconds wait);
  /// The writer has written everything before `next`: workers may go on within the window.
  void written(std::size_t next);
  /// Hands a written unit back: a worker frees it when it takes its next unit. Its records and
  /// lines were allocated by a worker thread; freeing them there keeps the writer (one thread for
  /// every worker) on writing, and each allocator arena with its own thread.
  void discard(finished_unit&& unit);
  /// Examples in the units finished so far, written or not (what progress shows).
  std::size_t finished_examples() const noexcept { return finished_examples_; }
  /// The unit running for the longest time and for how many seconds; nothing when none runs.
  std::optional<std::pair<std::size_t, double>> longest_running();
  /// The first exception of a worker (the run stops: rethrow it).
  std::exception_ptr failure();
  /// Stops the workers (they finish the unit in hand) and joins them. Idempotent.
  void stop();

 private:
  void work_(const worker_factory& make, std::size_t worker);

  const std::size_t count_;
  const reorder_window window_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t next_;     // the next unit a worker takes
  std::size_t written_;  // units before this one are written
  std::map<std::size_t, finished_unit> finished_;
  std::size_t finished_bytes_ = 0;                                        // bytes() of the units in finished_
  std::map<std::size_t, std::chrono::steady_clock::time_point> running_;  // unit -> when it started
  // Written units, to be freed by the worker that made them (freeing another thread's memory
  // costs the allocator more): one list per worker.
  std::vector<std::vector<finished_unit>> discarded_;
  std::atomic<std::size_t> finished_examples_{0};
  bool stop_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> threads_;
};

}  // namespace sqlmorph::core
