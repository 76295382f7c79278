#pragma once
// The JSONL cases format: one example per line,
//   {"id", "db" (path, relative to the file's folder or absolute), "gold", "pred"}
// plus optional "db_id", "question", "evidence", "difficulty", "system".

#include <filesystem>
#include <optional>
#include <vector>

#include "datasets/text_lines.hpp"
#include "eval/example.hpp"

namespace sqlmorph::core {

/// Reads every example. Relative `db` paths are resolved against `db_root` when given, else
/// against the file's folder. Throws usage_error naming the file, line and problem (bad JSON, a
/// missing or mistyped field, a duplicate id, a line or file over the input limits, a file
/// without any case).
std::vector<example> read_cases_file(const std::filesystem::path& file,
                                     const std::optional<std::filesystem::path>& db_root = std::nullopt);

/// The same from `lines`; relative `db` paths start from `base`.
std::vector<example> read_cases(line_reader& lines, const std::filesystem::path& base);

}  // namespace sqlmorph::core
