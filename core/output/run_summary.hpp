#pragma once
// Aggregates records into the summary: per system × technique variant, and broken down by
// difficulty and by database (summary.json), with the tables printed on stdout.

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <sqlmorph/spider_exact_match.hpp>

#include "eval/record.hpp"

namespace sqlmorph::core {

/// What a summary knows of a record's example beyond the record: the SQL features of its gold
/// query (eval/sql_features.hpp feature_mask: the by_feature slices) and the gold query itself
/// (QVT groups questions that share it).
struct example_facts {
  std::uint32_t gold_features = 0;
  std::string_view gold;
};

class run_summary {
 public:
  static constexpr std::size_t no_slot = static_cast<std::size_t>(-1);
  /// Adds a record; with `facts`, also to the feature slices and QVT groups of its group. `slot`:
  /// the record's position among its example's records, when every example's records come
  /// together in the same order of technique variants (a run's do): its groups are then
  /// remembered by position, and a record after its example's first (slot > 0) is taken to be of
  /// the example of the record added before it.
  void add(const record& r, const example_facts* facts = nullptr, std::size_t slot = no_slot);

  struct group {
    std::string system;
    std::string technique;
    std::optional<bool> penalize;
    std::string difficulty;  ///< set in by_difficulty()
    std::string db_id;       ///< set in by_database()
    std::size_t count = 0;
    /// Records per status, indexed by example_status.
    std::array<std::size_t, example_status_count> status_counts{};
    /// The statuses that occurred, by name in alphabetical order, with their counts.
    std::vector<std::pair<std::string, std::size_t>> statuses() const;
    // sum and count of non-null values: EX, EXP, EXR, F1
    double sum[4] = {0, 0, 0, 0};
    std::size_t n[4] = {0, 0, 0, 0};
    std::optional<double> mean(int metric) const;
    /// The headline metric: EX for techniques without EXP/EXR/F1, else F1.
    std::optional<double> headline() const { return n[3] > 0 ? mean(3) : mean(0); }
    /// BIRD's R-VES over the records that carry a `reward` (bird_ves): the mean of √reward × 100.
    double ves_sum = 0;
    std::size_t ves_n = 0;
    std::optional<double> r_ves() const;
    /// One per record, in record order: what the intervals and the pairwise comparisons read. A
    /// record's values are kept together (one append per record and group, not one per metric
    /// and list: the writer's tally touches a few places per record). Top-level groups only: a
    /// by_difficulty or by_database group's entries are those of its top-level group with its
    /// difficulty or database (run_summary::breakdown_values).
    struct entry {
      float metric[4];  ///< EX, EXP, EXR, F1; NaN: null
      /// Top-level groups (groups()) of records added with facts: the gold query's feature mask
      /// (the feature slices' intervals).
      std::uint32_t features = 0;
      /// Top-level groups: the question the record answers (an id shared by every system's
      /// answer to the same example), for the pairwise comparison of systems.
      std::uint32_t question = 0;
      /// The record's difficulty's and database's numbers in the run (breakdown groups' entries).
      std::uint32_t difficulty = 0;
      std::uint32_t database = 0;
      /// Appends each metric's value that is not null to values[m] (EX, EXP, EXR, F1: four lists).
      void append_metrics(std::vector<double>* values) const {
        for (std::size_t m = 0; m < 4; ++m) {
          if (!std::isnan(metric[m])) values[m].push_back(metric[m]);
        }
      }
    };
    std::vector<entry> entries;
    /// A by_difficulty or by_database group: its top-level group (an index into groups()) and
    /// the number of its difficulty or database.
    std::uint32_t top = no_group;
    std::uint32_t breakdown_number = 0;
    /// The non-null values of metric m (0-3: EX, EXP, EXR, F1) in record order, as doubles (a
    /// bootstrap interval's input).
    std::vector<double> values_of(int m) const;
    /// Counts the record; with `entry`, appends its entry (top-level groups).
    void add(const record& r, bool entry = true);

    /// Records and metric sums of a slice of a group's records.
    struct slice {
      std::size_t count = 0;
      double sum[4] = {0, 0, 0, 0};
      std::size_t n[4] = {0, 0, 0, 0};
    };
    /// Top-level groups only, for records added with facts: per gold feature mask met in the run
    /// (by its number, in the order the run met the masks), the mask and the slice of records
    /// whose gold query has exactly those features (count 0: none in this group). A record adds to
    /// one of these; the feature slices are summed from them.
    std::vector<std::pair<std::uint32_t, slice>> mask_slices;
    /// Per SQL feature (feature_names) and presence in the gold query (index 2·feature + present):
    /// the slice of the mask slices with that feature present or absent (summed in mask order).
    /// Empty for a group without facts.
    std::vector<slice> feature_slices() const;
    /// Per gold query (an id of the summary's: ids in the order the run met the queries), the
    /// records with EX and how many have EX 1 (QVT); sorted by id. (Ids grow as a run meets new
    /// queries, so a record's entry is usually the last one or a new last one; a query met again
    /// is found by binary search.)
    struct gold_counts {
      std::uint32_t gold = 0;
      std::uint32_t records = 0;
      std::uint32_t right = 0;
    };
    std::vector<gold_counts> ex_by_gold;
    gold_counts& counts_of_gold(std::uint32_t gold);
    std::optional<double> qvt() const;
    std::size_t qvt_groups() const;
    /// The share of right answers of each QVT group, in the order their gold queries were met.
    std::vector<float> qvt_shares() const;
  };

  /// What a judge said over a run, per system × judge (records "judge:NAME").
  struct judge_group {
    std::string system;
    std::string judge;  ///< the name, without "judge:"
    std::size_t count = 0;
    std::array<std::size_t, example_status_count> status_counts{};
    std::vector<std::pair<std::string, std::size_t>> statuses() const;
    std::size_t labelled = 0;
    double label_sum = 0;
    double confidence_sum = 0;
    /// The labels and confidences of the labelled records (their intervals).
    std::vector<float> labels;
    std::vector<float> confidences;
    std::uint64_t prompt_tokens = 0;
    std::uint64_t completion_tokens = 0;
    /// Agreement with execution_accuracy's EX of the same example: [judge 1, EX 1], [1, 0], [0, 1], [0, 0].
    std::array<std::size_t, 4> versus_ex{};
    std::size_t compared() const { return versus_ex[0] + versus_ex[1] + versus_ex[2] + versus_ex[3]; }
    std::optional<double> mean_label() const;
    std::optional<double> mean_confidence() const;
    /// The share of compared examples where the label equals EX.
    std::optional<double> agreement() const;
  };

  /// Per system × judge, in the order first seen.
  const std::vector<judge_group>& judge_groups() const noexcept { return judges_; }
  /// Whether the run's records include execution_accuracy (agreement with EX is null otherwise).
  bool has_execution_accuracy() const noexcept { return saw_ex_; }
  /// One row per system × judge: labels, confidence, agreement with EX, statuses, tokens.
  std::string judges_table() const;

  /// Per system × technique variant, in the order first seen.
  const std::vector<group>& groups() const noexcept { return groups_.items; }
  const std::vector<group>& by_difficulty() const noexcept { return by_difficulty_.items; }
  const std::vector<group>& by_database() const noexcept { return by_database_.items; }
  std::vector<std::string> systems() const;

  /// {"examples", "wall_seconds", "techniques": [...], "by_difficulty": [...], "by_database": [...],
  ///  "spider_exact_match": [...], "judges": [...], "statistics": {...}}.
  /// Means are over examples whose metric is not null (a missing database gives null metrics);
  /// each carries its 95% bootstrap interval (summary_statistics.hpp), computed on `threads`
  /// threads (0: one per hardware thread); the result does not depend on their number.
  nlohmann::ordered_json to_json(std::size_t examples, double wall_seconds, unsigned threads = 0) const;

  /// Spider's exact set match per system (records "spider_exact_match" whose status is ok), in the
  /// order first seen.
  const std::vector<std::pair<std::string, spider::exact_match_summary>>& exact_match() const noexcept {
    return exact_match_;
  }

  /// Every group with its means and statuses.
  std::string to_table() const;
  /// One row per technique variant, one column per system: the headline metric (EX or F1); beyond
  /// max_side_by_side systems, ranked_systems_table() instead (a table that stays readable).
  std::string systems_table() const;
  static constexpr std::size_t max_side_by_side = 8;
  static constexpr std::size_t max_ranked_columns = 4;
  /// One row per system ranked by the first technique variant's headline, with the headlines of
  /// the first max_ranked_columns variants.
  std::string ranked_systems_table() const;
  /// One row per technique variant, one column per difficulty, for one system.
  std::string difficulty_table(const std::string& system) const;

 private:
  // A group is found by small ids of its strings: (system, technique, penalize, breakdown value).
  using group_key = std::array<std::uint32_t, 4>;
  struct group_key_hash {
    std::size_t operator()(const group_key& k) const noexcept;
  };
  struct group_key_equal {  // (std::array's == calls memcmp)
    bool operator()(const group_key& a, const group_key& b) const noexcept {
      return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
    }
  };
  struct indexed {
    std::vector<group> items;
    std::unordered_map<group_key, std::size_t, group_key_hash, group_key_equal> index;
    group& at(const group_key& key, const record& r) { return items[index_of(key, r)]; }
    std::size_t index_of(const group_key& key, const record& r);
  };
  // Strings numbered in the order first seen, looked up without copying them.
  struct string_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  using string_ids = std::unordered_map<std::string, std::uint32_t, string_hash, std::equal_to<>>;
  static std::uint32_t number_of(string_ids& ids, std::string_view s);
  std::uint32_t id_of(std::string_view s) { return number_of(ids_, s); }
  string_ids question_ids_;
  string_ids gold_ids_;
  // The ids of the example whose records are being added: an example's records come one after
  // the other (one per technique variant), so its strings are looked up once, not per record; and
  // the next example is most often another system's answer to the same question, or the same
  // system's next question, so a string equal to the last example's keeps its number.
  struct example_ids {
    std::string id;
    std::string system;
    std::string difficulty;
    std::string db_id;
    std::string question_text;
    std::uint32_t system_id = 0;
    std::uint32_t example = 0;  // the number of the record id
    std::uint32_t question = 0;
    // The difficulty's and the database's numbers among the run's difficulties and databases
    // (the last part of a by_difficulty or by_database group's key, slot_groups::by_value).
    std::uint32_t difficulty_number = 0;
    std::uint32_t db_number = 0;
    // The gold query of example number gold_example; gold_id its number once gold_numbered.
    std::string gold;
    std::uint32_t gold_example = 0;
    bool has_gold = false;
    bool gold_numbered = false;
    std::uint32_t gold_id = 0;
  };
  const example_ids& ids_of(const record& r);
  example_ids current_;
  bool has_current_ = false;
  string_ids record_ids_;
  // The groups of the records of one system in one slot, for the technique and penalize value of
  // its last record: its technique's group, and its difficulty's and database's groups (index into
  // items, no_group when not met yet) by the difficulty's and the database's number among the
  // run's difficulties and databases.
  static constexpr std::uint32_t no_group = static_cast<std::uint32_t>(-1);
  struct slot_groups {
    std::string technique;
    std::uint32_t technique_id = 0;
    std::uint32_t penalize = 0;
    bool known = false;
    std::size_t top = 0;
    std::array<std::vector<std::uint32_t>, 2> by_value;
  };
  string_ids difficulty_numbers_;
  string_ids database_numbers_;
  // Gold feature masks numbered in the order first met (group::mask_slices), and the last one
  // looked up.
  std::unordered_map<std::uint32_t, std::uint32_t> mask_numbers_;
  std::uint32_t last_mask_ = 0;
  std::uint32_t last_mask_number_ = no_group;
  std::uint32_t mask_number_of(std::uint32_t mask);
  std::vector<std::vector<slot_groups>> slots_;  // by system number, then slot
  std::array<group*, 3> groups_of_(const record& r, const example_ids& ids, std::uint32_t penalize,
                                   std::size_t slot);

  void add_judge(const record& r, const example_ids& ids);

  string_ids ids_;
  std::vector<judge_group> judges_;
  std::unordered_map<std::uint64_t, std::size_t> judge_index_;  // (system id, judge id) -> judges_
  // EX of execution_accuracy per example (record id and system numbers), for the agreement of
  // judges: listed as they come, and made a map when the first judge record comes (a run without
  // judges never looks one up).
  std::vector<std::pair<std::uint64_t, std::optional<double>>> ex_list_;
  std::unordered_map<std::uint64_t, std::optional<double>> ex_of_example_;
  bool ex_indexed_ = false;
  bool saw_ex_ = false;
  std::vector<std::pair<std::string, spider::exact_match_summary>> exact_match_;
  /// Per entry of exact_match_, per level of spider::exact_match_levels: each example's EM (0/1).
  std::vector<std::array<std::vector<float>, spider::exact_match_levels.size()>> exact_match_values_;
  indexed groups_;
  indexed by_difficulty_;
  indexed by_database_;
  /// The values of by_difficulty (`database` false) or by_database groups `of`: those of their
  /// top-level groups' entries of their difficulty or database, in record order, per metric
  /// (group i, metric m: set 4·i + m; EX, EXP, EXR, F1, nulls left out). On `threads` threads.
  std::vector<std::vector<double>> breakdown_values(const std::vector<const group*>& of, bool database,
                                                    unsigned threads) const;
};

/// "name", or "name (penalize)" / "name (no penalize)" for the two variants of a cell technique.
std::string variant_label(const std::string& technique, const std::optional<bool>& penalize);

}  // namespace sqlmorph::core
