// sqlmorph explain OUT_DIR ID [--technique T] [--rows N] [--no-execute]
#include <algorithm>
#include <iostream>

#include "app/environment.hpp"
#include "cli/command_requests.hpp"
#include "cli/commands.hpp"
#include "errors.hpp"
#include "output/example_explanation.hpp"
#include "output/record_json.hpp"
#include "output/terminal_text.hpp"

namespace sqlmorph::core {
namespace {

struct explain_options {
  std::string run_dir;
  std::string id;
  std::optional<std::string> technique;
  double rows = 20;
  bool no_execute = false;
};

// The run kept no rows of a result (--keep-rows 0): both queries are executed again, as `compare`
// executes them (the configured backend, the example's database), for their first `rows` rows.
// Returns the note printed above the explanation ("" when nothing was executed).
std::string execute_again(const global_options& g, const explain_options& o, nlohmann::json& evidence) {
  const auto text = [&](const char* key) { return json_text(evidence, key); };
  const std::string db = text("db");
  if (db.empty() && text("db_id").empty()) return "";
  compare_options c;
  c.db = db;
  c.db_id = text("db_id");
  c.gold = text("gold_as_given").empty() ? text("gold") : text("gold_as_given");
  c.pred = text("pred_as_given").empty() ? text("pred") : text("pred_as_given");
  c.show_rows = o.rows;
  c.run.techniques = "execution_accuracy";
  const auto env = environment::load(g.config_file);
  std::string line;
  compare_records(*env, c, &line);
  const nlohmann::json fresh = nlohmann::json::parse(line);
  evidence["gold_result"] = fresh["gold_result"];
  if (!evidence["pred"].is_null()) evidence["pred_result"] = fresh["pred_result"];
  return "(the run kept no rows: both queries executed again on " + terminal_text(db.empty() ? c.db_id : db) +
         "; the scores are the run's)\n";
}

// --technique names a technique the example has records of; otherwise a usage error listing those.
void require_technique(const run_example& found, const std::string& id, const std::string& technique) {
  const std::vector<std::string> present = record_techniques(found.records);
  if (std::find(present.begin(), present.end(), technique) != present.end()) return;
  std::string names;
  for (const auto& name : present) names += (names.empty() ? "" : ", ") + terminal_text(name);
  throw usage_error("--technique: example '" + terminal_text(id) + "' has no record of technique '" +
                    terminal_text(technique) + "' (" +
                    (names.empty() ? "it has no records" : "its techniques: " + names) + ")");
}

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
  cmd->add_option("--rows", options->rows,
                  "rows of each result shown when the run kept none and the queries are executed again "
                  "(default 20)");
  cmd->add_flag("--no-execute", options->no_execute,
                "never execute: show only what the run kept (with --keep-rows 0: the counts and columns)");
  cmd->callback([&g, &exit_code, options] {
    apply_logging(g);
    run_example found = find_run_example(options->run_dir, options->id);
    if (options->technique) require_technique(found, options->id, *options->technique);
    std::string note;
    if (!options->no_execute && rows_not_kept(found.evidence))
      note = execute_again(g, *options, found.evidence);
    std::cout << note << explain_example(found.evidence, found.records, options->technique);
    exit_code = 0;
  });
}

}  // namespace sqlmorph::core
