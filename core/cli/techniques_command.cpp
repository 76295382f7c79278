// `sqlmorph techniques`: the techniques a run can use and the components each is built from.

#include <iostream>

#include <nlohmann/json.hpp>

#include "app/environment.hpp"
#include "cli/commands.hpp"
#include "eval/exact_match_metric.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {
namespace {

// {"name": ..., "options": {...}}; an option that is itself a component nests the same way.
nlohmann::ordered_json component_json(const component_spec& spec) {
  nlohmann::ordered_json options = nlohmann::ordered_json::object();
  for (const auto& option : spec.options) {  // not a structured binding: clang 14 cannot capture one
    const std::string& key = option.first;
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::shared_ptr<const component_spec>>) {
            options[key] = v ? component_json(*v) : nlohmann::ordered_json(nullptr);
          } else {
            options[key] = v;
          }
        },
        option.second);
  }
  return {{"name", spec.name}, {"options", std::move(options)}};
}

nlohmann::ordered_json technique_json(const technique_spec& s) {
  nlohmann::ordered_json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["origin"] = s.origin;
  j["rewriters"] = nlohmann::ordered_json::array();
  for (const component_spec& r : s.rewriters) j["rewriters"].push_back(component_json(r));
  j["normalizers"] = nlohmann::ordered_json::array();
  for (const component_spec& n : s.normalizers) j["normalizers"].push_back(component_json(n));
  j["columns"] = component_json(s.columns);
  j["rows"] = component_json(s.rows);
  j["scorer"] = component_json(s.scorer);
  return j;
}

// Techniques built into the engine rather than assembled from components (no columns/rows/scorer).
struct built_in_technique {
  const char* name;
  const char* description;
};
constexpr built_in_technique built_in_techniques[] = {
    {exact_match_technique,
     "Spider's official exact set match (evaluation.py --etype match): parse trees compared after the "
     "foreign-key rebuild, EM and the partial scores per clause; executes nothing; needs tables.json "
     "(--tables, default beside --gold); runs only when named (not part of \"all\"); not available in Lua"},
};

int run_techniques(const global_options& g, bool json) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  if (json) {
    nlohmann::ordered_json out;
    out["techniques"] = nlohmann::ordered_json::array();
    for (const std::string& name : env->techniques().names())
      out["techniques"].push_back(technique_json(*env->techniques().find(name)));
    out["built_in"] = nlohmann::ordered_json::array();
    for (const built_in_technique& t : built_in_techniques)
      out["built_in"].push_back({{"name", t.name}, {"description", t.description}});
    std::cout << dump_json(out, 2) << "\n";
    return 0;
  }
  for (const std::string& name : env->techniques().names()) {
    const technique_spec* s = env->techniques().find(name);
    std::cout << name << "  (" << s->origin << ")\n";
    if (!s->description.empty()) std::cout << "    " << s->description << "\n";
    std::string rewriters;
    for (const component_spec& r : s->rewriters) rewriters += (rewriters.empty() ? "" : ", ") + describe(r);
    if (!rewriters.empty()) std::cout << "    rewrites: " << rewriters << "\n";
    std::string normalizers;
    for (const component_spec& n : s->normalizers)
      normalizers += (normalizers.empty() ? "" : ", ") + describe(n);
    if (!normalizers.empty()) std::cout << "    normalizers: " << normalizers << "\n";
    if (s->databases == database_scope::variants)
      std::cout
          << "    databases: every *.sqlite of the example's folder (correct only if correct on each)\n";
    if (s->candidates) std::cout << "    candidates: " << describe(*s->candidates) << "\n";
    if (s->opt_in) std::cout << "    opt-in: runs only when named (not part of \"all\")\n";
    std::cout << "    columns: " << describe(s->columns) << "  rows: " << describe(s->rows)
              << "  scorer: " << describe(s->scorer) << "\n";
  }
  for (const built_in_technique& t : built_in_techniques)
    std::cout << t.name << "  (built in)\n    " << t.description << "\n";
  return 0;
}

}  // namespace

void register_techniques_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("techniques", "List the techniques and the components they are assembled from");
  cmd->add_flag("--json", *json,
                "print one JSON object {\"techniques\": [{name, description, origin, rewriters, normalizers, "
                "columns, rows, scorer}, ...]}");
  cmd->callback([&g, &exit_code, json] { exit_code = run_techniques(g, *json); });
}

}  // namespace sqlmorph::core
