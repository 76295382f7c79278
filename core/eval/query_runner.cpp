#include "eval/query_runner.hpp"

#include <spdlog/spdlog.h>

namespace sqlmorph::core {

query_runner::query_runner(exec_limits gold_limits, exec_limits pred_limits, std::size_t max_open_connections)
    : gold_limits_(gold_limits),
      pred_limits_(pred_limits),
      max_open_(max_open_connections == 0 ? 1 : max_open_connections) {}

void query_runner::cancel_all() noexcept {
  std::lock_guard lock(open_mutex_);
  for (auto& c : open_) c.conn->cancel();
}

std::shared_ptr<const query_outcome> query_runner::execute(const query_target& where, std::string_view sql,
                                                           query_role role) {
  std::unique_lock lock(open_mutex_);
  auto it = open_.begin();
  for (; it != open_.end(); ++it) {
    if (it->backend == where.backend && it->target == where.target) break;
  }
  if (it == open_.end()) {
    connect_outcome c = where.backend->engine->connect(where.target);
    if (!c.conn) {
      if (c.status == query_status::ok) c.status = query_status::backend_error;
      return std::make_shared<const query_outcome>(query_outcome::failure(c.status, std::move(c.message)));
    }
    open_.push_front({where.backend, where.target, std::move(c.conn)});
    if (open_.size() > max_open_) open_.pop_back();
  } else if (it != open_.begin()) {
    open_.splice(open_.begin(), open_, it);
  }
  connection* conn = open_.front().conn.get();
  lock.unlock();  // cancel_all() may interrupt the statement while it runs
  auto outcome = std::make_shared<query_outcome>(conn->execute(sql, limits(role)));
  lock.lock();
  if (outcome->status == query_status::backend_error) {
    // The connection may be unusable; the next query on this database connects again.
    spdlog::debug("dropping connection to {} ({}) after a backend error: {}", where.target,
                  where.backend->name, outcome->message);
    std::erase_if(open_, [&](const open_connection& c) { return c.conn.get() == conn; });
  }
  return outcome;
}

}  // namespace sqlmorph::core
