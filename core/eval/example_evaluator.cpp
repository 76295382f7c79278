#include "eval/example_evaluator.hpp"

#include <optional>

#include "eval/equal_result_scores.hpp"
#include "eval/example_run.hpp"
#include "eval/technique_scoring.hpp"

namespace sqlmorph::core {

example_evaluator::example_evaluator(query_executor& queries,
                                     std::vector<std::shared_ptr<const technique>> techniques,
                                     std::shared_ptr<const backend_routes> routes)
    : queries_(queries), techniques_(std::move(techniques)), routes_(std::move(routes)) {}

std::vector<record> example_evaluator::evaluate(const example& ex, std::string* evidence,
                                                equal_result_scores* shared) {
  example_run run(queries_, ex, *routes_);
  std::vector<record> out;
  out.reserve(techniques_.size());
  // The evidence: the queries of the first variant that executes them.
  std::string evaluated_by;
  query_evidence gold_evidence;
  query_evidence pred_evidence;
  for (const auto& tp : techniques_) {
    const technique& t = *tp;
    record r = record_of(ex, t.name());
    r.penalize_extra_pred_cols = t.penalize_extra_pred_cols();
    if (t.is_suite()) {
      evaluate_over_suite(run, variants_, t, r);
      out.push_back(std::move(r));
      continue;
    }

    const example_run::rewritten& gold_sql = run.rewrite(t, query_role::gold);
    const example_run::rewritten& pred_sql = run.rewrite(t, query_role::pred);
    const query_target& gold_target = run.target(query_role::gold);
    const query_target& pred_target = run.target(query_role::pred);
    const query_outcome* gold =
        gold_sql.problem ? nullptr : &run.execute(gold_target, gold_sql.sql, query_role::gold);
    const query_outcome* pred =
        pred_sql.problem ? nullptr : &run.execute(pred_target, pred_sql.sql, query_role::pred);
    if (evidence != nullptr && evaluated_by.empty()) {
      evaluated_by = t.name();
      gold_evidence = {gold_sql.sql, gold, gold_sql.problem ? gold_sql.problem->message : std::string()};
      pred_evidence = {pred_sql.sql, pred, pred_sql.problem ? pred_sql.problem->message : std::string()};
    }
    if (gold && gold->status != query_status::db_missing) r.gold_ms = gold->elapsed_ms;
    if (pred && pred->status != query_status::db_missing) r.pred_ms = pred->elapsed_ms;

    std::optional<query_failure> gold_failure = gold ? failure_of(*gold, query_role::gold) : gold_sql.problem;
    std::optional<query_failure> pred_failure = pred ? failure_of(*pred, query_role::pred) : pred_sql.problem;
    std::optional<query_failure> problem;
    if (gold_failure && gold_failure->status == example_status::db_missing)
      problem = gold_failure;
    else if (pred_failure && pred_failure->status == example_status::db_missing)
      problem = pred_failure;
    else if (gold_failure)
      problem = gold_failure;
    else
      problem = pred_failure;

    if (!problem) {
      // A scorer that measures efficiency runs the queries again through this timer.
      example_timer timer(queries_, gold_target, gold_sql.sql, pred_target, pred_sql.sql);
      const stopwatch scoring;
      // An earlier prediction of this question with an equal result was scored already.
      std::optional<equal_result_scores::key> same;
      const equal_result_scores::outcome* earlier = nullptr;
      if (shared != nullptr && t.reads_only_results()) {
        same = equal_result_scores::key{&t, run.digest(gold->rows), run.digest(pred->rows), gold_sql.sql};
        earlier = shared->find(*same);
      }
      auto scored = earlier != nullptr ? *earlier : score_technique(t, ex.id, [&] {
        const result& g = run.normalize(t, gold_target, gold_sql.sql, gold->rows);
        const result& p = run.normalize(t, pred_target, pred_sql.sql, pred->rows);
        return t.evaluate(match_input{g, p, gold_sql.sql, pred_sql.sql, &timer}, run.memo());
      });
      // (A scorer that re-runs the queries through the timer counts that time here too; a copy
      // counts the time to find it.)
      r.technique_ms = scoring.elapsed_ms();
      if (same && earlier == nullptr) shared->remember(std::move(*same), scored);
      if (auto* s = std::get_if<scores>(&scored)) {
        r.scores = std::move(*s);
        problem = timer.failure();
      } else {
        problem = std::get<query_failure>(std::move(scored));
      }
    }
    if (problem) {
      r.status = problem->status;
      r.error = problem->message;
      if (problem->status != example_status::db_missing) r.scores = zero_scores(t.metrics());
    }
    out.push_back(std::move(r));
  }
  if (evidence != nullptr) {
    const bool executed = !evaluated_by.empty();
    *evidence = evidence_body(ex, evaluated_by, executed ? &gold_evidence : nullptr,
                              executed ? &pred_evidence : nullptr, evidence_options_);
  }
  return out;
}

}  // namespace sqlmorph::core
