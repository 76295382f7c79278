#include "cli/command_requests.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>

#include "app/evaluation_request.hpp"
#include "app/preflight.hpp"
#include "config/run_values.hpp"
#include "datasets/bird_files.hpp"
#include "datasets/cases_file.hpp"
#include "datasets/spider_files.hpp"
#include "datasets/spider_questions.hpp"
#include "errors.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/query_runner.hpp"
#include "parallel_for.hpp"

namespace sqlmorph::core {
namespace {

// Runs a reader; what it refuses is about the input file (input_error), not the options.
template <typename Read>
auto read_input(Read&& read) {
  try {
    return read();
  } catch (const input_error&) {
    throw;
  } catch (const usage_error& e) {
    throw input_error(e.what());
  }
}

// "NAME=FILE" or "FILE" (named after the file).
std::pair<std::optional<std::string>, std::string> system_and_file(const std::string& arg) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return {std::nullopt, arg};
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

// One system's examples: its --pred argument ("[NAME=]FILE") read against the gold file.
std::vector<example> read_prediction_file(const eval_options& o, const std::optional<spider_gold>& gold,
                                          prediction_tabs tabs, const std::string& arg) {
  // Plain variables, not a structured binding: clang 14 (the fuzz preset) cannot capture bindings in
  // lambdas.
  auto split = system_and_file(arg);
  std::optional<std::string> name = std::move(split.first);
  const auto file = std::move(split.second);
  if (!name) name = o.system;
  if (*o.benchmark != "spider")
    return read_input([&] { return read_bird_files({*o.gold, file, *o.db_root, name}); });
  std::vector<example> ex = read_input([&] { return spider_examples(*gold, file, name, tabs); });
  // The judges read the questions: from --questions, else dev.json next to the gold file.
  std::optional<std::filesystem::path> questions = o.questions;
  if (!questions && !o.judges.empty()) questions = spider_questions_next_to(*o.gold);
  if (questions) read_input([&] { return attach_spider_questions(ex, *questions); });
  return ex;
}

std::vector<example> read_requested_examples(const eval_options& o) {
  if (o.cases && o.benchmark) throw usage_error("give either --cases or --benchmark, not both");
  if (o.cases) {
    if (o.gold || !o.preds.empty())
      throw usage_error("--gold and --pred go with --benchmark, not with --cases");
    std::vector<example> ex = read_input([&] {
      return read_cases_file(*o.cases,
                             o.db_root ? std::optional<std::filesystem::path>(*o.db_root) : std::nullopt);
    });
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
  // The gold file is read (and each gold query's difficulty computed) once for all the systems.
  std::optional<spider_gold> gold;
  if (*o.benchmark == "spider") gold = read_input([&] { return read_spider_gold(*o.gold, *o.db_root); });
  const prediction_tabs tabs =
      *o.benchmark == "spider" ? parse_prediction_tabs(o.pred_tabs) : prediction_tabs::official;
  // The prediction files are read on the run's workers (--jobs), each into its own slot; a file's
  // error is reported as if they were read in order (the first file's).
  std::vector<std::vector<example>> files(o.preds.size());
  std::vector<std::exception_ptr> failures(o.preds.size());
  parallel_for(o.preds.size(), o.jobs.value_or(0), [&](std::size_t k) {
    try {
      files[k] = read_prediction_file(o, gold, tabs, o.preds[k]);
    } catch (...) {
      failures[k] = std::current_exception();
    }
  });
  std::size_t total = 0;
  for (const auto& ex : files) total += ex.size();
  std::vector<example> all;
  all.reserve(total);
  std::vector<std::string> names;
  for (std::size_t k = 0; k < files.size(); ++k) {
    if (failures[k]) std::rethrow_exception(failures[k]);
    std::vector<example>& ex = files[k];
    const std::string system = ex.empty() ? std::string() : ex.front().system;
    if (std::find(names.begin(), names.end(), system) != names.end()) {
      throw usage_error("two prediction files are named '" + system + "'; name them with --pred NAME=FILE");
    }
    names.push_back(system);
    all.insert(all.end(), std::make_move_iterator(ex.begin()), std::make_move_iterator(ex.end()));
    std::vector<example>().swap(ex);
  }
  return all;
}

}  // namespace

std::vector<record> compare_records(environment& env, const compare_options& o, std::string* evidence) {
  env.use_embedding_cache(o.run.embedding_cache, o.run.no_embedding_cache, env.config().run.cache_dir);
  const auto techniques =
      env.techniques().assemble(split_technique_list(o.run.techniques), parse_penalize_choice(o.run.penalize),
                                env.registry(), o.run.plug_value);
  if (techniques.empty()) throw usage_error("compare needs a technique (--techniques none leaves none)");
  if (!o.run.no_preflight) check_remote_services(techniques, {}, env.registry());
  const run_limits limits = limits_from(env.config(), o.run);
  query_runner runner(limits.gold, limits.pred);
  example_evaluator evaluator(runner, techniques, env.routes(route_choice_from(o.run)));
  example ex;
  ex.id = "compare";
  ex.db = o.db;
  ex.db_id = o.db_id;
  ex.gold = o.gold;
  ex.pred = o.pred;
  if (evidence == nullptr || !o.show_rows) return evaluator.evaluate(ex);
  evidence_options shown;
  shown.keep_rows = checked_rows_kept(*o.show_rows, "--show-rows");
  shown.max_bytes = 16 * 1024 * 1024;  // one example: the row count is the limit
  evaluator.set_evidence_options(shown);
  std::string body;
  std::vector<record> records = evaluator.evaluate(ex, &body);
  *evidence = evidence_line(ex, body);
  return records;
}

std::vector<example> read_examples(const eval_options& o) {
  std::vector<example> examples = read_requested_examples(o);
  if (!o.backends.empty()) examples = examples_on_each_backend(examples, o.backends);
  return examples;
}

evaluation_settings evaluation_settings_from(environment& env, const eval_options& o, bool quiet) {
  // The embedding cache follows --cache too (before anything is embedded).
  env.use_embedding_cache(
      o.run.embedding_cache, o.run.no_embedding_cache,
      o.cache ? std::optional<std::filesystem::path>(*o.cache) : env.config().run.cache_dir);
  evaluation_request r = request_from(o.run);
  if (o.tables) r.tables = std::filesystem::path(*o.tables);
  if (o.gold) r.gold_file = std::filesystem::path(*o.gold);
  r.judges = resolve_judges(env.config(), env.registry(), o.judges);
  r.backends = o.backends;
  // An empty folder name writes nothing (the Python module's out=None; the CLI refuses it).
  if (!o.out.empty()) r.out = std::filesystem::path(o.out);
  if (o.jobs) r.jobs = static_cast<double>(*o.jobs);
  r.resume = o.resume;
  r.overwrite = o.overwrite;
  r.require_databases = o.require_databases;
  r.keep_rows = o.keep_rows;
  if (o.sqlmorph_logs) r.sqlmorph_logs = std::filesystem::path(*o.sqlmorph_logs);
  if (o.cache) r.cache = std::filesystem::path(*o.cache);
  r.progress = quiet ? progress_mode::none : parse_progress_mode(o.progress);
  return evaluation_settings_for(r, env.config(), env.registry(), env.techniques());
}

}  // namespace sqlmorph::core
