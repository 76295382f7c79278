#pragma once
// Aggregates records into the summary: per system × technique variant, and broken down by
// difficulty and by database (summary.json), with the tables printed on stdout.

#include <map>
#include <optional>
#include <string>
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
    std::string difficulty;  ///< set in by_difficulty()
    std::string db_id;       ///< set in by_database()
    std::size_t count = 0;
    std::map<std::string, std::size_t> statuses;
    // sum and count of non-null values: EX, EXP, EXR, F1
    double sum[4] = {0, 0, 0, 0};
    std::size_t n[4] = {0, 0, 0, 0};
    std::optional<double> mean(int metric) const;
    /// The headline metric: EX for techniques without EXP/EXR/F1, else F1.
    std::optional<double> headline() const { return n[3] > 0 ? mean(3) : mean(0); }
    void add(const record& r);
  };

  /// Per system × technique variant, in the order first seen.
  const std::vector<group>& groups() const noexcept { return groups_.items; }
  const std::vector<group>& by_difficulty() const noexcept { return by_difficulty_.items; }
  const std::vector<group>& by_database() const noexcept { return by_database_.items; }
  std::vector<std::string> systems() const;

  /// {"examples", "wall_seconds", "techniques": [...], "by_difficulty": [...], "by_database": [...]}.
  /// Means are over examples whose metric is not null (a missing database gives null metrics).
  nlohmann::ordered_json to_json(std::size_t examples, double wall_seconds) const;

  /// Every group with its means and statuses.
  std::string to_table() const;
  /// One row per technique variant, one column per system: the headline metric (EX or F1).
  std::string systems_table() const;
  /// One row per technique variant, one column per difficulty, for one system.
  std::string difficulty_table(const std::string& system) const;

private:
  struct indexed {
    std::vector<group> items;
    std::map<std::string, std::size_t> index;
    group& at(const std::string& key, const record& r);
  };
  indexed groups_;
  indexed by_difficulty_;
  indexed by_database_;
};

/// "name", or "name (penalize)" / "name (no penalize)" for the two variants of a cell technique.
std::string variant_label(const std::string& technique, const std::optional<bool>& penalize);

}  // namespace sqlmorph::core
