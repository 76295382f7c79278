#pragma once
// The JSONL cases format: one example per line,
//   {"id", "db" (path, relative to the file's folder or absolute), "gold", "pred"}
// plus optional "db_id", "question", "evidence", "difficulty", "system".

#include <filesystem>
#include <optional>
#include <vector>

#include "eval/example.hpp"

namespace sqlmorph::core {

/// Reads every example. Relative `db` paths are resolved against `db_root` when given, else
/// against the file's folder. Throws usage_error naming the file, line and problem (bad JSON, a
/// missing or mistyped field, a duplicate id).
std::vector<example> read_cases_file(const std::filesystem::path& file,
                                     const std::optional<std::filesystem::path>& db_root = std::nullopt);

}  // namespace sqlmorph::core
