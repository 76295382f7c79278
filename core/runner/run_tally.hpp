#pragma once
// What a run has done so far, unit by unit as the writer takes them (resumed units first): the
// summary of every record with its example's facts, and the examples done, failed and without a
// database.

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eval/example.hpp"
#include "eval/record.hpp"
#include "output/run_summary.hpp"
#include "runner/work_plan.hpp"

namespace sqlmorph::core {

class run_tally {
 public:
  /// Adds to `summary`; each example of a unit has `per_example` records, in order.
  run_tally(const std::vector<example>& examples, std::size_t per_example, run_summary& summary);

  /// The records of `unit` (`count` of them: fewer when a resumed file ends inside the unit).
  void add(const work_unit& unit, const record* records, std::size_t count);

  std::size_t done_examples() const noexcept { return done_; }
  /// Examples with a record that is not ok.
  std::size_t failed_examples() const noexcept { return failed_; }
  /// Examples with a db_missing record, and the db_id of their databases.
  std::size_t db_missing_examples() const noexcept { return db_missing_; }
  const std::set<std::string>& missing_databases() const noexcept { return missing_databases_; }

 private:
  const std::vector<example>& examples_;
  const std::size_t per_example_;
  run_summary& summary_;
  // The gold query's features, once per distinct gold query (for by_feature and QVT).
  std::unordered_map<std::string_view, std::uint32_t> gold_features_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  std::size_t db_missing_ = 0;
  std::set<std::string> missing_databases_;
};

}  // namespace sqlmorph::core
