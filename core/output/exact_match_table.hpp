#pragma once
// Spider's exact set match over a run, per system: the official script's table (`--etype match`
// layout: EM per difficulty, then partial accuracy, recall and F1) and its summary.json form.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlmorph/spider_exact_match.hpp>

namespace sqlmorph::core {

/// {"easy": {"count", "EM", "partial": {clause: {"acc", "rec", "f1"}}}, ..., "all": {...}}.
nlohmann::ordered_json exact_match_json(const spider::exact_match_summary& s);

/// The counts per level (easy, medium, hard, extra, all).
std::vector<std::size_t> exact_match_counts(const spider::exact_match_summary& s);

/// The exact-match block as the official evaluator prints it after its header and count lines
/// (from "\n====... EXACT MATCHING ACCURACY" to the partial F1 rows; values to 3 places).
/// `count_label`, when not empty, adds a count row of that name under the block's title.
std::string exact_match_text(const spider::exact_match_summary& s, const std::string& count_label = "");

}  // namespace sqlmorph::core
