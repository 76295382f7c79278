#pragma once
// The judges of a run, as one worker calls them: for each example, one record per judge
// (technique "judge:NAME"). The judge sees the example's question, its evidence as hints, the
// predicted SQL, the dialect and schema of the database the prediction runs on, and a connection
// to that database (opened by this worker, reused across examples).

#include <list>
#include <memory>
#include <string>
#include <vector>

#include <sqlmorph/backend.hpp>

#include "backends/backend_routes.hpp"
#include "eval/example.hpp"
#include "eval/record.hpp"
#include "judges/judge_set.hpp"
#include "judges/schema_cache.hpp"

namespace sqlmorph::core {

/// A judge's verdict as a record: status ok or judge_error, label, confidence, votes, ... .
record judge_record(const example& ex, const configured_judge& judge, const judge_verdict& verdict,
                    double ms);

/// Asks one judge about `request` and times it: the record of its verdict. A judge that throws
/// gives a judge_error record ("the judge failed: ...").
record ask_judge(const example& ex, const configured_judge& judge, const judge_request& request);

/// The records of an example without a prediction (status pred_missing), one per judge.
std::vector<record> judges_missing_prediction(const example& ex, const std::vector<configured_judge>& judges);

class judge_panel {
 public:
  /// `limits` bound reading a schema; the judges bound their own work.
  judge_panel(const std::vector<configured_judge>& judges, std::shared_ptr<const backend_routes> routes,
              schema_cache& schemas, exec_limits limits, std::size_t max_open_connections = 8);
  judge_panel(const judge_panel&) = delete;
  judge_panel& operator=(const judge_panel&) = delete;

  std::size_t size() const noexcept { return judges_.size(); }
  const std::vector<configured_judge>& judges() const noexcept { return judges_; }

  /// One record per judge, in order. Never throws for problems of the example: a judge that fails
  /// or cannot decide gives a judge_error record, and the run goes on. When the example's database
  /// cannot be opened no judge is asked (it would judge without a schema): each record is
  /// judge_error "not asked: ...".
  std::vector<record> judge(const example& ex);

 private:
  struct open_connection {
    std::string key;
    std::unique_ptr<connection> conn;
  };
  /// The worker's connection to `where` (nullptr with `problem` set when it cannot be opened).
  connection* connect(const query_target& where, std::string& problem);

  const std::vector<configured_judge>& judges_;
  std::shared_ptr<const backend_routes> routes_;
  schema_cache& schemas_;
  exec_limits limits_;
  std::size_t max_open_;
  std::list<open_connection> open_;  // most recently used first
};

}  // namespace sqlmorph::core
