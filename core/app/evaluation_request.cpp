#include "app/evaluation_request.hpp"

#include "app/preflight.hpp"
#include "app/run_origin.hpp"
#include "config/run_values.hpp"
#include "errors.hpp"
#include "eval/exact_match_metric.hpp"

namespace sqlmorph::core {

std::string option_name(std::string_view setting) {
  std::string out = "--";
  for (const char c : setting) out += c == '_' ? '-' : c;
  return out;
}

run_limits run_limits_from(const config& cfg, const limit_request& r, const setting_namer& name) {
  exec_limits base;
  base.timeout_seconds = r.timeout ? checked_timeout(*r.timeout, name("timeout")) : cfg.run.timeout_seconds;
  base.max_rows = r.max_rows ? checked_row_cap(*r.max_rows, name("max_rows")) : cfg.run.max_rows;
  base.max_bytes = cfg.run.max_result_bytes;
  run_limits l{base, base};
  // A timeout asked for both roles beats the file's role-specific ones.
  if (!r.timeout) {
    if (cfg.run.gold_timeout_seconds) l.gold.timeout_seconds = *cfg.run.gold_timeout_seconds;
    if (cfg.run.pred_timeout_seconds) l.pred.timeout_seconds = *cfg.run.pred_timeout_seconds;
  }
  if (r.gold_timeout) l.gold.timeout_seconds = checked_timeout(*r.gold_timeout, name("gold_timeout"));
  if (r.pred_timeout) l.pred.timeout_seconds = checked_timeout(*r.pred_timeout, name("pred_timeout"));
  return l;
}

evaluation_settings evaluation_settings_for(const evaluation_request& r, const config& cfg,
                                            const component_registry& registry,
                                            const technique_catalog& catalog) {
  if (r.resume && r.overwrite)
    throw usage_error(r.name("resume") + " and " + r.name("overwrite") +
                      " contradict each other: choose one");
  evaluation_settings settings;
  const run_limits limits = run_limits_from(cfg, r.limits, r.name);
  settings.gold_limits = limits.gold;
  settings.pred_limits = limits.pred;
  settings.routes = backend_routes::make(cfg, registry, r.routes, r.backends);
  std::vector<std::string> names = r.techniques;
  // spider_exact_match is built in (a metric on parsed SQL and tables.json, nothing executed).
  settings.exact_match = take_exact_match(names, r.tables, r.gold_file, r.name("tables"));
  settings.techniques = catalog.assemble(names, parse_penalize_choice(r.penalize), registry, r.plug_value);
  settings.judges = r.judges;
  if (settings.techniques.empty() && settings.judges.empty() && !settings.exact_match)
    throw usage_error("nothing to do: " + r.name("techniques") + " none and no " + r.name("judges"));
  settings.out_dir = r.out;
  settings.jobs = r.jobs ? checked_jobs(*r.jobs, r.name("jobs")) : cfg.run.jobs;
  settings.resume = r.resume;
  settings.overwrite = r.overwrite;
  settings.require_databases = r.require_databases;
  if (r.keep_rows) settings.evidence.keep_rows = checked_rows_kept(*r.keep_rows, r.name("keep_rows"));
  settings.sqlmorph_logs = r.sqlmorph_logs;
  settings.cache_dir = r.cache ? r.cache : cfg.run.cache_dir;
  settings.on_script_error = parse_script_error_policy(r.on_script_error.value_or(cfg.lua.on_error));
  settings.progress = r.progress;
  // run.json describes how the run was made (command, configuration, plugins, build).
  settings.manifest = run_origin(cfg, registry);
  if (r.preflight) check_remote_services(settings.techniques, settings.judges, registry);
  return settings;
}

}  // namespace sqlmorph::core
