// sqlmorph report OUT_DIR [OUT_DIR...] -o report.html [--rows N]
#include <iostream>
#include <limits>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "output/atomic_file.hpp"
#include "output/html_report.hpp"

namespace sqlmorph::core {
namespace {

struct report_command_options {
  std::vector<std::string> runs;
  std::string output = "report.html";
  std::size_t rows = 10;
};

}  // namespace

void register_report_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<report_command_options>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write one self-contained HTML report (overview, charts, example explorer) of finished runs");
  cmd->add_option("runs", options->runs, "the runs' --out folders (several combine their systems)")
      ->required();
  cmd->add_option("-o,--output", options->output, "the HTML file to write")->capture_default_str();
  whole_number_from(cmd->add_option("--rows", options->rows,
                                    "rows of each result shown per example (of those examples.jsonl kept)")
                        ->capture_default_str(),
                    0, std::numeric_limits<std::size_t>::max());
  cmd->callback([&g, &exit_code, options] {
    apply_logging(g);
    std::vector<std::filesystem::path> dirs(options->runs.begin(), options->runs.end());
    write_file_atomically(options->output, build_report(dirs, report_options{options->rows}));
    std::cout << "report written to " << options->output << "\n";
    exit_code = 0;
  });
}

}  // namespace sqlmorph::core
