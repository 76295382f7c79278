// A tables.json entry as the official evaluator uses it: process_sql's Schema (names lower-cased)
// and build_foreign_key_map.

#include <algorithm>
#include <set>
#include <stdexcept>

#include "sqlmorph/spider_exact_match.hpp"
#include "sqlmorph/unicode.hpp"

namespace sqlmorph::spider {

namespace {

const std::string& at_index(const std::vector<std::string>& items, int index, const char* what) {
  if (index < 0 || static_cast<std::size_t>(index) >= items.size())
    throw std::invalid_argument(std::string(what) + " index " + std::to_string(index) + " is out of range (" +
                                std::to_string(items.size()) + " entries)");
  return items[static_cast<std::size_t>(index)];
}

}  // namespace

database_schema make_database_schema(const tables_entry& entry) {
  std::vector<std::string> tables;
  for (const std::string& t : entry.table_names_original) tables.push_back(python_lower(t));

  // Column ids as process_sql's idMap writes them; `*` is __all__.
  std::vector<std::string> ids;
  schema::table_list columns;
  for (const std::string& t : tables) columns.emplace_back(t, std::vector<std::string>{});
  for (const auto& [table, name] : entry.column_names_original) {
    if (table < 0) {
      ids.emplace_back("__all__");
      continue;
    }
    const std::string& t = at_index(tables, table, "column_names_original: table");
    const std::string column = python_lower(name);
    ids.push_back("__" + t + "." + column + "__");
    columns[static_cast<std::size_t>(table)].second.push_back(column);
  }

  // keyset_in_list: a key pair joins the first group holding either key (groups are never merged).
  std::vector<std::set<int>> groups;
  for (const std::pair<int, int>& key : entry.foreign_keys) {
    // No lambda capture of a structured binding here: clang 14 (the fuzz preset) rejects it.
    const int k1 = key.first;
    const int k2 = key.second;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [k1, k2](const std::set<int>& g) { return g.count(k1) > 0 || g.count(k2) > 0; });
    if (it == groups.end()) it = groups.insert(groups.end(), std::set<int>{});
    it->insert(k1);
    it->insert(k2);
  }
  database_schema out;
  for (const std::set<int>& g : groups) {
    const std::string& representative = at_index(ids, *g.begin(), "foreign_keys: column");
    for (int k : g) out.foreign_keys[at_index(ids, k, "foreign_keys: column")] = representative;
  }
  out.tables = schema(columns);
  return out;
}

}  // namespace sqlmorph::spider
