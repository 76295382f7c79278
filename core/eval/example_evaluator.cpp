#include "eval/example_evaluator.hpp"

#include <map>
#include <optional>

#include <spdlog/spdlog.h>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

struct failure {
  example_status status;
  std::string message;
};

// What a failed or truncated execution means for the example, or nothing if it is usable.
std::optional<failure> failure_of(const query_outcome& o, query_role role) {
  const bool gold = role == query_role::gold;
  const std::string side = gold ? "gold" : "pred";
  switch (o.status) {
    case query_status::ok:
      if (o.rows.truncated()) {
        return failure{example_status::truncated,
                       side + " result truncated" + (o.message.empty() ? std::string() : ": " + o.message)};
      }
      return std::nullopt;
    case query_status::error:
      return failure{gold ? example_status::gold_error : example_status::pred_error,
                     side + " query failed: " + o.message};
    case query_status::timeout:
      return failure{example_status::timeout, side + " query timed out: " + o.message};
    case query_status::db_missing:
      return failure{example_status::db_missing, o.message};
    case query_status::backend_error:
      return failure{example_status::backend_error, side + " query: backend failed: " + o.message};
  }
  return std::nullopt;
}

// The SQL of one role after a technique's rewriters, or the rewrite failure.
struct rewritten {
  std::string sql;
  std::optional<failure> problem;
};

}  // namespace

example_evaluator::example_evaluator(query_executor& queries,
                                     std::vector<std::shared_ptr<const technique>> techniques,
                                     std::shared_ptr<const backend_routes> routes)
    : queries_(queries), techniques_(std::move(techniques)), routes_(std::move(routes)) {}

std::vector<record> example_evaluator::evaluate(const example& ex) {
  std::map<std::string, std::shared_ptr<const query_outcome>, std::less<>> executed;
  std::map<std::string, rewritten, std::less<>> rewrites;
  std::map<std::string, std::shared_ptr<const result>, std::less<>> normalized;
  match_memo memo;
  const query_target gold_target = routes_->target(ex, query_role::gold);
  const query_target pred_target = routes_->target(ex, query_role::pred);

  const auto execute = [&](const std::string& sql, query_role role) -> const query_outcome& {
    const std::string key = (role == query_role::gold ? "g\x1f" : "p\x1f") + sql;
    auto it = executed.find(key);
    if (it == executed.end()) {
      it =
          executed
              .emplace(key, queries_.execute(role == query_role::gold ? gold_target : pred_target, sql, role))
              .first;
    }
    return *it->second;
  };

  const auto rewrite = [&](const technique& t, query_role role) -> const rewritten& {
    const std::string& original = role == query_role::gold ? ex.gold : ex.pred;
    const std::string key = t.rewriter_key() + (role == query_role::gold ? "#gold#" : "#pred#") + original;
    if (auto it = rewrites.find(key); it != rewrites.end()) return it->second;
    rewritten out{original, std::nullopt};
    for (std::size_t i = 0; i < t.rewriters().size() && !out.problem; ++i) {
      rewrite_outcome r = t.rewriters()[i]->rewrite(out.sql, role);
      if (r.ok) {
        out.sql = std::move(r.sql);
      } else {
        const bool gold = role == query_role::gold;
        out.problem = failure{gold ? example_status::gold_error : example_status::pred_error,
                              std::string(gold ? "gold" : "pred") + " query could not be rewritten by '" +
                                  t.spec().rewriters[i].name + "': " + r.error};
      }
    }
    return rewrites.emplace(key, std::move(out)).first->second;
  };

  const auto normalize = [&](const technique& t, const std::string& sql,
                             const result& rows) -> const result& {
    if (t.normalizers().empty()) return rows;
    const std::string key = t.normalizer_key() + "#" + sql;
    auto it = normalized.find(key);
    if (it == normalized.end()) {
      std::shared_ptr<const result> current;  // stays empty while no normalizer changes a value
      for (const auto& n : t.normalizers()) {
        std::optional<result> changed = n->normalize_if_changed(current ? *current : rows);
        if (changed) current = std::make_shared<const result>(std::move(*changed));
      }
      it = normalized.emplace(key, std::move(current)).first;
    }
    return it->second ? *it->second : rows;
  };

  std::vector<record> out;
  out.reserve(techniques_.size());
  for (const auto& tp : techniques_) {
    const technique& t = *tp;
    record r;
    r.id = ex.id;
    r.db_id = ex.db_id;
    r.system = ex.system;
    r.difficulty = ex.difficulty;
    r.technique = t.name();
    r.penalize_extra_pred_cols = t.penalize_extra_pred_cols();

    const rewritten& gold_sql = rewrite(t, query_role::gold);
    const rewritten& pred_sql = rewrite(t, query_role::pred);
    const query_outcome* gold = gold_sql.problem ? nullptr : &execute(gold_sql.sql, query_role::gold);
    const query_outcome* pred = pred_sql.problem ? nullptr : &execute(pred_sql.sql, query_role::pred);
    if (gold && gold->status != query_status::db_missing) r.gold_ms = gold->elapsed_ms;
    if (pred && pred->status != query_status::db_missing) r.pred_ms = pred->elapsed_ms;

    std::optional<failure> gold_failure = gold ? failure_of(*gold, query_role::gold) : gold_sql.problem;
    std::optional<failure> pred_failure = pred ? failure_of(*pred, query_role::pred) : pred_sql.problem;
    std::optional<failure> problem;
    if (gold_failure && gold_failure->status == example_status::db_missing)
      problem = gold_failure;
    else if (pred_failure && pred_failure->status == example_status::db_missing)
      problem = pred_failure;
    else if (gold_failure)
      problem = gold_failure;
    else
      problem = pred_failure;

    if (problem) {
      r.status = problem->status;
      r.error = problem->message;
      if (problem->status != example_status::db_missing) r.scores = zero_scores(t.metrics());
      out.push_back(std::move(r));
      continue;
    }

    try {
      const result& g = normalize(t, gold_sql.sql, gold->rows);
      const result& p = normalize(t, pred_sql.sql, pred->rows);
      const match_input in{g, p, gold_sql.sql, pred_sql.sql};
      r.scores = t.evaluate(in, memo);
    } catch (const script_error& e) {
      spdlog::warn("{}: technique {}: {}", ex.id, t.name(), e.message());
      r.status = example_status::script_error;
      r.error = e.full();
      r.scores = zero_scores(t.metrics());
    } catch (const std::exception& e) {
      spdlog::warn("{}: technique {} failed: {}", ex.id, t.name(), e.what());
      r.status = example_status::technique_error;
      r.error = std::string("technique failed: ") + e.what();
      r.scores = zero_scores(t.metrics());
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sqlmorph::core
