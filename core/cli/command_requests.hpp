#pragma once
// What `compare` and `eval` are asked, as data, and how a request becomes examples, settings and
// records. The CLI fills these from its options; the Python module (python/) from keyword arguments,
// so both run the same code.

#include <optional>
#include <string>
#include <vector>

#include "app/environment.hpp"
#include "cli/commands.hpp"
#include "eval/example.hpp"
#include "eval/record.hpp"
#include "runner/evaluation_runner.hpp"

namespace sqlmorph::core {

struct compare_options {
  std::string db;
  std::string db_id;
  std::string gold;
  std::string pred;
  bool json = false;
  /// --show-rows [N]: also the evidence (both results, N rows each) as an examples.jsonl line.
  std::optional<double> show_rows;
  run_options run;
};

/// Scores one gold/predicted pair with the techniques of `o.run` (what `compare` prints). With
/// `o.show_rows`, `evidence` receives the pair's examples.jsonl line.
std::vector<record> compare_records(environment& env, const compare_options& o,
                                    std::string* evidence = nullptr);

struct eval_options {
  std::optional<std::string> cases;
  std::optional<std::string> benchmark;
  std::optional<std::string> gold;
  std::vector<std::string> preds;
  std::optional<std::string> db_root;
  std::optional<std::string> system;
  std::string pred_tabs = "official";
  std::string out = "sqlmorph-out";
  std::optional<unsigned> jobs;
  std::optional<std::string> cache;
  bool resume = false;
  bool overwrite = false;
  bool require_databases = false;
  /// Rows of each result kept in examples.jsonl (--keep-rows).
  std::optional<double> keep_rows;
  /// SQLMorph's per-evaluation log files (--sqlmorph-logs DIR).
  std::optional<std::string> sqlmorph_logs;
  std::string progress = "auto";
  bool json = false;
  /// Evaluate every system on each of these backends (systems become SYSTEM@BACKEND).
  std::vector<std::string> backends;
  /// Judges called on every example (names of [judges.NAME] or judge components).
  std::vector<std::string> judges;
  /// Spider's questions (dev.json), for the judges.
  std::optional<std::string> questions;
  /// Spider's tables.json for spider_exact_match (default: tables.json next to --gold).
  std::optional<std::string> tables;
  /// K/N: evaluate only shard K of N (runner/shard_plan.hpp); `merge` joins the shards.
  std::optional<std::string> shard;
  run_options run;
};

/// The examples of --cases, or of --benchmark with --gold/--pred/--db-root (on each of --backends).
std::vector<example> read_examples(const eval_options& o);

/// The run's settings (techniques, judges, limits, routes, output, run.json manifest); checks the
/// remote services unless --no-preflight.
evaluation_settings evaluation_settings_from(environment& env, const eval_options& o, bool quiet);

}  // namespace sqlmorph::core
