#include "eval/query_runner.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <shared_mutex>

#include <spdlog/spdlog.h>

namespace sqlmorph::core {

connection_limits connection_limits::for_workers(std::size_t workers) noexcept {
  connection_limits out;
  rlimit fds{};
  if (getrlimit(RLIMIT_NOFILE, &fds) != 0 || fds.rlim_cur == RLIM_INFINITY) return out;
  const std::size_t share = static_cast<std::size_t>(fds.rlim_cur) / 2 / std::max<std::size_t>(1, workers);
  out.files = std::clamp<std::size_t>(share, 8, out.files);
  return out;
}

query_runner::query_runner(exec_limits gold_limits, exec_limits pred_limits, connection_limits open_limits)
    : gold_limits_(gold_limits), pred_limits_(pred_limits), max_open_(open_limits) {
  max_open_.files = std::max<std::size_t>(1, max_open_.files);
  max_open_.servers = std::max<std::size_t>(1, max_open_.servers);
}

void query_runner::cancel_all() noexcept {
  std::lock_guard lock(open_mutex_);
  for (auto& c : open_) c.conn->cancel();
}

namespace {
// Timed repetitions have the process's queries to themselves: a repetition holds this exclusively,
// every other execution shares it, so no worker of the run executes a query while another times
// one (the two would share the machine's cores, caches and memory bandwidth, and skew the ratio).
std::shared_mutex& timing_gate() {
  static std::shared_mutex gate;
  return gate;
}
}  // namespace

std::shared_ptr<const query_outcome> query_runner::execute(const query_target& where, std::string_view sql,
                                                           query_role role) {
  const std::shared_lock shared(timing_gate());
  return std::make_shared<const query_outcome>(run_(where, sql, limits(role)));
}

timed_runs query_runner::repeat(const query_target& gold_where, std::string_view gold_sql,
                                const query_target& pred_where, std::string_view pred_sql,
                                std::size_t iterations) {
  using clock = std::chrono::steady_clock;
  const std::unique_lock exclusive(timing_gate());
  timed_runs out;
  // BIRD gives the whole repetition meta_time_out * iterate_num: the per-query limit, that many times.
  const double budget =
      pred_limits_.timeout_seconds > 0 ? pred_limits_.timeout_seconds * static_cast<double>(iterations) : 0.0;
  const auto start = clock::now();
  for (std::size_t i = 0; i < iterations; ++i) {
    for (const query_role role : {query_role::pred, query_role::gold}) {
      exec_limits l = limits(role);
      if (budget > 0) {
        const double left = budget - std::chrono::duration<double>(clock::now() - start).count();
        if (left <= 0) {
          out.status = query_status::timeout;
          out.failed = role;
          out.message = "the timed repetition ran out of its time limit (" + std::to_string(iterations) +
                        " x " + std::to_string(pred_limits_.timeout_seconds) + " s) after " +
                        std::to_string(i) + " iterations";
          return out;
        }
        l.timeout_seconds = left;
      }
      const query_outcome o = run_(role == query_role::gold ? gold_where : pred_where,
                                   role == query_role::gold ? gold_sql : pred_sql, l);
      if (!o.ok() || o.rows.truncated()) {
        out.status = o.ok() ? query_status::error : o.status;
        out.failed = role;
        out.message = std::string(role == query_role::gold ? "gold" : "pred") +
                      " query failed while timed (iteration " + std::to_string(i + 1) +
                      "): " + (o.ok() ? "result truncated" : o.message);
        if (o.status == query_status::timeout)
          out.message += " (the repetition's time limit is " + std::to_string(iterations) + " x " +
                         std::to_string(pred_limits_.timeout_seconds) + " s)";
        return out;
      }
      (role == query_role::gold ? out.gold_ms : out.pred_ms).push_back(o.elapsed_ms);
    }
  }
  return out;
}

query_outcome query_runner::run_(const query_target& where, std::string_view sql,
                                 const exec_limits& run_limits) {
  std::unique_lock lock(open_mutex_);
  auto it = open_.begin();
  for (; it != open_.end(); ++it) {
    if (it->backend == where.backend && it->target == where.target) break;
  }
  if (it == open_.end()) {
    connect_outcome c = where.backend->engine->connect(where.target);
    if (!c.conn) {
      if (c.status == query_status::ok) c.status = query_status::backend_error;
      return query_outcome::failure(c.status, std::move(c.message));
    }
    open_.push_front({where.backend, where.target, std::move(c.conn)});
    // Over the limit of its kind: close the least recently used connection of that kind.
    const bool file = where.backend->file_targets();
    const std::size_t limit = file ? max_open_.files : max_open_.servers;
    const auto same_kind = [&](const open_connection& o) { return o.backend->file_targets() == file; };
    if (static_cast<std::size_t>(std::count_if(open_.begin(), open_.end(), same_kind)) > limit) {
      const auto oldest = std::find_if(open_.rbegin(), open_.rend(), same_kind);
      open_.erase(std::next(oldest).base());
    }
  } else if (it != open_.begin()) {
    open_.splice(open_.begin(), open_, it);
  }
  connection* conn = open_.front().conn.get();
  lock.unlock();  // cancel_all() may interrupt the statement while it runs
  query_outcome outcome = conn->execute(sql, run_limits);
  lock.lock();
  if (outcome.status == query_status::backend_error) {
    // The connection may be unusable; the next query on this database connects again.
    spdlog::debug("dropping connection to {} ({}) after a backend error: {}", where.target,
                  where.backend->name, outcome.message);
    std::erase_if(open_, [&](const open_connection& c) { return c.conn.get() == conn; });
  }
  return outcome;
}

}  // namespace sqlmorph::core
