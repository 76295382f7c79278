#include "config/judges_config.hpp"

#include <algorithm>

#include "config/toml_reading.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

using toml_reading::string_of;
using toml_reading::walk_table;
using toml_reading::where;

std::vector<judge_config> read_judges_table(const std::filesystem::path& file, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (t == nullptr) throw usage_error(where(file, n.source()) + ": [judges] must hold [judges.NAME] tables");
  std::vector<std::pair<std::uint32_t, judge_config>> declared;
  for (auto&& [key, value] : *t) {
    judge_config j;
    j.name = std::string(key.str());
    j.component = j.name;
    j.origin = where(file, value.source());
    const toml::table* jt = value.as_table();
    if (jt == nullptr) {
      throw usage_error(j.origin + ": [judges." + j.name +
                        "] must be a table { plugin = \"...\", options = {...} }");
    }
    if (j.name.find(',') != std::string::npos || j.name.empty()) {
      throw usage_error(j.origin + ": a judge name cannot be empty or hold ',' ('" + j.name + "')");
    }
    walk_table(file, *jt, "[judges." + j.name + "]",
               {{"plugin",
                 [&](const toml::node& v, const std::string& at) {
                   j.component = string_of(v, at, "plugin");
                   if (j.component.empty()) throw usage_error(at + ": 'plugin' must name a judge component");
                 }},
                {"options", [&](const toml::node& v, const std::string& at) {
                   j.options = toml_reading::options_of(file, v, at);
                 }}});
    declared.emplace_back(value.source().begin.line, std::move(j));
  }
  // toml++ keeps keys sorted; keep the file's order for listings and run.json.
  std::stable_sort(declared.begin(), declared.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<judge_config> out;
  for (auto& d : declared) out.push_back(std::move(d.second));
  return out;
}

}  // namespace sqlmorph::core
