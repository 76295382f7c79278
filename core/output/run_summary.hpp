#pragma once
// Aggregates records into the per-technique summary (summary.json and the table on stdout).

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/record.hpp"

namespace sqlmorph::core {

class run_summary {
public:
  void add(const record& r);

  struct group {
    std::string system;
    std::string technique;
    std::optional<bool> penalize;
    std::size_t count = 0;
    std::map<std::string, std::size_t> statuses;
    // sum and count of non-null values: EX, EXP, EXR, F1
    double sum[4] = {0, 0, 0, 0};
    std::size_t n[4] = {0, 0, 0, 0};
    std::optional<double> mean(int metric) const;
  };

  /// Groups in the order they were first seen.
  const std::vector<group>& groups() const noexcept { return groups_; }

  /// {"examples", "wall_seconds", "techniques": [{"system", "technique", "penalize_extra_pred_cols",
  /// "count", "scored", "EX", "EXP", "EXR", "F1", "statuses"}]}. Means are over examples whose
  /// metric is not null (a missing database gives null metrics).
  nlohmann::ordered_json to_json(std::size_t examples, double wall_seconds) const;

  /// A readable table of the groups.
  std::string to_table() const;

private:
  std::vector<group> groups_;
  std::map<std::tuple<std::string, std::string, int>, std::size_t> index_;
};

}  // namespace sqlmorph::core
