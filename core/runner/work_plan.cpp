#include "runner/work_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace sqlmorph::core {
namespace {

// The examples' gold queries are one: the same SQL on the same database and backend. (Within an
// item they are, by definition.)
bool same_gold(const example& a, const example& b) {
  return !a.gold.empty() && a.gold == b.gold && a.db == b.db && a.db_id == b.db_id &&
         a.gold_backend == b.gold_backend;
}

}  // namespace

std::vector<work_unit> plan_work(const std::vector<example>& examples) {
  std::vector<work_unit> units;
  std::unordered_map<std::string, std::size_t> unit_of_item;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const std::string& item = examples[i].item;
    if (item.empty()) {
      units.push_back({{i}});
      continue;
    }
    auto [it, added] = unit_of_item.try_emplace(item, units.size());
    if (added) units.emplace_back();
    units[it->second].examples.push_back(i);
  }
  // Two neighbours with one gold query become one unit: their examples follow each other, in order.
  std::vector<work_unit> joined;
  joined.reserve(units.size());
  bool last_joined = false;  // the last unit holds two items already
  for (work_unit& unit : units) {
    if (!joined.empty() && !last_joined &&
        same_gold(examples[joined.back().examples.front()], examples[unit.examples.front()])) {
      auto& into = joined.back().examples;
      into.insert(into.end(), unit.examples.begin(), unit.examples.end());
      last_joined = true;
    } else {
      joined.push_back(std::move(unit));
      last_joined = false;
    }
  }
  return joined;
}

std::vector<work_unit> consecutive_units(std::span<const std::size_t> sizes, std::size_t examples) {
  std::size_t total = 0;
  for (const std::size_t n : sizes) total += n;
  if (total != examples || std::find(sizes.begin(), sizes.end(), std::size_t{0}) != sizes.end())
    throw std::logic_error("consecutive_units: the units' sizes do not add up to the examples");
  std::vector<work_unit> units(sizes.size());
  std::size_t next = 0;
  for (std::size_t u = 0; u < sizes.size(); ++u) {
    for (std::size_t k = 0; k < sizes[u]; ++k) units[u].examples.push_back(next++);
  }
  return units;
}

}  // namespace sqlmorph::core
