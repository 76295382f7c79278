#include "output/report_folders.hpp"

#include "errors.hpp"

namespace sqlmorph::core {

void report_folders::add_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::path same = std::filesystem::weakly_canonical(dir, ec);
  if (ec) same = dir.lexically_normal();
  const auto [it, added] = given_.try_emplace(same, dir);
  if (!added)
    throw usage_error("report: " + dir.string() + " is given twice" +
                      (it->second == dir ? std::string() : " (as " + it->second.string() + ")") +
                      "; its examples would be counted twice");
}

void report_folders::add_systems(const nlohmann::json& summary, const std::filesystem::path& dir) {
  for (const char* groups : {"techniques", "judges"}) {
    if (!summary.contains(groups) || !summary[groups].is_array()) continue;
    for (const auto& g : summary[groups]) {
      const std::string system = g.is_object() && g.contains("system") && g["system"].is_string()
                                     ? g["system"].get<std::string>()
                                     : "";
      const auto [it, added] = folder_of_system_.try_emplace(system, dir);
      if (added || it->second == dir) continue;
      const std::string which = system.empty() ? std::string("the unnamed system (runs without --system)")
                                               : "system '" + system + "'";
      throw usage_error("report: " + it->second.string() + " and " + dir.string() + " both hold " + which +
                        "; a report over both would show its examples twice. Give each run once and each "
                        "system in one run (merge the shards of a run with `sqlmorph merge`)");
    }
  }
}

}  // namespace sqlmorph::core
