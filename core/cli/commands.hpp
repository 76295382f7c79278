#pragma once
// The sqlmorph subcommands. Each registers itself on the CLI11 app; its callback sets the exit code.

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <sqlmorph/query.hpp>

#include "app/evaluation_request.hpp"
#include "backends/backend_routes.hpp"
#include "config/config.hpp"

namespace sqlmorph::core {

struct global_options {
  std::optional<std::string> config_file;
  int verbosity = 0;
  bool quiet = false;
};

/// Options shared by the commands that evaluate.
struct run_options {
  std::string techniques = "all";
  std::string penalize = "true";
  /// The official Spider --plug_value for the techniques that have it.
  bool plug_value = false;
  std::optional<double> timeout;
  std::optional<double> gold_timeout;
  std::optional<double> pred_timeout;
  std::optional<std::uint64_t> max_rows;
  std::optional<std::string> backend;
  std::optional<std::string> gold_backend;
  std::optional<std::string> pred_backend;
  /// DB_ID=BACKEND, repeatable.
  std::vector<std::string> db_backends;
  /// --embedding-cache FILE / --no-embedding-cache (see embeddings/embedding_setup.hpp).
  std::optional<std::string> embedding_cache;
  bool no_embedding_cache = false;
  /// --no-preflight: do not check the remote services before executing (app/preflight.hpp).
  bool no_preflight = false;
};

/// --config, -v and -q, on the app and on every subcommand (bound to the same `g`).
void add_global_options(CLI::App& cmd, global_options& g);

void add_run_options(CLI::App& cmd, run_options& o);
/// --no-preflight.
void add_preflight_option(CLI::App& cmd, bool& no_preflight);
/// --embedding-cache FILE and --no-embedding-cache.
void add_embedding_cache_options(CLI::App& cmd, std::optional<std::string>& file, bool& none);

/// The limits of gold and predicted queries: the command line over sqlmorph.toml over defaults.
run_limits limits_from(const config& c, const run_options& o);

/// The backends chosen on the command line (over sqlmorph.toml).
route_choice route_choice_from(const run_options& o);

/// What the run options ask (techniques, penalize, plug_value, limits, backends, preflight), for
/// the shared builder (app/evaluation_request.hpp).
evaluation_request request_from(const run_options& o);

/// Applies -v / -q.
void apply_logging(const global_options& g);

void register_compare_command(CLI::App& app, const global_options& g, int& exit_code);
void register_eval_command(CLI::App& app, const global_options& g, int& exit_code);
void register_plugins_command(CLI::App& app, const global_options& g, int& exit_code);
void register_techniques_command(CLI::App& app, const global_options& g, int& exit_code);
void register_run_command(CLI::App& app, const global_options& g, int& exit_code);
void register_judge_command(CLI::App& app, const global_options& g, int& exit_code);
void register_merge_command(CLI::App& app, const global_options& g, int& exit_code);
void register_export_command(CLI::App& app, const global_options& g, int& exit_code);
void register_explain_command(CLI::App& app, const global_options& g, int& exit_code);
void register_report_command(CLI::App& app, const global_options& g, int& exit_code);
void register_suite_command(CLI::App& app, const global_options& g, int& exit_code);

}  // namespace sqlmorph::core
