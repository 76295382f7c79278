// Spider's exact set match (`spider_exact_match`) on Spider dev, one system: the metric alone (parse,
// rebuild, compare every pair), a whole run of it alone, and with every reference execution
// technique (issue 12 §5: <= 3x the execution floor), against the floor — executing the same queries
// once and fetching every row — measured in the same run. PERF.md has no exact-match reference
// figure; the official evaluator's whole `--etype exec` run takes 4.5-4.8 s there.
//
//   exact_match_bench [SHARED_DIR] [SYSTEM]     (defaults: ../shared next to the checkout, dail-sql-gpt4)

#include <cstdio>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "bench_floor.hpp"
#include "bench_util.hpp"
#include "builtin_reference_techniques.hpp"
#include "datasets/spider_files.hpp"
#include "eval/exact_match_metric.hpp"
#include "plugins/component_registry.hpp"
#include "runner/evaluation_runner.hpp"
#include "techniques/technique_catalog.hpp"

using namespace sqlmorph;

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  const std::filesystem::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const std::string system = argc > 2 ? argv[2] : "dail-sql-gpt4";
  const auto spider = shared / "benchmarks" / "spider-dev";
  if (!std::filesystem::exists(spider / "dev_gold.sql")) {
    std::printf("SKIPPED: %s not found (the Spider dev benchmark lives in ../shared)\n", spider.c_str());
    return 0;
  }
  bench::header("Spider dev, one system: spider_exact_match (issue 12)");
  const auto pred_file = spider / "predictions" / (system + (system == "din-sql-gpt4" ? ".csv" : ".sql"));
  const std::vector<core::example> examples =
      core::read_spider_files({spider / "dev_gold.sql", pred_file, spider / "database", system});
  const auto metric = std::make_shared<const core::exact_match_metric>(spider / "tables.json");

  std::vector<bench::floor_query> queries;
  for (const core::example& ex : examples) {
    queries.push_back({ex.db, ex.gold});
    queries.push_back({ex.db, ex.pred});
  }
  const bench::timing floor_cpp = bench::measure(7, [&] { bench::floor_exec(queries); });
  std::printf("floor, C++ sqlite3 (execute + fetch every row, %zu queries): %s\n", queries.size(),
              bench::format(floor_cpp).c_str());

  std::size_t exact = 0;
  const bench::timing alone = bench::measure(7, [&] {
    exact = 0;
    for (const core::example& ex : examples) {
      const core::record r = metric->evaluate(ex);
      for (const auto& [name, value] : r.scores.extra) {
        if (name == "EM") exact += static_cast<std::size_t>(std::get<std::int64_t>(value));
      }
    }
  });
  std::printf("exact match alone, %zu pairs, one thread (EM %zu):      %s\n", examples.size(), exact,
              bench::format(alone).c_str());

  core::component_registry registry;
  registry.load_directories({SQLMORPH_BENCH_PLUGIN_DIR});
  core::technique_catalog builtin;
  core::add_reference_techniques(builtin);
  core::evaluation_settings em_only;
  em_only.routes = core::backend_routes::make(core::default_config(), registry);
  em_only.exact_match = metric;
  core::evaluation_settings with_exec = em_only;
  with_exec.techniques = builtin.assemble(builtin.names(), core::penalize_choice::both, registry);

  const bench::timing run_em = bench::measure(7, [&] { core::run_evaluation(examples, em_only); });
  std::printf("run: spider_exact_match only, in process:             %s\n", bench::format(run_em).c_str());
  const bench::timing run_all = bench::measure(7, [&] { core::run_evaluation(examples, with_exec); });
  std::printf("run: spider_exact_match + %zu execution variants:      %s\n", with_exec.techniques.size(),
              bench::format(run_all).c_str());
  std::printf("\nratio (medians): EM + execution / C++ floor = %.2f   (issue 12 §5: <= 3x the floor: %s)\n",
              run_all.median_ms / floor_cpp.median_ms,
              run_all.median_ms <= 3 * floor_cpp.median_ms ? "met" : "NOT MET");
  std::printf("ratio (medians): EM alone / C++ floor = %.2f\n", alone.median_ms / floor_cpp.median_ms);
  return 0;
}
