#include "config/toml_reading.hpp"

#include "errors.hpp"

namespace sqlmorph::core::toml_reading {

std::string where(const std::filesystem::path& file, const toml::source_region& src) {
  return file.string() + ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column);
}

void walk_table(const std::filesystem::path& file, const toml::table& table, const std::string& table_name,
                const std::map<std::string, key_handler>& keys) {
  for (auto&& [key, node] : table) {
    const std::string name(key.str());
    const auto it = keys.find(name);
    if (it == keys.end()) {
      std::string known;
      for (const auto& [k, h] : keys) known += (known.empty() ? "" : ", ") + k;
      throw usage_error(where(file, key.source()) + ": unknown key '" + name + "' in " + table_name +
                        " (known keys: " + known + ")");
    }
    it->second(node, where(file, node.source()));
  }
}

std::string string_of(const toml::node& n, const std::string& at, const std::string& key) {
  if (const auto s = n.value<std::string>(); s && n.is_string()) return *s;
  throw usage_error(at + ": '" + key + "' must be a string");
}

// The configuration is read before any plugin is loaded, so a value is kept as TOML typed it; the
// registry checks it against the option's declared type when the component is bound (option_model).
spec_value option_value_of(const toml::node& n, const std::string& at, const std::string& key) {
  if (n.is_boolean()) return *n.value<bool>();
  if (n.is_integer()) return *n.value<std::int64_t>();
  if (n.is_floating_point()) return *n.value<double>();
  if (n.is_string()) return *n.value<std::string>();
  throw usage_error(at + ": option '" + key + "' must be a bool, number or string");
}

std::map<std::string, spec_value, std::less<>> options_of(const std::filesystem::path& file,
                                                          const toml::node& n, const std::string& at) {
  const toml::table* table = n.as_table();
  if (table == nullptr) throw usage_error(at + ": 'options' must be a table of option = value");
  std::map<std::string, spec_value, std::less<>> out;
  for (auto&& [key, value] : *table) {
    const std::string name(key.str());
    out[name] = option_value_of(value, where(file, value.source()), name);
  }
  return out;
}

}  // namespace sqlmorph::core::toml_reading
