#pragma once
// Spider's questions: the gold file holds only SQL, the questions are in dev.json (a list of
// {"db_id", "question", "query", ...} in the gold file's order). Judges need them.

#include <filesystem>
#include <optional>
#include <vector>

#include "eval/example.hpp"

namespace sqlmorph::core {

/// Sets the question of each Spider example (by its item, the gold line index) from `questions`
/// (dev.json). The file must have one entry per gold line with the same db_id; otherwise a
/// usage_error names the file and the first mismatch.
void attach_spider_questions(std::vector<example>& examples, const std::filesystem::path& questions);

/// dev.json next to the gold file, if there is one.
std::optional<std::filesystem::path> spider_questions_next_to(const std::filesystem::path& gold);

}  // namespace sqlmorph::core
