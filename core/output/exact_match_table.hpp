#pragma once
// Spider's exact set match over a run, per system: the official script's table (`--etype match`
// layout: EM per difficulty, then partial accuracy, recall and F1) and its summary.json form.

#include <string>

#include <nlohmann/json.hpp>
#include <sqlmorph/spider_exact_match.hpp>

namespace sqlmorph::core {

/// {"easy": {"count", "EM", "partial": {clause: {"acc", "rec", "f1"}}}, ..., "all": {...}}.
nlohmann::ordered_json exact_match_json(const spider::exact_match_summary& s);

/// The table as the official evaluator prints it (values to 3 places).
std::string exact_match_text(const spider::exact_match_summary& s);

}  // namespace sqlmorph::core
