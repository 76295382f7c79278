#include "runner/run_tally.hpp"

#include <algorithm>

#include "eval/sql_features.hpp"

namespace sqlmorph::core {

run_tally::run_tally(const std::vector<example>& examples, std::size_t per_example, run_summary& summary)
    : examples_(examples), per_example_(std::max<std::size_t>(1, per_example)), summary_(summary) {}

void run_tally::add(const work_unit& unit, const record* records, std::size_t count) {
  const example* last = nullptr;
  example_facts facts;
  for (std::size_t k = 0; k < count; ++k) {
    const example& ex = examples_[unit.examples[std::min(k / per_example_, unit.examples.size() - 1)]];
    if (&ex != last) {  // an example's records are together: its gold query is looked up once
      last = &ex;
      auto [it, added] = gold_features_.try_emplace(ex.gold, 0);
      if (added) it->second = feature_mask(features_of(ex.gold));
      facts = {it->second, ex.gold};
    }
    summary_.add(records[k], &facts, k % per_example_);
  }
  for (std::size_t i = 0; i < count; i += per_example_) {
    ++done_;
    bool failed = false;
    bool missing = false;
    for (std::size_t k = i; k < std::min(count, i + per_example_); ++k) {
      failed = failed || records[k].status != example_status::ok;
      missing = missing || records[k].status == example_status::db_missing;
    }
    failed_ += failed;
    db_missing_ += missing;
    if (missing) missing_databases_.insert(records[i].db_id);
  }
}

}  // namespace sqlmorph::core
