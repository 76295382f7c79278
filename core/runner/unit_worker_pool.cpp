#include "runner/unit_worker_pool.hpp"

#include <algorithm>
#include <system_error>

#include <spdlog/spdlog.h>

#include "errors.hpp"

namespace sqlmorph::core {

std::size_t finished_unit::bytes() const {
  std::size_t n = sizeof(finished_unit) + results.lines.size() + results.check.size();
  for (const std::string& line : lines) n += sizeof(std::string) + line.size();
  for (const record& r : records)
    n += sizeof(record) + r.id.size() + r.db_id.size() + r.system.size() + r.difficulty.size() +
         r.technique.size() + r.error.size() + r.scores.extra.size() * 48;
  return n;
}

unit_worker_pool::unit_worker_pool(std::size_t first, std::size_t count, reorder_window window,
                                   unsigned workers, worker_factory make)
    : count_(count), window_(window), next_(first), written_(first) {
  const std::size_t needed = std::min<std::size_t>(workers, count > first ? count - first : 0);
  discarded_.resize(needed);
  for (std::size_t j = 0; j < needed; ++j) {
    // A thread the system refuses (EAGAIN: a process or thread limit) must not leave the ones
    // already started running when the exception unwinds (std::terminate): go on with fewer, or
    // stop cleanly when there is none.
    try {
      threads_.emplace_back([this, make, j] { work_(make, j); });
    } catch (const std::system_error& e) {
      if (threads_.empty()) throw usage_error(std::string("cannot start a worker thread: ") + e.what());
      spdlog::warn("started {} of {} workers (the system refused more: {})", threads_.size(), needed,
                   e.what());
      break;
    }
  }
}

unit_worker_pool::~unit_worker_pool() {
  stop();
}

void unit_worker_pool::work_(const worker_factory& make, std::size_t worker) {
  try {
    const unit_evaluator evaluate = make();
    std::vector<finished_unit> spent;
    while (true) {
      std::size_t u;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] {
          return stop_ || next_ >= count_ || next_ == written_ ||
                 (next_ < written_ + window_.units && finished_bytes_ < window_.bytes);
        });
        if (stop_ || next_ >= count_) return;
        u = next_++;
        running_.emplace(u, std::chrono::steady_clock::now());
        spent.swap(discarded_[worker]);
      }
      spent.clear();  // the units the writer handed back, freed on this thread
      finished_unit done = evaluate(u);
      done.worker = worker;
      done.counted_bytes = done.bytes();
      finished_examples_ += done.examples;
      {
        std::lock_guard lock(mutex_);
        running_.erase(u);
        finished_bytes_ += done.counted_bytes;
        finished_.emplace(u, std::move(done));
      }
      changed_.notify_all();
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
    stop_ = true;
    changed_.notify_all();
  }
}

std::optional<finished_unit> unit_worker_pool::take(std::size_t u, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [&] { return finished_.count(u) > 0 || failure_; });
  if (failure_) return std::nullopt;
  const auto it = finished_.find(u);
  if (it == finished_.end()) return std::nullopt;
  finished_unit out = std::move(it->second);
  finished_.erase(it);
  finished_bytes_ -= out.counted_bytes;
  return out;
}

void unit_worker_pool::discard(finished_unit&& unit) {
  std::lock_guard lock(mutex_);
  if (!threads_.empty() && !stop_ && unit.worker < discarded_.size())
    discarded_[unit.worker].push_back(std::move(unit));
}

void unit_worker_pool::written(std::size_t next) {
  {
    std::lock_guard lock(mutex_);
    written_ = next;
  }
  changed_.notify_all();
}

std::optional<std::pair<std::size_t, double>> unit_worker_pool::longest_running() {
  std::lock_guard lock(mutex_);
  if (running_.empty()) return std::nullopt;
  const auto oldest = std::min_element(running_.begin(), running_.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
  return std::pair(oldest->first,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - oldest->second).count());
}

std::exception_ptr unit_worker_pool::failure() {
  std::lock_guard lock(mutex_);
  return failure_;
}

void unit_worker_pool::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

}  // namespace sqlmorph::core
