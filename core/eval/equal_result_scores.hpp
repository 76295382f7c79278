#pragma once
// The scores of one unit of work's predictions (one question, or two asking for the same gold query:
// runner/work_plan.hpp), by the contents of the results they were computed from. Systems often
// return the same rows from different SQL; under a technique that reads only the two results and
// the gold SQL (technique::reads_only_results), such predictions score the same, so the evaluation
// of a unit (unit_evaluation.hpp) scores each distinct pair of results once and gives the later
// predictions a copy. Results are compared by their digests
// (result_digest.hpp).

#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include "eval/query_failure.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

class equal_result_scores {
 public:
  using outcome = std::variant<scores, query_failure>;
  struct key {
    const technique* scored_by = nullptr;
    std::string gold;  // the results' digests
    std::string pred;
    std::string gold_sql;  // after the technique's rewriters (a row matcher may read it)
    friend auto operator<=>(const key&, const key&) = default;
  };

  /// The outcome stored under `k`, or null; counts a copy given out.
  const outcome* find(const key& k);
  void remember(key k, outcome o);
  /// Outcomes given out again so far.
  std::uint64_t reused() const noexcept { return reused_; }

 private:
  std::map<key, outcome> outcomes_;
  std::uint64_t reused_ = 0;
};

}  // namespace sqlmorph::core
