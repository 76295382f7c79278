#pragma once
// The run folders one `sqlmorph report` reads: each given once, each system in one folder only.
// Two folders holding a system — one folder given twice (however its path is written), two copies
// of a run, runs of one system with other techniques, the shards of a run not merged — would show
// that system's examples twice and its summary rows side by side, so the report is refused, naming
// the folders and the system (merge shards with `sqlmorph merge`; give a run its own --system).

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

class report_folders {
 public:
  /// Throws usage_error when `dir` is a folder given before.
  void add_folder(const std::filesystem::path& dir);
  /// Throws usage_error naming both folders when a system of `summary` (summary.json's technique
  /// and judge groups) is one an earlier folder holds.
  void add_systems(const nlohmann::json& summary, const std::filesystem::path& dir);

 private:
  std::map<std::filesystem::path, std::filesystem::path> given_;  // the folder's canonical path -> as given
  std::map<std::string, std::filesystem::path> folder_of_system_;
};

}  // namespace sqlmorph::core
