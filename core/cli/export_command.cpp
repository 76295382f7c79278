// sqlmorph export OUT_DIR [--format csv|jsonl] [--what records|examples|summary] [-o FILE]
//                 [--csv-formula-guard on|off]
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/commands.hpp"
#include "errors.hpp"
#include "output/atomic_file.hpp"
#include "output/run_export.hpp"

namespace sqlmorph::core {
namespace {

struct export_options {
  std::string run_dir;
  std::string format = "csv";
  std::string what = "records";
  std::string output;
  std::optional<std::string> formula_guard;  // --csv-formula-guard on|off (CSV only; on by default)
};

// --csv-formula-guard: on unless "off"; refused with --format jsonl, whose text is never changed.
bool formula_guard_of(const export_options& o, export_format format) {
  if (!o.formula_guard) return format == export_format::csv;
  if (*o.formula_guard != "on" && *o.formula_guard != "off")
    throw usage_error("--csv-formula-guard must be on or off, not '" + *o.formula_guard + "'");
  if (format != export_format::csv) throw usage_error("--csv-formula-guard applies to --format csv only");
  return *o.formula_guard == "on";
}

int run_export(const global_options& g, const export_options& o) {
  apply_logging(g);
  export_format format;
  if (!parse_export_format(o.format, format))
    throw usage_error("--format must be csv or jsonl, not '" + o.format + "'");
  export_what what;
  if (!parse_export_what(o.what, what))
    throw usage_error("--what must be records, examples or summary, not '" + o.what + "'");
  const bool guard = formula_guard_of(o, format);
  if (!std::filesystem::is_directory(o.run_dir)) throw usage_error(o.run_dir + " is not a folder");
  if (o.output.empty()) {
    export_run(o.run_dir, what, format, std::cout, guard);
    std::cout.flush();
    return 0;
  }
  refuse_run_file(o.run_dir, o.output);
  std::ostringstream text;
  export_run(o.run_dir, what, format, text, guard);
  write_output_file(o.output, text.str());
  return 0;
}

}  // namespace

void register_export_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<export_options>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write a finished run's records, examples or summary as CSV or flat JSON Lines (pandas, R, "
      "spreadsheets)");
  cmd->add_option("run", options->run_dir, "the run's --out folder")->required();
  cmd->add_option("--format", options->format, "csv (RFC 4180, the default) or jsonl");
  cmd->add_option(
      "--what", options->what,
      "records (results.jsonl, the default: one row per example and technique variant), examples "
      "(examples.jsonl: one row per example and system, its evidence) or summary (summary.json: one row "
      "per group, with a level column)");
  cmd->add_option("-o,--output", options->output,
                  "the file to write (default: stdout; never one of the run's own files; a device such as "
                  "/dev/null is written in place)");
  cmd->add_option("--csv-formula-guard", options->formula_guard,
                  "on (the default) or off: with on, a CSV cell beginning with =, +, -, @, a tab or a "
                  "carriage return is written with a ' in front so a spreadsheet reads it as text, not as a "
                  "formula (numbers such as -1.5 are left alone)")
      ->type_name("on|off");
  cmd->callback([&g, &exit_code, options] { exit_code = run_export(g, *options); });
}

}  // namespace sqlmorph::core
