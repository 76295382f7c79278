#include "judges/judge_set.hpp"

#include <algorithm>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {

nlohmann::ordered_json option_json(const spec_value& v) {
  struct visitor {
    nlohmann::ordered_json operator()(bool b) const { return b; }
    nlohmann::ordered_json operator()(std::int64_t i) const { return i; }
    nlohmann::ordered_json operator()(double d) const { return d; }
    nlohmann::ordered_json operator()(const std::string& s) const { return s; }
    nlohmann::ordered_json operator()(const std::shared_ptr<const component_spec>& c) const {
      return c ? describe(*c) : std::string();
    }
  };
  return std::visit(visitor{}, v);
}

std::string known_judges(const config& cfg, const component_registry& registry) {
  std::vector<std::string> names;
  for (const judge_config& j : cfg.judges) names.push_back(j.name);
  for (const component_info* info : registry.list("judge")) {
    if (std::find(names.begin(), names.end(), info->name) == names.end()) names.push_back(info->name);
  }
  if (names.empty()) return "none (no judge plugin is loaded and sqlmorph.toml declares no [judges.NAME])";
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::string> split_judge_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string name = text.substr(start, end - start);
    const auto first = name.find_first_not_of(" \t");
    const auto last = name.find_last_not_of(" \t");
    if (first != std::string::npos) out.push_back(name.substr(first, last - first + 1));
    start = end + 1;
  }
  return out;
}

configured_judge make_judge(const component_registry& registry, std::string name, component_spec spec,
                            std::string origin) {
  configured_judge j;
  j.name = std::move(name);
  j.origin = std::move(origin);
  if (registry.find("judge", spec.name) == nullptr && !spec.instance) {
    throw usage_error(
        "judge '" + j.name + "': no judge component '" + spec.name + "' is loaded" +
        (registry.list("judge").empty() ? " (no judge plugin was found in [plugins] dirs)" : ""));
  }
  try {
    j.instance = registry.create<sqlmorph::judge>(spec);
    j.identity = registry.instance_key("judge", spec);
  } catch (const usage_error& e) {
    throw usage_error("judge '" + j.name + "'" + (j.origin.empty() ? "" : " (" + j.origin + ")") + ": " +
                      e.what());
  }
  j.spec = std::move(spec);
  return j;
}

configured_judge resolve_judge(const config& cfg, const component_registry& registry, const std::string& name,
                               std::optional<double> timeout) {
  component_spec spec;
  std::string origin;
  const auto declared = std::find_if(cfg.judges.begin(), cfg.judges.end(),
                                     [&](const judge_config& j) { return j.name == name; });
  if (declared != cfg.judges.end()) {
    spec = component_spec(declared->component, declared->options);
    origin = declared->origin;
  } else if (registry.find("judge", name) != nullptr) {
    spec = component_spec(name);
    origin = "component";
  } else {
    throw usage_error("unknown judge '" + name + "'; known judges: " + known_judges(cfg, registry) +
                      registry.missing_directories_note());
  }
  if (timeout) {
    const component_info* info = registry.find("judge", spec.name);
    if (info != nullptr && info->find_option("timeout") != nullptr) spec.options["timeout"] = *timeout;
  }
  return make_judge(registry, name, std::move(spec), std::move(origin));
}

void check_unique_judge_names(const std::vector<configured_judge>& judges) {
  for (std::size_t i = 0; i < judges.size(); ++i) {
    for (std::size_t k = i + 1; k < judges.size(); ++k) {
      if (judges[i].name == judges[k].name)
        throw usage_error("the judge '" + judges[i].name + "' is asked for twice");
    }
  }
}

std::vector<configured_judge> resolve_judges(const config& cfg, const component_registry& registry,
                                             const std::vector<std::string>& names,
                                             std::optional<double> timeout) {
  std::vector<configured_judge> out;
  for (const std::string& n : names) out.push_back(resolve_judge(cfg, registry, n, timeout));
  check_unique_judge_names(out);
  return out;
}

nlohmann::ordered_json describe_judges(const std::vector<configured_judge>& judges) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const configured_judge& j : judges) {
    nlohmann::ordered_json options = nlohmann::ordered_json::object();
    for (const auto& [k, v] : j.spec.options) {
      options[k] = option_json(v);
    }
    out.push_back({{"name", j.name},
                   {"plugin", j.spec.name},
                   {"options", options},
                   {"declared_at", j.origin},
                   {"identity", j.identity}});
  }
  return out;
}

}  // namespace sqlmorph::core
