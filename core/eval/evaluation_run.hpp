#pragma once
// A whole evaluation: examples × technique variants, streamed to results.jsonl, summarized at the
// end in summary.json.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <sqlmorph/backend.hpp>

#include "eval/example.hpp"
#include "output/run_summary.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

struct evaluation_settings {
  std::shared_ptr<const backend> engine;
  exec_limits limits;
  std::vector<std::shared_ptr<const technique>> techniques;
  /// Where results.jsonl and summary.json go; nothing is written when empty.
  std::optional<std::filesystem::path> out_dir;
};

struct evaluation_outcome {
  run_summary summary;
  std::size_t examples = 0;
  double wall_seconds = 0;
};

/// Evaluates every example (one worker). Each example's records are appended to results.jsonl and
/// flushed as soon as they are computed. Throws usage_error if the output cannot be written.
evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings);

}  // namespace sqlmorph::core
