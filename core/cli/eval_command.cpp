// `sqlmorph eval`: a whole benchmark — a JSONL cases file, or Spider / BIRD gold and prediction
// files of one or several systems — on parallel workers, streamed to results.jsonl, resumable.

#include <csignal>
#include <future>
#include <iostream>
#include <system_error>

#include <spdlog/spdlog.h>

#include "app/environment.hpp"
#include "app/exit_memory.hpp"
#include "cli/command_requests.hpp"
#include "cli/number_checks.hpp"
#include "config/run_values.hpp"
#include "errors.hpp"
#include "eval/record.hpp"
#include "output/official_tables.hpp"
#include "output/record_json.hpp"
#include "runner/evaluation_runner.hpp"
#include "runner/shard_plan.hpp"

namespace sqlmorph::core {
namespace {

int run_eval(const global_options& g, const eval_options& o) {
  apply_logging(g);
  // One run, then the process ends: what is only memory is left for the exit to take back
  // (app/exit_memory.hpp).
  leave_memory_to_exit();
  if (o.out.empty()) throw usage_error("--out needs a folder");
  const std::optional<shard_spec> shard = o.shard ? std::optional(parse_shard_spec(*o.shard)) : std::nullopt;
  // The inputs are read (and their gold queries parsed) on another thread while the
  // configuration, the plugins and the technique scripts load. An error in the configuration is
  // still the one reported first.
  const auto read = [&o] {
    const stopwatch reading;
    std::vector<example> examples = read_examples(o);
    spdlog::debug("read {} examples in {:.2f} s", examples.size(), reading.elapsed_ms() / 1000);
    return examples;
  };
  std::future<std::vector<example>> reading;
  try {
    reading = std::async(std::launch::async, read);
  } catch (const std::system_error&) {  // no thread to spare: read after loading
  }
  const auto env = environment::load(g.config_file);
  std::vector<example> examples = reading.valid() ? reading.get() : read();
  evaluation_settings settings = evaluation_settings_from(*env, o, g.quiet);
  if (shard) examples = select_shard(examples, *shard, settings);
  evaluation_outcome outcome = run_evaluation(examples, settings);
  if (o.json) {
    std::cout << dump_json(outcome.summary.to_json(outcome.examples, outcome.wall_seconds), 2) << "\n";
  } else {
    std::cout << outcome.summary.to_table();
    const auto systems = outcome.summary.systems();
    if (systems.size() > 1) {
      std::cout << "\n" << outcome.summary.systems_table();
      if (systems.size() > run_summary::max_side_by_side)
        std::cout
            << "every system and technique side by side, with intervals and the examples: sqlmorph report "
            << settings.out_dir.value().string() << " -o report.html\n";
    } else if (!systems.empty()) {
      const std::string by_difficulty = outcome.summary.difficulty_table(systems.front());
      if (!by_difficulty.empty()) std::cout << "\nby difficulty:\n" << by_difficulty;
    }
    // The official scripts' own tables, for the techniques that reproduce them.
    std::cout << official_tables_text(outcome.summary);
    if (!outcome.summary.judge_groups().empty()) std::cout << "\njudges:\n" << outcome.summary.judges_table();
    const auto& s = outcome.stats;
    std::printf(
        "\n%zu examples in %.2f s with %u workers: %llu gold and %llu predicted queries executed, %llu gold "
        "from the cache, %llu answered from memory\nresults in %s, summary in %s, run in %s\n",
        outcome.examples, outcome.wall_seconds, s.jobs, static_cast<unsigned long long>(s.gold_executed),
        static_cast<unsigned long long>(s.pred_executed), static_cast<unsigned long long>(s.gold_from_disk),
        static_cast<unsigned long long>(s.reused), (settings.out_dir.value() / "results.jsonl").c_str(),
        (settings.out_dir.value() / "summary.json").c_str(), (settings.out_dir.value() / "run.json").c_str());
  }
  const bool interrupted = outcome.stats.interrupted;
  leave_to_exit(outcome);
  leave_to_exit(examples);
  if (interrupted) {
    std::fprintf(stderr,
                 "sqlmorph: interrupted; what was evaluated is in %s — run the same command with --resume to "
                 "continue\n",
                 (settings.out_dir.value() / "results.jsonl").c_str());
    return 130;
  }
  return 0;
}

}  // namespace

void register_eval_command(CLI::App& app, const global_options& g, int& exit_code) {
  auto options = std::make_shared<eval_options>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Evaluate a benchmark: a JSONL cases file, or Spider / BIRD gold and prediction files");
  cmd->add_option(
      "--cases", options->cases,
      "JSONL file, one {\"id\", \"db\", \"gold\", \"pred\"} object per line (db relative to the file)");
  cmd->add_option("--benchmark", options->benchmark, "format of --gold/--pred: spider or bird");
  cmd->add_option(
      "--gold", options->gold,
      "spider: SQL<TAB>db_id per line; bird: the questions' JSON (dev.json, mini_dev_<dialect>.json)");
  cmd->add_option(
      "--pred", options->preds,
      "predictions of one system, [NAME=]FILE; repeat for several systems. spider: one SQL per line "
      "(optionally SQL<TAB>db_id) or a CSV with a \"PREDICTED SQL\" column; bird: {\"0\": \"SQL\\t----- bird "
      "-----\\tdb_id\"}");
  cmd->add_option("--db-root", options->db_root,
                  "folder of <db_id>/<db_id>.sqlite (spider, bird); for --cases, the folder relative db "
                  "paths start from");
  cmd->add_option("--system", options->system, "name of the system (default: the prediction file's name)");
  cmd->add_option(
         "--pred-tabs", options->pred_tabs,
         "a tab in a spider prediction line: 'official' ends the SQL at the first tab, as the official "
         "evaluator does; 'keep' keeps tabs in the SQL and removes only a trailing <TAB>db_id")
      ->check(CLI::IsMember({"official", "keep"}))
      ->capture_default_str();
  cmd->add_option("--out", options->out, "output folder for results.jsonl, summary.json and run.json")
      ->capture_default_str();
  checked_by(cmd->add_option("-j,--jobs", options->jobs,
                             "workers (default: [run] jobs, else one per hardware thread)"),
             checked_jobs);
  cmd->add_option("--cache", options->cache,
                  "folder caching gold results across runs (keyed by database content)");
  cmd->add_flag("--resume", options->resume, "continue the interrupted run in --out (same command)");
  cmd->add_flag("--overwrite", options->overwrite, "replace the run already in --out (else it is refused)");
  cmd->add_flag("--require-databases", options->require_databases,
                "exit 2 when an example's database is missing (status db_missing), for CI; else a warning");
  cmd->add_option("--keep-rows", options->keep_rows,
                  "rows of each gold and predicted result kept in examples.jsonl (default 20, 0: none)");
  cmd->add_option(
      "--sqlmorph-logs", options->sqlmorph_logs,
      "also write SQLMorph's log files: DIR/<technique>/evaluation-<timestamp>.json per evaluation "
      "(rows as kept by --keep-rows)");
  cmd->add_option("--progress", options->progress, "progress on stderr: auto, bar, lines, none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}))
      ->capture_default_str();
  cmd->add_flag("--json", options->json, "print summary.json instead of tables");
  cmd->add_option("--backends", options->backends,
                  "evaluate on each of these backends, side by side (systems become SYSTEM@BACKEND)")
      ->delimiter(',');
  cmd->add_option("--judges", options->judges,
                  "judges called on every example: [judges.NAME] of sqlmorph.toml or judge components "
                  "(records \"judge:NAME\", summary \"judges\")")
      ->delimiter(',');
  cmd->add_option("--questions", options->questions,
                  "spider: the questions (dev.json) for the judges (default: dev.json next to --gold)");
  cmd->add_option("--tables", options->tables,
                  "Spider's tables.json, for spider_exact_match (default: tables.json next to --gold)");
  cmd->add_option("--shard", options->shard,
                  "K/N: evaluate only shard K (0-based) of N, for a cluster's array job; join the N --out "
                  "folders with `sqlmorph merge` (docs/scale-out.md)");
  add_run_options(*cmd, options->run);
  cmd->callback([&g, &exit_code, options] { exit_code = run_eval(g, *options); });
}

}  // namespace sqlmorph::core
