#pragma once
// A whole evaluation: examples × technique variants, streamed to results.jsonl, summarized at the
// end in summary.json.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <sqlmorph/backend.hpp>

#include "eval/example.hpp"
#include "output/run_summary.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// What a failing Lua hook does to the run.
enum class script_error_policy { mark, abort };
/// Parses "mark" or "abort"; throws usage_error otherwise.
script_error_policy parse_script_error_policy(const std::string& text);

/// The run stopped early (a script error under the abort policy). What was evaluated before is
/// in results.jsonl.
class run_aborted : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct evaluation_settings {
  std::shared_ptr<const backend> engine;
  exec_limits limits;
  std::vector<std::shared_ptr<const technique>> techniques;
  /// Where results.jsonl and summary.json go; nothing is written when empty.
  std::optional<std::filesystem::path> out_dir;
  script_error_policy on_script_error = script_error_policy::mark;
};

struct evaluation_outcome {
  run_summary summary;
  std::size_t examples = 0;
  double wall_seconds = 0;
};

/// Evaluates every example (one worker). Each example's records are appended to results.jsonl and
/// flushed as soon as they are computed. Throws usage_error if the output cannot be written, and
/// run_aborted (after writing the example's records) for a script error under the abort policy.
evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings);

}  // namespace sqlmorph::core
