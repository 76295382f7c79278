#pragma once
// Evaluating one unit of work — every system's answer to one benchmark item, or to two that ask for
// the same gold query (work_plan.hpp). Systems often give the same answer: an example whose
// database, backends, queries, question, evidence and difficulty equal an earlier example of the
// unit is not evaluated again; it gets copies of that example's records, relabelled
// with its own id and system. A run's cost then follows the distinct answers, not systems × techniques.

#include <cstdint>
#include <memory>
#include <vector>

#include "eval/exact_match_metric.hpp"
#include "eval/example.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/record.hpp"
#include "judges/judge_panel.hpp"
#include "runner/work_plan.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// The records of an example whose prediction file has nothing for it (status pred_missing).
std::vector<record> missing_prediction(const example& ex,
                                       const std::vector<std::shared_ptr<const technique>>& techniques);

/// What a unit's evaluation reused rather than computed.
struct unit_sharing {
  std::uint64_t answers = 0;  // examples that equalled an earlier one: all records copied
  std::uint64_t scores = 0;   // records whose scores were copied from an equal pair of results
};

/// The unit's records, example by example in the unit's order, techniques in `techniques` order,
/// then the exact-match record (when `exact_match` is given), then the judges' records (when
/// `judges` is given) in their order.
/// `shared` counts the examples that got copies of an identical earlier answer's records, and the
/// records whose scores were copied from an earlier answer with equal results (equal_result_scores.hpp).
/// With `evidence`, it receives the unit's examples.jsonl lines, one per example in the unit's
/// order (an identical earlier answer's evidence copied with the example's own id and system).
std::vector<record> evaluate_unit(const work_unit& unit, const std::vector<example>& examples,
                                  example_evaluator& evaluator,
                                  const std::vector<std::shared_ptr<const technique>>& techniques,
                                  unit_sharing& shared, judge_panel* judges = nullptr,
                                  const exact_match_metric* exact_match = nullptr,
                                  std::vector<std::string>* evidence = nullptr);

}  // namespace sqlmorph::core
