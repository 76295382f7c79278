#pragma once
// Spider's file formats: the gold file (`SQL<TAB>db_id` per line), prediction files (one SQL per
// line, optionally followed by `<TAB>db_id`, aligned with the gold lines; or a CSV with a
// "PREDICTED SQL" column, as DIN-SQL publishes), and the database folder
// `<db-root>/<db_id>/<db_id>.sqlite`.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "datasets/text_lines.hpp"
#include "eval/example.hpp"

namespace sqlmorph::core {

/// How a tab inside a prediction line is read.
enum class prediction_tabs {
  /// As the official evaluator reads it (`line.strip().split('\t')[0]`): the SQL ends at the first
  /// tab, so a tab inside the SQL truncates it (and the truncated SQL usually fails). A warning names
  /// every such line.
  official,
  /// Tabs belong to the SQL; only a trailing `<TAB>db_id` matching the gold line is removed.
  keep,
};

struct spider_files {
  std::filesystem::path gold;
  std::filesystem::path pred;
  std::filesystem::path db_root;
  /// The system's name; defaults to the prediction file's stem.
  std::optional<std::string> system;
  prediction_tabs tabs = prediction_tabs::official;
};

/// One example per gold line; ids are `<system>:<line index from 0>`, difficulty as the official
/// evaluator computes it. Throws usage_error naming the file and line for a malformed gold line.
/// A prediction file shorter than the gold file gives pred_missing examples (with a warning); extra
/// lines are ignored (with a warning).
std::vector<example> read_spider_files(const spider_files& files);

/// The predicted SQL of each line of a prediction file (CSV or plain lines); `gold_db_ids` are
/// used to recognise a trailing `<TAB>db_id`.
std::vector<std::string> read_spider_predictions(const std::filesystem::path& file,
                                                 const std::vector<std::string>& gold_db_ids,
                                                 prediction_tabs tabs);

/// The same from `lines` (a CSV when `csv`).
std::vector<std::string> read_spider_predictions(line_reader& lines, bool csv,
                                                 const std::vector<std::string>& gold_db_ids,
                                                 prediction_tabs tabs);

/// Parses "official" or "keep"; throws usage_error otherwise.
prediction_tabs parse_prediction_tabs(const std::string& text);

}  // namespace sqlmorph::core
