#pragma once
// Spider's exact set match as a technique of a run (`spider_exact_match`): a metric on the parsed
// SQL and the schema of tables.json, not on results, so nothing is executed for it. Its records have
// EX/EXP/EXR/F1 null and carry `EM` (0/1), `pred_parsed` and the ten partial scores as extra fields
// `partial.<clause>.<acc|rec|f1|label_total|pred_total>`.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sqlmorph/spider_exact_match.hpp>

#include "datasets/spider_tables.hpp"
#include "eval/example.hpp"
#include "eval/record.hpp"

namespace sqlmorph::core {

inline constexpr const char* exact_match_technique = "spider_exact_match";

class exact_match_metric {
 public:
  /// Reads `tables_file` (Spider's tables.json); throws input_error naming it.
  explicit exact_match_metric(const std::filesystem::path& tables_file);

  /// The example's record. The database is the example's db_id (or, when empty, the name of the
  /// folder holding its database file); one absent from tables.json is `db_missing`, a gold query
  /// the official parser rejects is `gold_error`; an unparsable prediction is scored as the empty SQL.
  record evaluate(const example& ex) const;
  /// The record of an example without a prediction (pred_missing).
  record missing(const example& ex) const;
  /// What the records depend on besides the examples (for the run's fingerprint).
  const std::string& identity() const noexcept { return identity_; }

 private:
  record evaluate_(const example& ex) const;

  spider_schemas schemas_;
  std::string identity_;
};

/// Takes spider_exact_match out of the technique `names` and returns its metric (null when not
/// listed), reading `tables`, else tables.json beside `gold_file`; `tables_option` names where the
/// file is given (`--tables`, a Lua field) in usage errors. `tables` without the technique listed is
/// a usage error too.
std::shared_ptr<const exact_match_metric> take_exact_match(
    std::vector<std::string>& names, const std::optional<std::filesystem::path>& tables,
    const std::optional<std::filesystem::path>& gold_file, const std::string& tables_option);

/// The scores an exact-match record carries, read back from its extra fields (false when they are
/// not all there).
bool exact_match_scores_of(const record& r, spider::exact_match_scores& out);

}  // namespace sqlmorph::core
