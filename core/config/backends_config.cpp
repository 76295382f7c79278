#include "config/backends_config.hpp"

#include <algorithm>

#include "config/toml_reading.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

using toml_reading::string_of;
using toml_reading::walk_table;
using toml_reading::where;

std::string check_target_template(const std::string& target) {
  for (std::size_t open = target.find('{'); open != std::string::npos; open = target.find('{', open + 1)) {
    const std::size_t close = target.find('}', open);
    if (close == std::string::npos) return "'{' without '}' in target '" + target + "'";
    const std::string name = target.substr(open, close - open + 1);
    const bool known = std::any_of(std::begin(target_placeholders), std::end(target_placeholders),
                                   [&](const char* p) { return name == p; });
    if (!known) return "unknown placeholder " + name + " in target '" + target + "' (known: {db_id}, {path})";
  }
  return "";
}

std::vector<backend_config> read_backends_table(const std::filesystem::path& file, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (t == nullptr)
    throw usage_error(where(file, n.source()) + ": [backends] must hold [backends.NAME] tables");
  std::vector<std::pair<std::uint32_t, backend_config>> declared;
  for (auto&& [key, value] : *t) {
    backend_config b;
    b.name = std::string(key.str());
    b.component = b.name;
    b.origin = where(file, value.source());
    const toml::table* bt = value.as_table();
    if (bt == nullptr) throw usage_error(b.origin + ": [backends." + b.name + "] must be a table");
    walk_table(file, *bt, "[backends." + b.name + "]",
               {{"plugin", [&](const toml::node& v,
                               const std::string& at) { b.component = string_of(v, at, "plugin"); }},
                {"target",
                 [&](const toml::node& v, const std::string& at) {
                   b.target = string_of(v, at, "target");
                   if (const std::string problem = check_target_template(b.target); !problem.empty()) {
                     throw usage_error(at + ": " + problem);
                   }
                 }},
                {"options", [&](const toml::node& v, const std::string& at) {
                   b.options = toml_reading::options_of(file, v, at);
                 }}});
    declared.emplace_back(value.source().begin.line, std::move(b));
  }
  // toml++ keeps keys sorted; keep the file's order for messages and run.json.
  std::stable_sort(declared.begin(), declared.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<backend_config> out;
  for (auto& d : declared) out.push_back(std::move(d.second));
  return out;
}

std::vector<database_route> read_databases_table(const std::filesystem::path& file, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (t == nullptr)
    throw usage_error(where(file, n.source()) + ": [databases] must be a table of db_id = backend");
  std::vector<database_route> out;
  for (auto&& [key, value] : *t) {
    database_route r;
    r.db_id = std::string(key.str());
    r.origin = where(file, value.source());
    if (value.is_string()) {
      r.gold = r.pred = *value.value<std::string>();
    } else if (const toml::table* rt = value.as_table()) {
      walk_table(
          file, *rt, "[databases] entry '" + r.db_id + "'",
          {{"gold", [&](const toml::node& v, const std::string& at) { r.gold = string_of(v, at, "gold"); }},
           {"pred", [&](const toml::node& v, const std::string& at) { r.pred = string_of(v, at, "pred"); }}});
    } else {
      throw usage_error(r.origin + ": [databases] " + r.db_id +
                        " must be a backend name or a table { gold = \"...\", pred = \"...\" }");
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sqlmorph::core
