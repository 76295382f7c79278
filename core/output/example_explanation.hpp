#pragma once
// `sqlmorph explain`: one example of a finished run, from its examples.jsonl line and its
// results.jsonl records — the question, both SQL texts, their features, both result tables side by
// side (columns paired by name; rows that have no equal row on the other side, over the paired
// columns, marked `*`) and every technique's numbers.

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace sqlmorph::core {

/// The text shown for `evidence` (an examples.jsonl line) and its `records` (results.jsonl lines),
/// `technique` keeping only that technique's records when given.
std::string explain_example(const nlohmann::json& evidence, const std::vector<nlohmann::json>& records,
                            const std::optional<std::string>& technique);

/// An example of a finished run: its examples.jsonl line and its results.jsonl records.
struct run_example {
  nlohmann::json evidence;
  std::vector<nlohmann::json> records;
};

/// Finds example `id` in `run_dir`. Throws usage_error naming the missing file or the id (with the
/// ids nearest to it).
run_example find_run_example(const std::filesystem::path& run_dir, const std::string& id);

/// Whether a side of the evidence has rows the run did not keep (--keep-rows 0, or the byte cap).
bool rows_not_kept(const nlohmann::json& evidence);

}  // namespace sqlmorph::core
