// `sqlmorph compare`: one gold query against one predicted query on one database.

#include <cstdio>
#include <iostream>

#include "app/environment.hpp"
#include "cli/command_requests.hpp"
#include "errors.hpp"
#include "output/example_explanation.hpp"
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

double parse_row_count(const std::string& text) {
  try {
    std::size_t used = 0;
    const double n = std::stod(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  throw usage_error("--show-rows: '" + text + "' is not a number of rows");
}

int run_compare(const global_options& g, const compare_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  std::string evidence;
  const std::vector<record> records = compare_records(*env, o, &evidence);

  if (o.json) {
    nlohmann::ordered_json j;
    j["results"] = nlohmann::ordered_json::array();
    for (const record& r : records) j["results"].push_back(record_to_json(r, false));
    if (!evidence.empty()) j["example"] = nlohmann::ordered_json::parse(evidence);
    std::cout << dump_json(j, 2) << "\n";
    return 0;
  }
  if (!evidence.empty()) {
    // As `sqlmorph explain` shows an example of a run: both results side by side, then the scores.
    std::vector<nlohmann::json> lines;
    for (const record& r : records) {
      std::string line;
      append_record_json(line, r, true);
      lines.push_back(nlohmann::json::parse(line));
    }
    std::cout << explain_example(nlohmann::json::parse(evidence), lines, std::nullopt);
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
  auto show_rows = std::make_shared<std::string>();
  CLI::Option* show = cmd->add_option("--show-rows", *show_rows,
                                      "also show both results side by side (N rows each, default 20), the "
                                      "paired columns and the unmatched rows (with --json: the example's "
                                      "evidence, as a line of examples.jsonl)")
                          ->expected(0, 1)
                          ->type_name("[N]");
  add_run_options(*cmd, options->run);
  cmd->callback([&g, &exit_code, options, show, show_rows] {
    if (show->count() > 0) options->show_rows = show_rows->empty() ? 20.0 : parse_row_count(*show_rows);
    exit_code = run_compare(g, *options);
  });
}

}  // namespace sqlmorph::core
