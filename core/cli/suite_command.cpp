// `sqlmorph suite build`: distilled test suites for a benchmark's databases (suite/suite_builder.hpp).

#include <iostream>
#include <limits>
#include <thread>

#include "app/environment.hpp"
#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "config/run_values.hpp"
#include "errors.hpp"
#include "suite/suite_builder.hpp"

namespace sqlmorph::core {
namespace {

struct suite_build_options {
  std::optional<std::string> benchmark;
  std::optional<std::string> gold;
  std::optional<std::string> cases;
  std::optional<std::string> db_root;
  std::string out;
  std::uint64_t seed = 0;
  std::size_t max_candidates = 300;
  std::vector<std::string> databases;
  std::optional<unsigned> jobs;
  std::string technique = "spider_official_exec";
  bool json = false;
  bool skip_missing = false;
};

int run_suite_build(const global_options& g, const suite_build_options& o) {
  apply_logging(g);
  const auto env = environment::load(g.config_file);
  const auto techniques =
      env->techniques().assemble({o.technique}, penalize_choice::yes, env->registry(), false);
  if (techniques.size() != 1) throw usage_error("--technique names one technique, not '" + o.technique + "'");
  suite::suite_request request;
  request.benchmark = o.benchmark.value_or("");
  if (o.gold) request.gold = *o.gold;
  if (o.cases) request.cases = *o.cases;
  if (o.db_root) request.db_root = *o.db_root;
  request.out = o.out;
  request.seed = o.seed;
  request.max_candidates = o.max_candidates;
  request.databases = o.databases;
  request.skip_missing = o.skip_missing;
  request.jobs = o.jobs.value_or(std::max(1u, std::thread::hardware_concurrency()));
  request.progress = g.quiet ? nullptr : &std::cerr;
  const auto manifest = suite::build_suite(request, techniques.front(), env->routes());
  if (o.json) {
    std::cout << manifest.dump(2) << "\n";
    return 0;
  }
  const auto& t = manifest["totals"];
  std::cout << "suite " << o.out << ": " << t["databases"].get<std::size_t>() << " databases, "
            << t["variants"].get<std::size_t>() << " variants; " << t["distinguished"].get<std::size_t>()
            << " of " << t["neighbours"].get<std::size_t>()
            << " neighbour queries told apart from their gold query (" << t["coverage"].get<double>() * 100
            << "%); " << t["seconds"].get<double>() << " s\n";
  return 0;
}

}  // namespace

void register_suite_command(CLI::App& app, const global_options& g, int& exit_code) {
  CLI::App* suite = app.add_subcommand("suite", "Build distilled test suites of database variants");
  suite->require_subcommand(1);
  auto options = std::make_shared<suite_build_options>();
  CLI::App* cmd = suite->add_subcommand(
      "build",
      "Build a distilled test suite per database (SUITE_DIR/<db_id>/<db_id>*.sqlite, the official layout) "
      "that tells each gold query apart from its near-miss neighbours (docs/test-suites.md)");
  cmd->add_option("--benchmark", options->benchmark, "format of --gold: spider or bird");
  cmd->add_option("--gold", options->gold,
                  "gold file: Spider's SQL<TAB>db_id lines, or BIRD's questions (dev.json)");
  cmd->add_option("--cases", options->cases, "a JSONL cases file instead (each case's db and gold)");
  cmd->add_option("--db-root", options->db_root, "the databases: <db-root>/<db_id>/<db_id>.sqlite");
  cmd->add_option(
         "--out", options->out,
         "the suite's folder: new or empty, or a suite of the same settings, which a re-run completes")
      ->required();
  cmd->add_option("--databases", options->databases,
                  "comma-separated db_ids: build only these databases' suites (default: every database)")
      ->delimiter(',');
  whole_number_from(cmd->add_option("--seed", options->seed,
                                    "random seed: the same seed builds the same suite (default 0)"),
                    0, std::numeric_limits<std::uint64_t>::max());
  whole_number_from(cmd->add_option("--max-candidates", options->max_candidates,
                                    "fuzzed databases tried per database at most (default 300)"),
                    1, suite::max_candidates_limit);
  whole_number_from(cmd->add_option("-j,--jobs", options->jobs,
                                    "databases built at once (default: one per hardware thread)"),
                    1, max_jobs);
  cmd->add_option(
      "--technique", options->technique,
      "the comparison that tells a neighbour apart (default spider_official_exec, the per-database "
      "step of spider_test_suite)");
  cmd->add_flag("--skip-missing-databases", options->skip_missing,
                "leave out, with a warning, the gold queries whose database file is missing (else an error)");
  cmd->add_flag("--json", options->json, "print suite.json instead of a summary line");
  cmd->callback([&g, &exit_code, options] { exit_code = run_suite_build(g, *options); });
}

}  // namespace sqlmorph::core
