#include "runner/unit_evaluation.hpp"

#include <string_view>
#include <unordered_map>

namespace sqlmorph::core {
namespace {

// Everything an evaluation reads from its example (beyond its labels) is equal: the queries, where
// they run, what a judge would read, and the difficulty its evidence names.
bool same_evaluation(const example& a, const example& b) {
  return a.pred == b.pred && a.gold == b.gold && a.db == b.db && a.db_id == b.db_id &&
         a.gold_backend == b.gold_backend && a.pred_backend == b.pred_backend && a.question == b.question &&
         a.evidence == b.evidence && a.difficulty == b.difficulty;
}

}  // namespace

std::vector<record> missing_prediction(const example& ex,
                                       const std::vector<std::shared_ptr<const technique>>& techniques) {
  std::vector<record> out;
  for (const auto& t : techniques) {
    record r = record_of(ex, t->name());
    r.penalize_extra_pred_cols = t->penalize_extra_pred_cols();
    r.status = example_status::pred_missing;
    r.error = "no prediction for this example" + (ex.origin.empty() ? std::string() : " (" + ex.origin + ")");
    r.scores = zero_scores(t->metrics());
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<record> evaluate_unit(const work_unit& unit, const std::vector<example>& examples,
                                  example_evaluator& evaluator,
                                  const std::vector<std::shared_ptr<const technique>>& techniques,
                                  unit_sharing& shared, judge_panel* judges,
                                  const exact_match_metric* exact_match, std::vector<std::string>* evidence) {
  std::vector<record> records;
  std::vector<std::string> bodies;  // the evidence of each example of the unit, in order
  if (evidence != nullptr) evidence->clear();
  // Evaluated examples of this unit by predicted SQL: (example index, position of its first record,
  // position of its evidence in `bodies`).
  struct answer {
    std::size_t example;
    std::size_t first_record;
    std::size_t body;
  };
  std::unordered_map<std::string_view, std::vector<answer>> answered;
  equal_result_scores equal_results;
  for (const std::size_t i : unit.examples) {
    const example& ex = examples[i];
    if (ex.pred_missing) {
      if (evidence != nullptr) {
        bodies.push_back(evidence_body(ex, "", nullptr, nullptr, {}));
        evidence->push_back(evidence_line(ex, bodies.back()));
      }
      std::vector<record> r = missing_prediction(ex, techniques);
      records.insert(records.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
      if (exact_match != nullptr) records.push_back(exact_match->missing(ex));
      if (judges != nullptr) {
        std::vector<record> j = judges_missing_prediction(ex, judges->judges());
        records.insert(records.end(), std::make_move_iterator(j.begin()), std::make_move_iterator(j.end()));
      }
      continue;
    }
    auto& same_pred = answered[ex.pred];
    const answer* earlier = nullptr;
    for (const answer& candidate : same_pred) {
      if (same_evaluation(examples[candidate.example], ex)) {
        earlier = &candidate;
        break;
      }
    }
    if (earlier != nullptr) {
      const std::size_t first = earlier->first_record;
      if (evidence != nullptr) {
        bodies.push_back(bodies[earlier->body]);
        evidence->push_back(evidence_line(ex, bodies.back()));
      }
      const std::size_t count =
          techniques.size() + (exact_match != nullptr ? 1 : 0) + (judges != nullptr ? judges->size() : 0);
      for (std::size_t k = 0; k < count; ++k) {
        record copy = records[first + k];
        relabel(copy, ex);
        records.push_back(std::move(copy));
      }
      ++shared.answers;
      continue;
    }
    same_pred.push_back({i, records.size(), bodies.size()});
    std::string body;
    std::vector<record> r = evaluator.evaluate(ex, evidence != nullptr ? &body : nullptr, &equal_results);
    if (evidence != nullptr) {
      bodies.push_back(std::move(body));
      evidence->push_back(evidence_line(ex, bodies.back()));
    }
    records.insert(records.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
    if (exact_match != nullptr) records.push_back(exact_match->evaluate(ex));
    if (judges != nullptr) {
      std::vector<record> j = judges->judge(ex);
      records.insert(records.end(), std::make_move_iterator(j.begin()), std::make_move_iterator(j.end()));
    }
  }
  shared.scores += equal_results.reused();
  return records;
}

}  // namespace sqlmorph::core
