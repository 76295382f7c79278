#include "runner/work_plan.hpp"

#include <unordered_map>

namespace sqlmorph::core {

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
  return units;
}

}  // namespace sqlmorph::core
