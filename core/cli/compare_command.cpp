// `sqlmorph compare`: one gold query against one predicted query on one database.

#include <cstdio>
#include <iostream>

#include "app/environment.hpp"
#include "cli/command_requests.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"
#include "output/text_table.hpp"

namespace sqlmorph::core {
namespace {

std::string metric_text(const std::optional<double>& m) {
  if (!m) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", *m);
  return buf;
}

std::string ms_text(const std::optional<double>& ms) {
  if (!ms) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", *ms);
  return buf;
}

int run_compare(const global_options& g, const compare_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  const std::vector<record> records = compare_records(*env, o);

  if (o.json) {
    nlohmann::ordered_json j;
    j["results"] = nlohmann::ordered_json::array();
    for (const record& r : records) j["results"].push_back(record_to_json(r, false));
    std::cout << dump_json(j, 2) << "\n";
    return 0;
  }
  text_table table;
  table.set_header(
      {"technique", "penalize", "status", "EX", "EXP", "EXR", "F1", "gold_ms", "pred_ms", "error"});
  table.align_right({3, 4, 5, 6, 7, 8});
  for (const record& r : records) {
    table.add_row(
        {r.technique, r.penalize_extra_pred_cols ? (*r.penalize_extra_pred_cols ? "true" : "false") : "-",
         std::string(example_status_name(r.status)), r.scores.ex ? (*r.scores.ex == 1.0 ? "1" : "0") : "-",
         metric_text(r.scores.exp), metric_text(r.scores.exr), metric_text(r.scores.f1), ms_text(r.gold_ms),
         ms_text(r.pred_ms), r.error});
  }
  std::cout << table.render();
  return 0;
}

}  // namespace

void register_compare_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<compare_options>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Execute a gold and a predicted query on one database and score the pair");
  cmd->add_option("--db", options->db,
                  "database: a file path (the {path} of backend targets; for sqlite, the database file)")
      ->required();
  cmd->add_option(
      "--db-id", options->db_id,
      "the database's name, the {db_id} of backend targets (default: the file name without extension)");
  cmd->add_option("--gold", options->gold, "gold SQL")->required();
  cmd->add_option("--pred", options->pred, "predicted SQL")->required();
  cmd->add_flag("--json", options->json, "print one JSON object {\"results\": [...]} instead of a table");
  add_run_options(*cmd, options->run);
  cmd->callback([&g, &exit_code, options] { exit_code = run_compare(g, *options); });
}

}  // namespace sqlmorph::core
