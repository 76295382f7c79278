#include <spdlog/spdlog.h>

#include "cli/commands.hpp"
#include "log/log.hpp"

namespace sqlmorph::core {

void add_run_options(CLI::App& cmd, run_options& o) {
  cmd.add_option("--techniques", o.techniques, "comma-separated technique names, or 'all'")->capture_default_str();
  cmd.add_option("--penalize-extra-pred-cols", o.penalize,
                 "count every predicted cell in precision (true), only aligned ones (false), or report both")
      ->check(CLI::IsMember({"true", "false", "both"}))
      ->capture_default_str();
  cmd.add_option("--timeout", o.timeout, "seconds allowed per query (default: [run] timeout in sqlmorph.toml, 30)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--max-rows", o.max_rows, "rows fetched per query before the result counts as truncated");
  cmd.add_option("--backend", o.backend, "backend plugin for the databases (default: [run] backend, sqlite)");
}

exec_limits limits_from(const config& c, const run_options& o) {
  exec_limits l;
  l.timeout_seconds = o.timeout.value_or(c.run.timeout_seconds);
  l.max_rows = o.max_rows.value_or(c.run.max_rows);
  l.max_bytes = c.run.max_result_bytes;
  return l;
}

void apply_logging(const global_options& g) { setup_logging(g.quiet ? -1 : g.verbosity); }

}  // namespace sqlmorph::core
