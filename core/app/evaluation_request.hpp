#pragma once
// What a run is asked, however it was asked — `sqlmorph eval`'s options, the Python module's
// keyword arguments, Lua's sqlmorph.evaluate{...}, `sqlmorph judge` — and the one builder that turns
// it into the runner's settings, so every way of starting a run checks and defaults the same way.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sqlmorph/query.hpp>

#include "backends/backend_routes.hpp"
#include "config/config.hpp"
#include "judges/judge_set.hpp"
#include "plugins/component_registry.hpp"
#include "runner/evaluation_runner.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::core {

/// How a way of asking names a setting in its messages: `--gold-timeout` on the command line,
/// `sqlmorph.evaluate: 'gold_timeout'` in Lua. Given the setting's name with underscores.
using setting_namer = std::function<std::string(std::string_view setting)>;

/// The command line's names: "--" and the name with dashes.
std::string option_name(std::string_view setting);

/// The limits a request sets; each over sqlmorph.toml ([run]) over the defaults.
struct limit_request {
  /// Both roles; beats the file's role-specific timeouts.
  std::optional<double> timeout;
  std::optional<double> gold_timeout;
  std::optional<double> pred_timeout;
  std::optional<double> max_rows;
};

struct run_limits {
  exec_limits gold;
  exec_limits pred;
};

/// The limits of gold and predicted queries; a bad number is a usage_error naming the setting.
run_limits run_limits_from(const config& cfg, const limit_request& r,
                           const setting_namer& name = option_name);

struct evaluation_request {
  /// Technique names ("all", a namespace, a technique); spider_exact_match is taken out of them.
  std::vector<std::string> techniques = {"all"};
  std::string penalize = "true";
  bool plug_value = false;
  /// Spider's tables.json for spider_exact_match; default: tables.json beside `gold_file`.
  std::optional<std::filesystem::path> tables;
  std::optional<std::filesystem::path> gold_file;
  /// Already resolved (names, [judges.NAME], components made in Lua).
  std::vector<configured_judge> judges;
  limit_request limits;
  route_choice routes;
  /// Backends every example is evaluated on (the examples are already multiplied).
  std::vector<std::string> backends;
  /// No output folder: nothing is written.
  std::optional<std::filesystem::path> out;
  std::optional<double> jobs;
  bool resume = false;
  bool overwrite = false;
  bool require_databases = false;
  std::optional<double> keep_rows;
  std::optional<std::filesystem::path> sqlmorph_logs;
  /// The gold cache folder; default: [run] cache.
  std::optional<std::filesystem::path> cache;
  progress_mode progress = progress_mode::none;
  /// "mark" | "abort"; default: [lua] on_error.
  std::optional<std::string> on_script_error;
  /// Check the remote services (judges, embedders) before anything runs.
  bool preflight = true;
  setting_namer name = option_name;
};

/// The runner's settings for `r`: techniques assembled, judges, limits, routes, output, and run.json's
/// description of how the run was made (run_origin). Throws usage_error for a contradiction or a
/// bad value, naming the setting as `r.name` does.
evaluation_settings evaluation_settings_for(const evaluation_request& r, const config& cfg,
                                            const component_registry& registry,
                                            const technique_catalog& catalog);

}  // namespace sqlmorph::core
