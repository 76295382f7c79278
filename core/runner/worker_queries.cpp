#include "runner/worker_queries.hpp"

namespace sqlmorph::core {

worker_queries::worker_queries(shared_query_cache& shared, gold_disk_cache* disk, exec_limits gold_limits,
                               exec_limits pred_limits, connection_limits open_limits)
    : shared_(shared), disk_(disk), runner_(gold_limits, pred_limits, open_limits) {}

std::shared_ptr<const query_outcome> worker_queries::execute(const query_target& where, std::string_view sql,
                                                             query_role role) {
  const exec_limits& limits = runner_.limits(role);
  // The same SQL on the same backend and database under the same limits is the same query,
  // whichever role asks for it.
  std::string key = std::to_string(limits.timeout_seconds) + '/' + std::to_string(limits.max_rows) + '/' +
                    std::to_string(limits.max_bytes) + '\x1f' + where.backend->name + '\x1f' + where.target +
                    '\x1f';
  key.append(sql);
  return shared_.get(key, [&]() -> std::shared_ptr<const query_outcome> {
    if (role == query_role::gold && disk_ != nullptr) {
      if (auto cached = disk_->load(where, sql, limits)) {
        ++shared_.stats().gold_from_disk;
        return std::make_shared<const query_outcome>(std::move(*cached));
      }
    }
    auto outcome = runner_.execute(where, sql, role);
    // A query on a database that is not there was not executed (nor cached on disk: it is counted
    // apart, so a warm cache shows 0 gold queries executed, not the missing databases' ones).
    if (outcome->status == query_status::db_missing)
      ++shared_.stats().db_missing;
    else
      ++(role == query_role::gold ? shared_.stats().gold_executed : shared_.stats().pred_executed);
    if (role == query_role::gold && disk_ != nullptr) disk_->store(where, sql, limits, *outcome);
    return outcome;
  });
}

}  // namespace sqlmorph::core
