#include "judges/judge_panel.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

namespace sqlmorph::core {
namespace {

record labelled(const example& ex, const configured_judge& judge) {
  return record_of(ex, judge.technique());
}

std::string key_of(const query_target& where) {
  return (where.backend != nullptr ? where.backend->identity : std::string()) + '\x1f' + where.target;
}

}  // namespace

record judge_record(const example& ex, const configured_judge& judge, const judge_verdict& verdict,
                    double ms) {
  record r = labelled(ex, judge);
  judge_fields j;
  j.votes = verdict.votes;
  j.rationales = verdict.rationales;
  j.prompt_tokens = verdict.prompt_tokens;
  j.completion_tokens = verdict.completion_tokens;
  j.judge_ms = ms;
  if (verdict.ok) {
    j.label = verdict.label;
    j.confidence = verdict.confidence;
  } else {
    r.status = example_status::judge_error;
    r.error = verdict.error.empty() ? "the judge could not decide" : verdict.error;
  }
  r.scores.extra = verdict.extra;
  r.judgement = std::move(j);
  return r;
}

record ask_judge(const example& ex, const configured_judge& judge, const judge_request& request) {
  const auto start = std::chrono::steady_clock::now();
  judge_verdict verdict;
  try {
    verdict = judge.instance->evaluate(request);
  } catch (const std::exception& e) {
    verdict = judge_verdict{};
    verdict.ok = false;
    verdict.error = std::string("the judge failed: ") + e.what();
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return judge_record(ex, judge, verdict, ms);
}

std::vector<record> judges_missing_prediction(const example& ex,
                                              const std::vector<configured_judge>& judges) {
  std::vector<record> out;
  for (const configured_judge& j : judges) {
    record r = labelled(ex, j);
    r.status = example_status::pred_missing;
    r.error = "no prediction for this example" + (ex.origin.empty() ? std::string() : " (" + ex.origin + ")");
    r.judgement = judge_fields{};
    out.push_back(std::move(r));
  }
  return out;
}

judge_panel::judge_panel(const std::vector<configured_judge>& judges,
                         std::shared_ptr<const backend_routes> routes, schema_cache& schemas,
                         exec_limits limits, std::size_t max_open_connections)
    : judges_(judges),
      routes_(std::move(routes)),
      schemas_(schemas),
      limits_(limits),
      max_open_(std::max<std::size_t>(1, max_open_connections)) {}

connection* judge_panel::connect(const query_target& where, std::string& problem) {
  const std::string key = key_of(where);
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (it->key == key) {
      open_.splice(open_.begin(), open_, it);
      return open_.front().conn.get();
    }
  }
  if (where.backend == nullptr || !where.backend->engine) {
    problem = "no backend for this database";
    return nullptr;
  }
  connect_outcome c = where.backend->engine->connect(where.target);
  if (!c.conn) {
    problem = "cannot open the database (" + std::string(query_status_name(c.status)) + "): " + c.message;
    return nullptr;
  }
  open_.push_front({key, std::move(c.conn)});
  while (open_.size() > max_open_) open_.pop_back();
  return open_.front().conn.get();
}

std::vector<record> judge_panel::judge(const example& ex) {
  std::vector<record> out;
  if (judges_.empty()) return out;
  if (ex.pred_missing) return judges_missing_prediction(ex, judges_);

  // The prediction's database, as the backend that runs predictions sees it.
  judge_request request;
  request.id = ex.id;
  request.question = ex.question;
  request.sql = ex.pred;
  request.hints = ex.evidence;
  std::string problem;
  const query_target where = routes_->target(ex, query_role::pred);
  backend_capabilities caps;
  if (where.backend != nullptr && where.backend->engine) caps = where.backend->engine->capabilities();
  request.dialect = caps.dialect;
  connection* conn = connect(where, problem);
  request.target = conn;
  // A backend that cannot describe its schema is not asked to: judges get the question and SQL only.
  if (conn != nullptr && caps.describes_schema) {
    const auto schema = schemas_.get(key_of(where), [&] {
      const query_outcome o = conn->describe_schema(limits_);
      if (o.ok()) return schema_cache::entry{true, o.message};
      spdlog::debug("{}: no schema for the judges: {}", ex.id, o.message);
      return schema_cache::entry{false, o.message};
    });
    if (schema->ok) request.schema = schema->text;
  }

  // Without its database a judge would see no schema and answer about a query it cannot check:
  // no judge is asked, each record says why.
  if (conn == nullptr) {
    for (const configured_judge& j : judges_) {
      judge_verdict v;
      v.ok = false;
      v.error = "judge_error: not asked: " + (problem.empty() ? std::string("no database") : problem) +
                "; without it there is no schema to judge against";
      out.push_back(judge_record(ex, j, v, 0.0));
    }
    return out;
  }
  for (const configured_judge& j : judges_) out.push_back(ask_judge(ex, j, request));
  return out;
}

}  // namespace sqlmorph::core
