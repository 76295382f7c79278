#include "config/embedding_config.hpp"

#include <algorithm>

#include "config/toml_reading.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

using toml_reading::string_of;
using toml_reading::walk_table;
using toml_reading::where;

void read_embedding_table(const std::filesystem::path& file, const toml::node& n,
                          const std::filesystem::path& base, embedding_config& into) {
  const toml::table* t = n.as_table();
  if (t == nullptr) throw usage_error(where(file, n.source()) + ": [embedding] must be a table");
  walk_table(file, *t, "[embedding]",
             {{"embedder",
               [&](const toml::node& v, const std::string& at) {
                 into.embedder = string_of(v, at, "embedder");
                 if (into.embedder.empty()) throw usage_error(at + ": 'embedder' must name an embedder");
               }},
              {"cache",
               [&](const toml::node& v, const std::string& at) {
                 if (const auto b = v.value<bool>(); b && v.is_boolean()) {
                   if (*b) throw usage_error(at + ": 'cache' is a file path, or false for no disk cache");
                   into.cache_disabled = true;
                   into.cache.reset();
                   return;
                 }
                 const std::filesystem::path p = string_of(v, at, "cache");
                 into.cache = p.is_absolute() ? p : base / p;
                 into.cache_disabled = false;
               }},
              {"memory_entries", [&](const toml::node& v, const std::string& at) {
                 const auto i = v.value<std::int64_t>();
                 if (!i || !v.is_integer() || *i < 0)
                   throw usage_error(at + ": 'memory_entries' must be a non-negative integer");
                 into.memory_entries = static_cast<std::uint64_t>(*i);
               }}});
}

void read_embedders_table(const std::filesystem::path& file, const toml::node& n, embedding_config& into) {
  const toml::table* t = n.as_table();
  if (t == nullptr)
    throw usage_error(where(file, n.source()) + ": [embedders] must hold [embedders.NAME] tables");
  std::vector<std::pair<std::uint32_t, embedder_config>> declared;
  for (auto&& [key, value] : *t) {
    embedder_config e;
    e.name = std::string(key.str());
    e.component = e.name;
    e.origin = where(file, value.source());
    if (e.name == "default")
      throw usage_error(e.origin + ": 'default' is reserved (it names [embedding] embedder)");
    const toml::table* et = value.as_table();
    if (et == nullptr) throw usage_error(e.origin + ": [embedders." + e.name + "] must be a table");
    walk_table(file, *et, "[embedders." + e.name + "]",
               {{"plugin", [&](const toml::node& v,
                               const std::string& at) { e.component = string_of(v, at, "plugin"); }},
                {"options", [&](const toml::node& v, const std::string& at) {
                   e.options = toml_reading::options_of(file, v, at);
                 }}});
    declared.emplace_back(value.source().begin.line, std::move(e));
  }
  std::stable_sort(declared.begin(), declared.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& d : declared) into.embedders.push_back(std::move(d.second));
}

}  // namespace sqlmorph::core
