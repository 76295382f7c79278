#pragma once
// A whole evaluation at benchmark scale: examples × technique variants, on N workers.
//
// - Work is cut into units (all systems' examples of one benchmark item, see work_plan.hpp) that
//   workers take in order; results are written unit by unit in that order, so results.jsonl is the
//   same whatever the number of workers.
// - Each distinct (database, SQL, limits) executes once per run (shared_query_cache); gold results
//   may also come from an on-disk cache (gold_disk_cache).
// - results.jsonl is appended and flushed unit by unit; --resume keeps the complete units of an
//   interrupted run (after checking run.json says it is the same run) and continues after them.
// - run.json describes the run; summary.json is written at the end.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlmorph/backend.hpp>

#include "backends/backend_routes.hpp"
#include "eval/exact_match_metric.hpp"
#include "eval/example.hpp"
#include "eval/example_evidence.hpp"
#include "judges/judge_set.hpp"
#include "output/run_summary.hpp"
#include "runner/content_hash.hpp"
#include "runner/database_contents.hpp"
#include "runner/progress.hpp"
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
  /// Which backend runs each query (backend_routes::make).
  std::shared_ptr<const backend_routes> routes;
  exec_limits gold_limits;
  exec_limits pred_limits;
  std::vector<std::shared_ptr<const technique>> techniques;
  /// Spider's exact set match (records "spider_exact_match"), after the techniques; none when null.
  std::shared_ptr<const exact_match_metric> exact_match;
  /// Judges called on every example after the techniques (records "judge:NAME").
  std::vector<configured_judge> judges;
  /// Where results.jsonl, summary.json and run.json go; nothing is written when empty.
  std::optional<std::filesystem::path> out_dir;
  /// The units of work as counts of consecutive examples, when the examples are a shard of a larger
  /// run (select_shard): that run's units, which planning the shard's examples alone could cut
  /// otherwise (two units it keeps apart may be neighbours in the shard). Empty: plan_work.
  std::vector<std::size_t> unit_sizes;
  script_error_policy on_script_error = script_error_policy::mark;
  /// Workers; 0 means one per hardware thread.
  unsigned jobs = 0;
  /// Continue the run already in out_dir.
  bool resume = false;
  /// A missing database (status db_missing) fails the run (usage_error, after the outputs are
  /// written) instead of a warning: --require-databases, for CI.
  bool require_databases = false;
  /// Replace the run already in out_dir (without resume or overwrite, a folder holding a run is refused).
  bool overwrite = false;
  /// What examples.jsonl keeps of each result (written beside results.jsonl when out_dir is set).
  evidence_options evidence;
  /// --sqlmorph-logs: also SQLMorph's per-evaluation log files in this folder (output/sqlmorph_logs.hpp).
  std::optional<std::filesystem::path> sqlmorph_logs;
  /// On-disk cache of gold results.
  std::optional<std::filesystem::path> cache_dir;
  /// The database files' content hashes, computed once per run and shared by the run's fingerprint
  /// and the gold cache (select_shard makes it; run_evaluation makes its own when null).
  std::shared_ptr<content_hash_memo> content_hashes;
  /// Memory for query outcomes shared between workers and examples.
  std::size_t memory_cache_bytes = 64u * 1024 * 1024;
  progress_mode progress = progress_mode::none;
  /// Added to run.json (command line, configuration, plugins, ...).
  nlohmann::ordered_json manifest;
  /// Called on the thread that runs run_evaluation with each unit's records, in results.jsonl order,
  /// as they are written (the Python module streams them from here).
  std::function<void(const std::vector<record>&)> on_unit;
  /// Set by another thread to stop the run as an interrupt would (stats.interrupted).
  const std::atomic<bool>* stop_requested = nullptr;
  /// Install SIGINT/SIGTERM handlers for the run; false when the embedding program handles them
  /// itself (Python) and stops the run through stop_requested.
  bool handle_signals = true;
};

struct run_statistics {
  std::uint64_t gold_executed = 0;
  std::uint64_t pred_executed = 0;
  std::uint64_t gold_from_disk = 0;
  std::uint64_t reused = 0;
  /// Examples whose answer equalled another system's answer to the same item: records copied.
  std::uint64_t shared_answers = 0;
  /// Records whose scores were copied from another system's answer to the same item with equal
  /// results, under a technique that reads only the results (equal_result_scores.hpp).
  std::uint64_t shared_scores = 0;
  std::size_t units = 0;
  std::size_t resumed_units = 0;
  /// Workers requested (--jobs, bounded by max_jobs) and started (no more than units left).
  unsigned jobs = 0;
  unsigned workers = 0;
  /// Examples with a db_missing record.
  std::size_t db_missing_examples = 0;
  bool interrupted = false;
};

struct evaluation_outcome {
  run_summary summary;
  std::size_t examples = 0;
  double wall_seconds = 0;
  run_statistics stats;
};

/// Runs the evaluation. Throws usage_error (unwritable output, a resume of another run),
/// run_aborted (a script error under the abort policy, after writing what was done).
/// An interrupt (SIGINT/SIGTERM) stops it after the units in progress: stats.interrupted is set,
/// and --resume continues.
evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings);

/// A hash of everything the run computes: examples, techniques, judges, limits, backend, and the
/// contents of its database files (`databases`: database_contents of the examples).
std::string run_fingerprint(const std::vector<example>& examples, const evaluation_settings& settings,
                            const database_hashes& databases);

}  // namespace sqlmorph::core
