#pragma once
// `sqlmorph explain`: one example of a finished run, from its examples.jsonl line and its
// results.jsonl records — the question, both SQL texts, their features, both result tables side by
// side (columns paired by name; rows that have no equal row on the other side, over the paired
// columns, marked `*`; no marks when either query failed) and every technique's numbers. Text from
// the run is printed through terminal_text() (control characters escaped); a table cell or column
// name longer than explained_cell_chars is cut with a marker.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

/// The widest a cell (or column name) of the result tables and of the scores table is printed, in
/// characters (docs/cli.md).
inline constexpr std::size_t explained_cell_chars = 60;

/// The text shown for `evidence` (an examples.jsonl line) and its `records` (results.jsonl lines),
/// `technique` keeping only that technique's records when given.
std::string explain_example(const nlohmann::json& evidence, const std::vector<nlohmann::json>& records,
                            const std::optional<std::string>& technique);

/// The techniques of `records`, each once, in the order met.
std::vector<std::string> record_techniques(const std::vector<nlohmann::json>& records);

/// An example of a finished run: its examples.jsonl line and its results.jsonl records.
struct run_example {
  nlohmann::json evidence;
  std::vector<nlohmann::json> records;
};

/// Finds example `id` in `run_dir`. Throws usage_error naming the missing file or the id (with the
/// ids nearest to it: id_suggestions).
run_example find_run_example(const std::filesystem::path& run_dir, const std::string& id);

/// Whether a side of the evidence has rows the run did not keep (--keep-rows 0, or the byte cap).
bool rows_not_kept(const nlohmann::json& evidence);

}  // namespace sqlmorph::core
