#include "eval/example_run.hpp"

#include "eval/result_digest.hpp"

namespace sqlmorph::core {

std::shared_ptr<const result> apply_normalizers(const technique& t, const result& rows) {
  std::shared_ptr<const result> current;  // stays empty while no normalizer changes a value
  for (const auto& n : t.normalizers()) {
    std::optional<result> changed = n->normalize_if_changed(current ? *current : rows);
    if (changed) current = std::make_shared<const result>(std::move(*changed));
  }
  return current;
}

example_run::example_run(query_executor& queries, const example& ex, const backend_routes& routes)
    : queries_(queries),
      ex_(ex),
      routes_(routes),
      gold_target_(routes.target(ex, query_role::gold)),
      pred_target_(routes.target(ex, query_role::pred)) {}

const example_run::rewritten& example_run::rewrite(const technique& t, query_role role) {
  const std::string& original = role == query_role::gold ? ex_.gold : ex_.pred;
  const std::string key = t.rewriter_key() + (role == query_role::gold ? "#gold#" : "#pred#") + original;
  if (auto it = rewrites_.find(key); it != rewrites_.end()) return it->second;
  rewritten out{original, std::nullopt};
  for (std::size_t i = 0; i < t.rewriters().size() && !out.problem; ++i) {
    rewrite_outcome r = t.rewriters()[i]->rewrite(out.sql, role);
    if (r.ok) {
      out.sql = std::move(r.sql);
    } else {
      const bool gold = role == query_role::gold;
      out.problem = query_failure{gold ? example_status::gold_error : example_status::pred_error,
                                  std::string(gold ? "gold" : "pred") + " query could not be rewritten by '" +
                                      t.spec().rewriters[i].name + "': " + r.error};
    }
  }
  return rewrites_.emplace(key, std::move(out)).first->second;
}

const query_outcome& example_run::execute(const query_target& where, const std::string& sql,
                                          query_role role) {
  std::string key =
      (role == query_role::gold ? "g\x1f" : "p\x1f") + where.backend->name + '\x1f' + where.target;
  key += '\x1f';
  key += sql;
  auto it = executed_.find(key);
  if (it == executed_.end()) it = executed_.emplace(std::move(key), queries_.execute(where, sql, role)).first;
  return *it->second;
}

const result& example_run::normalize(const technique& t, const query_target& where, const std::string& sql,
                                     const result& rows) {
  if (t.normalizers().empty()) return rows;
  const std::string key = t.normalizer_key() + "#" + where.backend->name + '\x1f' + where.target + "#" + sql;
  auto it = normalized_.find(key);
  if (it == normalized_.end()) it = normalized_.emplace(key, apply_normalizers(t, rows)).first;
  return it->second ? *it->second : rows;
}

const std::string& example_run::digest(const result& r) {
  auto it = digests_.find(&r);
  if (it == digests_.end()) it = digests_.emplace(&r, digest_of(r)).first;
  return it->second;
}

timed_runs example_timer::repeat(std::size_t iterations) {
  timed_runs runs = queries_.repeat(gold_where_, gold_sql_, pred_where_, pred_sql_, iterations);
  failure_ = failure_of(runs);
  return runs;
}

}  // namespace sqlmorph::core
