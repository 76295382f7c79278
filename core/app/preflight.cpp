#include "app/preflight.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>
#include <sqlmorph/embedder.hpp>
#include <sqlmorph/judge.hpp>

#include "errors.hpp"

namespace sqlmorph::core {

namespace {

// The embedders the components of `t` are built with.
void add_embedders(const component_registry& registry, const technique_spec& t,
                   std::vector<std::shared_ptr<const void>>& out) {
  const auto add = [&](std::string_view kind, const component_spec& spec) {
    for (auto& e : registry.used_instances(kind, spec, embedder::kind_name)) {
      if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(std::move(e));
    }
  };
  for (const component_spec& r : t.rewriters) add("sql_rewriter", r);
  for (const component_spec& n : t.normalizers) add("normalizer", n);
  add("column_matcher", t.columns);
  add("row_matcher", t.rows);
  add("scorer", t.scorer);
}

}  // namespace

void check_remote_services(const std::vector<std::shared_ptr<const technique>>& techniques,
                           const std::vector<configured_judge>& judges, const component_registry& registry) {
  std::vector<std::string> problems;
  for (const configured_judge& j : judges) {
    if (!j.instance) continue;
    if (std::string problem = j.instance->check_reachable(); !problem.empty())
      problems.push_back("the judge '" + j.name + "': " + problem);
  }
  std::vector<std::shared_ptr<const void>> embedders;
  for (const auto& t : techniques) add_embedders(registry, t->spec(), embedders);
  for (const auto& instance : embedders) {
    const auto e = std::static_pointer_cast<const embedder>(instance);
    if (std::string problem = e->check_reachable(); !problem.empty())
      problems.push_back("the embedder " + e->model_id() + ": " + problem);
  }
  spdlog::debug("preflight: {} judge(s) and {} embedder(s) checked", judges.size(), embedders.size());
  if (problems.empty()) return;
  std::string message = "a remote service does not answer, so nothing was run:";
  for (const std::string& p : problems) message += "\n  " + p;
  message += "\n(start or fix the server, or pass --no-preflight to run without this check)";
  throw usage_error(message);
}

}  // namespace sqlmorph::core
