#include <spdlog/spdlog.h>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "config/run_values.hpp"
#include "errors.hpp"
#include "log/log.hpp"

namespace sqlmorph::core {

void add_global_options(CLI::App& cmd, global_options& g) {
  cmd.add_option(
      "--config", g.config_file,
      "configuration file (default: $SQLMORPH_CONFIG, else ./sqlmorph.toml, else built-in defaults)");
  cmd.add_flag("-v,--verbose", g.verbosity, "more log output (-vv for trace)");
  cmd.add_flag("-q,--quiet", g.quiet, "only errors on stderr");
}

void add_run_options(CLI::App& cmd, run_options& o) {
  cmd.add_option("--techniques", o.techniques,
                 "comma-separated technique names, 'all', or 'none' (judges only; see `sqlmorph techniques`)")
      ->capture_default_str();
  cmd.add_option("--penalize-extra-pred-cols", o.penalize,
                 "count every predicted cell in precision (true), only aligned ones (false), or report both")
      ->check(CLI::IsMember({"true", "false", "both"}))
      ->capture_default_str();
  cmd.add_flag(
      "--plug-value", o.plug_value,
      "also try the gold query's values plugged into the prediction's value slots, every way, "
      "correct if any is (the official Spider --plug_value; spider_official_exec, spider_test_suite)");
  checked_by(
      cmd.add_option("--timeout", o.timeout,
                     "seconds allowed per query (default: [run] timeout in sqlmorph.toml, 30; 0: none)"),
      checked_timeout);
  checked_by(
      cmd.add_option("--gold-timeout", o.gold_timeout, "seconds allowed per gold query (default: --timeout)"),
      checked_timeout);
  checked_by(cmd.add_option("--pred-timeout", o.pred_timeout,
                            "seconds allowed per predicted query (default: --timeout)"),
             checked_timeout);
  checked_by(
      cmd.add_option("--max-rows", o.max_rows,
                     "rows fetched per query before the result counts as truncated (0: no row cap; the byte "
                     "cap still holds)"),
      checked_row_cap);
  cmd.add_option("--backend", o.backend,
                 "backend that runs the queries: a [backends.NAME] of sqlmorph.toml or a backend plugin "
                 "(default: [run] backend, sqlite)");
  cmd.add_option("--gold-backend", o.gold_backend, "backend of the gold queries (default: --backend)");
  cmd.add_option("--pred-backend", o.pred_backend, "backend of the predicted queries (default: --backend)");
  cmd.add_option("--db-backend", o.db_backends,
                 "DB_ID=BACKEND: the backend of one database (repeatable; over [databases])");
  add_embedding_cache_options(cmd, o.embedding_cache, o.no_embedding_cache);
  add_preflight_option(cmd, o.no_preflight);
}

void add_preflight_option(CLI::App& cmd, bool& no_preflight) {
  cmd.add_flag("--no-preflight", no_preflight,
               "do not check first (one GET <base_url>/models each) that the judges' and embedders' servers "
               "answer");
}

void add_embedding_cache_options(CLI::App& cmd, std::optional<std::string>& file, bool& none) {
  auto* f = cmd.add_option("--embedding-cache", file,
                           "SQLite file caching embeddings across runs (default: [embedding] cache, or "
                           "CACHE_DIR/embeddings.sqlite with a gold cache folder)");
  cmd.add_flag("--no-embedding-cache", none, "no disk cache of embeddings (memory only)")->excludes(f);
}

route_choice route_choice_from(const run_options& o) {
  route_choice c;
  c.backend = o.backend;
  c.gold_backend = o.gold_backend;
  c.pred_backend = o.pred_backend;
  for (const std::string& arg : o.db_backends) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) {
      throw usage_error("--db-backend wants DB_ID=BACKEND, not '" + arg + "'");
    }
    c.databases.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
  }
  return c;
}

run_limits limits_from(const config& c, const run_options& o) {
  return run_limits_from(c, request_from(o).limits);
}

evaluation_request request_from(const run_options& o) {
  evaluation_request r;
  r.techniques = split_technique_list(o.techniques);
  r.penalize = o.penalize;
  r.plug_value = o.plug_value;
  r.limits.timeout = o.timeout;
  r.limits.gold_timeout = o.gold_timeout;
  r.limits.pred_timeout = o.pred_timeout;
  if (o.max_rows) r.limits.max_rows = static_cast<double>(*o.max_rows);
  r.routes = route_choice_from(o);
  r.preflight = !o.no_preflight;
  return r;
}

void apply_logging(const global_options& g) {
  setup_logging(g.quiet ? -1 : g.verbosity);
}

}  // namespace sqlmorph::core
