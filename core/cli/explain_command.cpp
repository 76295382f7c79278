// sqlmorph explain OUT_DIR ID [--technique T]
#include <iostream>

#include "cli/commands.hpp"
#include "output/example_explanation.hpp"

namespace sqlmorph::core {
namespace {

struct explain_options {
  std::string run_dir;
  std::string id;
  std::optional<std::string> technique;
};

}  // namespace

void register_explain_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<explain_options>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Show one example of a finished run: question, both queries, both results side by side, every score");
  cmd->add_option("run", options->run_dir, "the run's --out folder")->required();
  cmd->add_option("id", options->id, "the example's id (as in results.jsonl, e.g. dail-sql-gpt4:493)")
      ->required();
  cmd->add_option("--technique", options->technique, "show only this technique's record");
  cmd->callback([&g, &exit_code, options] {
    apply_logging(g);
    std::cout << explain_run_example(options->run_dir, options->id, options->technique);
    exit_code = 0;
  });
}

}  // namespace sqlmorph::core
