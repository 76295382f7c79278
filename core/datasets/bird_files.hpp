#pragma once
// BIRD's file formats: the questions (dev.json or mini_dev_<dialect>.json: a list of objects with
// `question_id`, `db_id`, `question`, `evidence`, `SQL`, `difficulty`), and prediction files as the
// official scripts write them: a JSON object {"0": "SQL\t----- bird -----\tdb_id", ...} whose keys are
// positions in the question list. Databases are `<db-root>/<db_id>/<db_id>.sqlite`.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "eval/example.hpp"

namespace sqlmorph::core {

struct bird_files {
  std::filesystem::path gold;
  std::filesystem::path pred;
  std::filesystem::path db_root;
  std::optional<std::string> system;
};

/// One example per question; ids are `<system>:<position>`. Predictions are paired with questions by
/// key, not by their order in the file; a question without a prediction is pred_missing. Throws
/// usage_error for unreadable or malformed files (naming the file and the entry), a key that is not
/// a position in plain decimal ("00", "+1", "x") among them.
std::vector<example> read_bird_files(const bird_files& files);

}  // namespace sqlmorph::core
