#include "config/config.hpp"

#include <unistd.h>

#include <toml++/toml.h>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

#include "config/run_values.hpp"
#include "config/toml_reading.hpp"
#include "errors.hpp"

namespace sqlmorph::core {
namespace {

std::string expand_dir(const std::string& text) {
  std::string out = text;
  const std::string token = "{exe_dir}";
  for (std::size_t pos = out.find(token); pos != std::string::npos; pos = out.find(token, pos)) {
    const std::string dir = executable_dir().string();
    out.replace(pos, token.size(), dir);
    pos += dir.size();
  }
  return out;
}

using toml_reading::walk_table;
using toml_reading::where;

double number_of(const toml::node& n, const std::string& at, const std::string& key) {
  if (auto v = n.value<double>(); v && (n.is_floating_point() || n.is_integer())) return *v;
  throw usage_error(at + ": '" + key + "' must be a number");
}

std::uint64_t count_of(const toml::node& n, const std::string& at, const std::string& key) {
  if (auto v = n.value<std::int64_t>(); v && n.is_integer() && *v >= 0) return static_cast<std::uint64_t>(*v);
  throw usage_error(at + ": '" + key + "' must be a non-negative integer");
}

// A component written in TOML: a name ("exact"), or a table with `name` and option keys, whose
// values may themselves be components ({ name = "greedy_partial", cells = "exact" }).
component_spec component_of(const std::filesystem::path& file, const toml::node& n, const std::string& what) {
  if (const auto s = n.value<std::string>()) return component_spec(*s);
  const toml::table* t = n.as_table();
  if (t == nullptr)
    throw usage_error(where(file, n.source()) + ": " + what + " must be a component name or a table");
  component_spec spec;
  for (auto&& [key, value] : *t) {
    const std::string k(key.str());
    if (k == "name") {
      const auto s = value.value<std::string>();
      if (!s) throw usage_error(where(file, value.source()) + ": " + what + ".name must be a string");
      spec.name = *s;
    } else if (value.is_boolean()) {
      spec.options[k] = *value.value<bool>();
    } else if (value.is_integer()) {
      spec.options[k] = *value.value<std::int64_t>();
    } else if (value.is_floating_point()) {
      spec.options[k] = *value.value<double>();
    } else if (value.is_string()) {
      spec.options[k] = *value.value<std::string>();
    } else if (value.is_table()) {
      spec.options[k] = std::make_shared<const component_spec>(component_of(file, value, what + "." + k));
    } else {
      throw usage_error(where(file, value.source()) + ": option '" + k + "' of " + what +
                        " must be a bool, number, string or component table");
    }
  }
  if (spec.name.empty()) throw usage_error(where(file, n.source()) + ": " + what + " has no 'name'");
  return spec;
}

technique_spec technique_of(const std::filesystem::path& file, const std::string& name, const toml::node& n) {
  const toml::table* t = n.as_table();
  if (t == nullptr)
    throw usage_error(where(file, n.source()) + ": [techniques." + name + "] must be a table");
  technique_spec spec;
  spec.name = name;
  spec.origin = where(file, n.source());
  bool has_columns = false;
  bool has_rows = false;
  bool has_scorer = false;
  const auto list_of = [&](const toml::node& v, const std::string& what) {
    std::vector<component_spec> out;
    const toml::array* arr = v.as_array();
    if (arr == nullptr)
      throw usage_error(where(file, v.source()) + ": '" + what + "' must be an array of components");
    for (const toml::node& e : *arr) out.push_back(component_of(file, e, what));
    return out;
  };
  walk_table(file, *t, "[techniques." + name + "]",
             {{"description",
               [&](const toml::node& v, const std::string& at) {
                 const auto s = v.value<std::string>();
                 if (!s) throw usage_error(at + ": 'description' must be a string");
                 spec.description = *s;
               }},
              {"rewriters",
               [&](const toml::node& v, const std::string&) { spec.rewriters = list_of(v, "rewriters"); }},
              {"normalizers", [&](const toml::node& v,
                                  const std::string&) { spec.normalizers = list_of(v, "normalizers"); }},
              {"columns",
               [&](const toml::node& v, const std::string&) {
                 spec.columns = component_of(file, v, "columns");
                 has_columns = true;
               }},
              {"rows",
               [&](const toml::node& v, const std::string&) {
                 spec.rows = component_of(file, v, "rows");
                 has_rows = true;
               }},
              {"scorer", [&](const toml::node& v, const std::string&) {
                 spec.scorer = component_of(file, v, "scorer");
                 has_scorer = true;
               }}});
  if (!has_columns || !has_rows || !has_scorer) {
    throw usage_error(spec.origin + ": [techniques." + name + "] needs 'columns', 'rows' and 'scorer'");
  }
  return spec;
}

}  // namespace

namespace {
std::optional<std::filesystem::path>& executable_dir_override() {
  static std::optional<std::filesystem::path> dir;
  return dir;
}
}  // namespace

void set_executable_dir(const std::filesystem::path& dir) {
  executable_dir_override() = dir;
}

std::filesystem::path executable_dir() {
  if (executable_dir_override()) return *executable_dir_override();
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

config default_config() {
  config c;
  const auto exe = executable_dir();
  c.plugin_dirs = {exe / "plugins", exe.parent_path() / "lib" / "sqlmorph" / "plugins"};
  c.lua.technique_dirs = {exe / "scripts" / "techniques",
                          exe.parent_path() / "share" / "sqlmorph" / "scripts" / "techniques"};
  c.lua.lib_dirs = {exe / "scripts" / "lib", exe.parent_path() / "share" / "sqlmorph" / "scripts" / "lib"};
  return c;
}

config load_config(const std::filesystem::path& file) {
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw usage_error(where(file, e.source()) + ": " + std::string(e.description()));
  }
  config c = default_config();
  c.source = file;
  const auto base = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");

  const auto plugins_table = [&](const toml::node& n, const std::string& at) {
    const toml::table* t = n.as_table();
    if (t == nullptr) throw usage_error(at + ": [plugins] must be a table");
    walk_table(file, *t, "[plugins]",
               {{"dirs", [&](const toml::node& d, const std::string& dat) {
                   const toml::array* arr = d.as_array();
                   if (arr == nullptr) throw usage_error(dat + ": 'dirs' must be an array of strings");
                   c.plugin_dirs.clear();
                   for (const toml::node& e : *arr) {
                     const auto s = e.value<std::string>();
                     if (!s) throw usage_error(where(file, e.source()) + ": 'dirs' must hold strings");
                     std::filesystem::path p = expand_dir(*s);
                     c.plugin_dirs.push_back(p.is_absolute() ? p : base / p);
                   }
                 }}});
  };
  const auto run_table = [&](const toml::node& n, const std::string& at) {
    const toml::table* t = n.as_table();
    if (t == nullptr) throw usage_error(at + ": [run] must be a table");
    walk_table(file, *t, "[run]",
               {{"timeout",
                 [&](const toml::node& v, const std::string& vat) {
                   c.run.timeout_seconds = checked_timeout(number_of(v, vat, "timeout"), vat + ": 'timeout'");
                 }},
                {"gold_timeout",
                 [&](const toml::node& v, const std::string& vat) {
                   c.run.gold_timeout_seconds =
                       checked_timeout(number_of(v, vat, "gold_timeout"), vat + ": 'gold_timeout'");
                 }},
                {"pred_timeout",
                 [&](const toml::node& v, const std::string& vat) {
                   c.run.pred_timeout_seconds =
                       checked_timeout(number_of(v, vat, "pred_timeout"), vat + ": 'pred_timeout'");
                 }},
                {"jobs",
                 [&](const toml::node& v, const std::string& vat) {
                   if (!v.is_integer()) throw usage_error(vat + ": 'jobs' must be a whole number of workers");
                   c.run.jobs = checked_jobs(static_cast<double>(*v.value<std::int64_t>()), vat + ": 'jobs'");
                 }},
                {"cache",
                 [&](const toml::node& v, const std::string& vat) {
                   const auto s = v.value<std::string>();
                   if (!s) throw usage_error(vat + ": 'cache' must be a folder path");
                   const std::filesystem::path p = expand_dir(*s);
                   c.run.cache_dir = p.is_absolute() ? p : base / p;
                 }},
                {"max_rows", [&](const toml::node& v,
                                 const std::string& vat) { c.run.max_rows = count_of(v, vat, "max_rows"); }},
                {"max_result_bytes",
                 [&](const toml::node& v, const std::string& vat) {
                   c.run.max_result_bytes = count_of(v, vat, "max_result_bytes");
                 }},
                {"backend",
                 [&](const toml::node& v, const std::string& vat) {
                   const auto s = v.value<std::string>();
                   if (!s || s->empty()) throw usage_error(vat + ": 'backend' must be a backend name");
                   c.run.backend = *s;
                 }},
                {"gold_backend",
                 [&](const toml::node& v, const std::string& vat) {
                   c.run.gold_backend = toml_reading::string_of(v, vat, "gold_backend");
                 }},
                {"pred_backend", [&](const toml::node& v, const std::string& vat) {
                   c.run.pred_backend = toml_reading::string_of(v, vat, "pred_backend");
                 }}});
  };
  const auto dir_list = [&](const toml::node& d, const std::string& dat, const char* key) {
    const toml::array* arr = d.as_array();
    if (arr == nullptr) throw usage_error(dat + ": '" + key + "' must be an array of strings");
    std::vector<std::filesystem::path> dirs;
    for (const toml::node& e : *arr) {
      const auto s = e.value<std::string>();
      if (!s) throw usage_error(where(file, e.source()) + ": '" + key + "' must hold strings");
      std::filesystem::path p = expand_dir(*s);
      dirs.push_back(p.is_absolute() ? p : base / p);
    }
    return dirs;
  };
  const auto lua_table = [&](const toml::node& n, const std::string& at) {
    const toml::table* t = n.as_table();
    if (t == nullptr) throw usage_error(at + ": [lua] must be a table");
    walk_table(
        file, *t, "[lua]",
        {{"technique_dirs",
          [&](const toml::node& v, const std::string& vat) {
            c.lua.technique_dirs = dir_list(v, vat, "technique_dirs");
          }},
         {"lib_dirs", [&](const toml::node& v,
                          const std::string& vat) { c.lua.lib_dirs = dir_list(v, vat, "lib_dirs"); }},
         {"memory_limit_mb",
          [&](const toml::node& v, const std::string& vat) {
            c.lua.memory_limit_mb = count_of(v, vat, "memory_limit_mb");
            if (c.lua.memory_limit_mb < 1 || c.lua.memory_limit_mb > max_lua_memory_mb)
              throw usage_error(vat + ": 'memory_limit_mb' must be between 1 and " +
                                std::to_string(max_lua_memory_mb) + " (a script always has a limit)");
          }},
         {"instruction_limit",
          [&](const toml::node& v, const std::string& vat) {
            c.lua.instruction_limit = count_of(v, vat, "instruction_limit");
            if (c.lua.instruction_limit < 1)
              throw usage_error(vat +
                                ": 'instruction_limit' must be at least 1 (a script always has a budget; "
                                "give a larger number to allow more)");
          }},
         {"on_error", [&](const toml::node& v, const std::string& vat) {
            const auto s = v.value<std::string>();
            if (!s || (*s != "mark" && *s != "abort"))
              throw usage_error(vat + ": 'on_error' must be \"mark\" or \"abort\"");
            c.lua.on_error = *s;
          }}});
  };
  const auto techniques_table = [&](const toml::node& n, const std::string& at) {
    const toml::table* t = n.as_table();
    if (t == nullptr) throw usage_error(at + ": [techniques] must hold [techniques.NAME] tables");
    // toml++ keeps a table's keys sorted; declarations are listed in file order.
    std::vector<std::pair<std::uint32_t, technique_spec>> declared;
    for (auto&& [key, value] : *t) {
      declared.emplace_back(value.source().begin.line, technique_of(file, std::string(key.str()), value));
    }
    std::stable_sort(declared.begin(), declared.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& d : declared) c.techniques.push_back(std::move(d.second));
  };
  walk_table(
      file, root, "the top level",
      {{"plugins", plugins_table},
       {"run", run_table},
       {"lua", lua_table},
       {"techniques", techniques_table},
       {"backends",
        [&](const toml::node& n, const std::string&) { c.backends = read_backends_table(file, n); }},
       {"databases",
        [&](const toml::node& n, const std::string&) { c.databases = read_databases_table(file, n); }},
       {"embedding",
        [&](const toml::node& n, const std::string&) { read_embedding_table(file, n, base, c.embedding); }},
       {"embedders",
        [&](const toml::node& n, const std::string&) { read_embedders_table(file, n, c.embedding); }},
       {"judges", [&](const toml::node& n, const std::string&) { c.judges = read_judges_table(file, n); }}});
  return c;
}

config resolve_config(const std::optional<std::filesystem::path>& explicit_file) {
  if (explicit_file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*explicit_file, ec)) {
      throw usage_error("configuration file " + explicit_file->string() + " does not exist");
    }
    return load_config(*explicit_file);
  }
  if (const char* env = std::getenv("SQLMORPH_CONFIG"); env != nullptr && *env != '\0') {
    return resolve_config(std::filesystem::path(env));
  }
  std::error_code ec;
  if (std::filesystem::is_regular_file("sqlmorph.toml", ec)) return load_config("sqlmorph.toml");
  return default_config();
}

}  // namespace sqlmorph::core
