// `sqlmorph eval`: a whole benchmark — a JSONL cases file, or Spider's gold + prediction files.

#include <iostream>

#include "app/environment.hpp"
#include "cli/commands.hpp"
#include "datasets/cases_file.hpp"
#include "datasets/spider_files.hpp"
#include "errors.hpp"
#include "eval/evaluation_run.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {
namespace {

struct eval_options {
  std::optional<std::string> cases;
  std::optional<std::string> benchmark;
  std::optional<std::string> gold;
  std::optional<std::string> pred;
  std::optional<std::string> db_root;
  std::optional<std::string> system;
  std::string pred_tabs = "official";
  std::string out = "sqlmorph-out";
  bool json = false;
  run_options run;
};

std::vector<example> read_examples(const eval_options& o) {
  if (o.cases && o.benchmark) throw usage_error("give either --cases or --benchmark, not both");
  if (o.cases) {
    if (o.gold || o.pred) throw usage_error("--gold and --pred go with --benchmark spider, not with --cases");
    return read_cases_file(*o.cases, o.db_root ? std::optional<std::filesystem::path>(*o.db_root) : std::nullopt);
  }
  if (!o.benchmark) throw usage_error("nothing to evaluate: give --cases FILE or --benchmark spider --gold ... --pred ... --db-root ...");
  if (*o.benchmark != "spider") throw usage_error("unknown benchmark '" + *o.benchmark + "' (known: spider)");
  if (!o.gold || !o.pred || !o.db_root) {
    throw usage_error("--benchmark spider needs --gold FILE, --pred FILE and --db-root DIR");
  }
  spider_files files{*o.gold, *o.pred, *o.db_root, o.system, parse_prediction_tabs(o.pred_tabs)};
  std::error_code ec;
  if (!std::filesystem::is_directory(files.db_root, ec)) {
    throw usage_error("--db-root " + files.db_root.string() + " is not a directory");
  }
  return read_spider_files(files);
}

int run_eval(const global_options& g, const eval_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  std::vector<example> examples = read_examples(o);
  if (o.system && o.cases) {
    for (example& ex : examples) ex.system = *o.system;
  }
  evaluation_settings settings;
  settings.engine = env->backend(o.run.backend.value_or(env->config().run.backend));
  settings.limits = limits_from(env->config(), o.run);
  settings.techniques = env->techniques().assemble(split_technique_list(o.run.techniques),
                                                   parse_penalize_choice(o.run.penalize), env->registry());
  settings.out_dir = std::filesystem::path(o.out);
  const evaluation_outcome outcome = run_evaluation(examples, settings);
  if (o.json) {
    std::cout << dump_json(outcome.summary.to_json(outcome.examples, outcome.wall_seconds), 2) << "\n";
  } else {
    std::cout << outcome.summary.to_table();
    std::printf("\n%zu examples in %.2f s; results in %s, summary in %s\n", outcome.examples, outcome.wall_seconds,
                (settings.out_dir.value() / "results.jsonl").c_str(), (settings.out_dir.value() / "summary.json").c_str());
  }
  return 0;
}

}  // namespace

void register_eval_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<eval_options>();
  CLI::App* cmd = app.add_subcommand("eval", "Evaluate a benchmark: a JSONL cases file, or Spider gold and prediction files");
  cmd->add_option("--cases", options->cases,
                  "JSONL file, one {\"id\", \"db\", \"gold\", \"pred\"} object per line (db relative to the file)");
  cmd->add_option("--benchmark", options->benchmark, "benchmark format of --gold/--pred (spider)");
  cmd->add_option("--gold", options->gold, "Spider gold file: SQL<TAB>db_id per line");
  cmd->add_option("--pred", options->pred,
                  "predictions aligned with the gold lines: one SQL per line (optionally SQL<TAB>db_id), or a CSV "
                  "with a \"PREDICTED SQL\" column");
  cmd->add_option("--db-root", options->db_root,
                  "folder of <db_id>/<db_id>.sqlite (spider); for --cases, the folder relative db paths start from");
  cmd->add_option("--system", options->system, "name of the system (default: the prediction file's name)");
  cmd->add_option("--pred-tabs", options->pred_tabs,
                  "a tab in a prediction line: 'official' ends the SQL at the first tab, as the official Spider "
                  "evaluator does; 'keep' keeps tabs in the SQL and removes only a trailing <TAB>db_id")
      ->check(CLI::IsMember({"official", "keep"}))
      ->capture_default_str();
  cmd->add_option("--out", options->out, "output folder for results.jsonl and summary.json")->capture_default_str();
  cmd->add_flag("--json", options->json, "print summary.json instead of a table");
  add_run_options(*cmd, options->run);
  cmd->callback([&g, &exit_code, options] { exit_code = run_eval(g, *options); });
}

}  // namespace sqlmorph::core
