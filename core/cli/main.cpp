// sqlmorph: evaluate text-to-SQL systems by executing gold and predicted SQL and matching results.

#include <iostream>

#include <CLI/CLI.hpp>
#ifdef SQLMORPH_WITH_MIMALLOC
#include <mimalloc.h>
#endif
#include <sqlmorph/version.hpp>

#include "app/run_origin.hpp"
#include "cli/command_line_errors.hpp"
#include "cli/commands.hpp"
#include "errors.hpp"
#include "runner/evaluation_runner.hpp"

int main(int argc, char** argv) {
  using namespace sqlmorph::core;
#ifdef SQLMORPH_WITH_MIMALLOC
  // Memory freed stays committed for a second (mimalloc's default: 25 ms) before it goes back to
  // the system. A run frees and allocates again all the time (each example's results, the
  // summary's tables): returning it at once made a 40-system run commit 578 MiB in all for a peak
  // of 334 MiB, every page faulted in and zeroed again (docs/performance.md). The environment's
  // MIMALLOC_DECOMMIT_DELAY still decides when it is set.
  mi_option_set_default(mi_option_decommit_delay, 1000);
#endif
  CLI::App app{
      "sqlmorph " SQLMORPH_VERSION_STRING
      ": evaluate text-to-SQL systems by executing gold and predicted SQL and matching their results",
      "sqlmorph"};
  app.require_subcommand(1);
  app.set_version_flag("--version", SQLMORPH_VERSION_STRING);
  global_options global;
  add_global_options(app, global);

  set_command_line(argc, argv);  // for run.json
  int exit_code = 0;
  register_compare_command(app, global, exit_code);
  register_eval_command(app, global, exit_code);
  register_plugins_command(app, global, exit_code);
  register_techniques_command(app, global, exit_code);
  register_run_command(app, global, exit_code);
  register_judge_command(app, global, exit_code);
  register_merge_command(app, global, exit_code);
  register_export_command(app, global, exit_code);
  register_explain_command(app, global, exit_code);
  register_report_command(app, global, exit_code);
  register_suite_command(app, global, exit_code);
  // The global options are accepted after the subcommand too (`sqlmorph compare -v ...`, `sqlmorph
  // suite build -q ...`).
  for (CLI::App* cmd : app.get_subcommands({})) {
    add_global_options(*cmd, global);
    for (CLI::App* sub : cmd->get_subcommands({})) add_global_options(*sub, global);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_command_line_error(app, e, std::cerr);
  } catch (const usage_error& e) {
    std::cerr << "sqlmorph: error: " << e.what() << "\n";
    return 2;
  } catch (const script_error& e) {
    std::cerr << "sqlmorph: script error: " << e.full() << "\n";
    return 2;
  } catch (const run_aborted& e) {
    std::cerr << "sqlmorph: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {  // a failure nothing above expected: a message, never an abort
    std::cerr << "sqlmorph: error: " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}
