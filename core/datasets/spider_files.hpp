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

/// A gold file read once, with what every system's examples share: each line's SQL, db_id,
/// database file and difficulty.
struct spider_gold {
  std::filesystem::path file;
  std::vector<std::string> sql;
  std::vector<std::string> db_ids;
  std::vector<std::string> db_paths;
  std::vector<std::string> difficulty;
};

/// Reads and checks the gold file; throws usage_error naming the file and line for a malformed line.
spider_gold read_spider_gold(const std::filesystem::path& file, const std::filesystem::path& db_root);

/// One system's examples over a gold file already read (see read_spider_files).
std::vector<example> spider_examples(const spider_gold& gold, const std::filesystem::path& pred,
                                     const std::optional<std::string>& system, prediction_tabs tabs);

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
