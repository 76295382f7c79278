// `sqlmorph eval`: a whole benchmark — a JSONL cases file, or Spider / BIRD gold and prediction
// files of one or several systems — on parallel workers, streamed to results.jsonl, resumable.

#include <csignal>
#include <iostream>

#include "app/environment.hpp"
#include "app/preflight.hpp"
#include "cli/commands.hpp"
#include "datasets/bird_files.hpp"
#include "datasets/cases_file.hpp"
#include "datasets/spider_files.hpp"
#include "datasets/spider_questions.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"
#include "runner/evaluation_runner.hpp"

namespace sqlmorph::core {
namespace {

struct eval_options {
  std::optional<std::string> cases;
  std::optional<std::string> benchmark;
  std::optional<std::string> gold;
  std::vector<std::string> preds;
  std::optional<std::string> db_root;
  std::optional<std::string> system;
  std::string pred_tabs = "official";
  std::string out = "sqlmorph-out";
  std::optional<unsigned> jobs;
  std::optional<std::string> cache;
  bool resume = false;
  std::string progress = "auto";
  bool json = false;
  /// Evaluate every system on each of these backends (systems become SYSTEM@BACKEND).
  std::vector<std::string> backends;
  /// Judges called on every example (names of [judges.NAME] or judge components).
  std::vector<std::string> judges;
  /// Spider's questions (dev.json), for the judges.
  std::optional<std::string> questions;
  run_options run;
};

// "NAME=FILE" or "FILE" (named after the file).
std::pair<std::optional<std::string>, std::string> system_and_file(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return {std::nullopt, arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

std::vector<example> read_examples(const eval_options& o) {
  if (o.cases && o.benchmark) throw usage_error("give either --cases or --benchmark, not both");
  if (o.cases) {
    if (o.gold || !o.preds.empty())
      throw usage_error("--gold and --pred go with --benchmark, not with --cases");
    std::vector<example> ex = read_cases_file(
        *o.cases, o.db_root ? std::optional<std::filesystem::path>(*o.db_root) : std::nullopt);
    if (o.system) {
      for (example& e : ex) e.system = *o.system;
    }
    return ex;
  }
  if (!o.benchmark)
    throw usage_error(
        "nothing to evaluate: give --cases FILE or --benchmark spider|bird --gold ... --pred ... --db-root "
        "...");
  if (*o.benchmark != "spider" && *o.benchmark != "bird")
    throw usage_error("unknown benchmark '" + *o.benchmark + "' (known: spider, bird)");
  if (!o.gold || o.preds.empty() || !o.db_root) {
    throw usage_error("--benchmark " + *o.benchmark +
                      " needs --gold FILE, --pred [NAME=]FILE (once per system) and --db-root DIR");
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(*o.db_root, ec))
    throw usage_error("--db-root " + *o.db_root + " is not a directory");
  if (o.system && o.preds.size() > 1)
    throw usage_error("--system names a single system; with several, write --pred NAME=FILE");
  std::vector<example> all;
  std::vector<std::string> names;
  for (const std::string& arg : o.preds) {
    auto [name, file] = system_and_file(arg);
    if (!name) name = o.system;
    std::vector<example> ex;
    if (*o.benchmark == "spider") {
      ex = read_spider_files({*o.gold, file, *o.db_root, name, parse_prediction_tabs(o.pred_tabs)});
      // The judges read the questions: from --questions, else dev.json next to the gold file.
      std::optional<std::filesystem::path> questions = o.questions;
      if (!questions && !o.judges.empty()) questions = spider_questions_next_to(*o.gold);
      if (questions) attach_spider_questions(ex, *questions);
    } else {
      ex = read_bird_files({*o.gold, file, *o.db_root, name});
    }
    const std::string system = ex.empty() ? std::string() : ex.front().system;
    if (std::find(names.begin(), names.end(), system) != names.end()) {
      throw usage_error("two prediction files are named '" + system + "'; name them with --pred NAME=FILE");
    }
    names.push_back(system);
    all.insert(all.end(), std::make_move_iterator(ex.begin()), std::make_move_iterator(ex.end()));
  }
  return all;
}

int run_eval(const global_options& g, const eval_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  std::vector<example> examples = read_examples(o);
  if (!o.backends.empty()) examples = examples_on_each_backend(examples, o.backends);
  const run_limits limits = limits_from(env->config(), o.run);
  evaluation_settings settings;
  settings.routes = env->routes(route_choice_from(o.run), o.backends);
  settings.gold_limits = limits.gold;
  settings.pred_limits = limits.pred;
  env->use_embedding_cache(
      o.run.embedding_cache, o.run.no_embedding_cache,
      o.cache ? std::optional<std::filesystem::path>(*o.cache) : env->config().run.cache_dir);
  settings.techniques = env->techniques().assemble(split_technique_list(o.run.techniques),
                                                   parse_penalize_choice(o.run.penalize), env->registry());
  settings.judges = resolve_judges(env->config(), env->registry(), o.judges);
  if (settings.techniques.empty() && settings.judges.empty())
    throw usage_error("nothing to do: --techniques none and no --judges");
  if (!o.run.no_preflight) check_remote_services(settings.techniques, settings.judges, env->registry());
  settings.out_dir = std::filesystem::path(o.out);
  settings.jobs = o.jobs.value_or(env->config().run.jobs);
  settings.resume = o.resume;
  if (o.cache)
    settings.cache_dir = std::filesystem::path(*o.cache);
  else
    settings.cache_dir = env->config().run.cache_dir;
  settings.on_script_error = parse_script_error_policy(env->config().lua.on_error);
  settings.progress = g.quiet ? progress_mode::none : parse_progress_mode(o.progress);
  // What run.json records about how the run was made.
  settings.manifest["command"] = command_line();
  settings.manifest["configuration"] =
      env->config().source.empty() ? "built-in defaults" : env->config().source.string();
  settings.manifest["plugins"] = nlohmann::ordered_json::array();
  for (const loaded_library& lib : env->registry().libraries()) {
    settings.manifest["plugins"].push_back(
        {{"library", lib.name}, {"version", lib.version}, {"file", lib.file.string()}});
  }
  settings.manifest["build_fingerprint"] = SQLMORPH_BUILD_FINGERPRINT;

  const evaluation_outcome outcome = run_evaluation(examples, settings);
  if (o.json) {
    std::cout << dump_json(outcome.summary.to_json(outcome.examples, outcome.wall_seconds), 2) << "\n";
  } else {
    std::cout << outcome.summary.to_table();
    const auto systems = outcome.summary.systems();
    if (systems.size() > 1) {
      std::cout << "\n" << outcome.summary.systems_table();
    } else if (!systems.empty()) {
      const std::string by_difficulty = outcome.summary.difficulty_table(systems.front());
      if (!by_difficulty.empty()) std::cout << "\nby difficulty:\n" << by_difficulty;
    }
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
  if (outcome.stats.interrupted) {
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
  cmd->add_option("-j,--jobs", options->jobs, "workers (default: [run] jobs, else one per hardware thread)");
  cmd->add_option("--cache", options->cache,
                  "folder caching gold results across runs (keyed by database content)");
  cmd->add_flag("--resume", options->resume, "continue the interrupted run in --out (same command)");
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
  add_run_options(*cmd, options->run);
  cmd->callback([&g, &exit_code, options] { exit_code = run_eval(g, *options); });
}

}  // namespace sqlmorph::core
