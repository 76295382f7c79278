// Distilled test suites on Spider dev (issue 17): the time `suite build` takes for the 19 databases
// (once: it is minutes), then the cost of evaluating on the suite — spider_test_suite over the built
// suite against spider_official_exec on the original databases — for four systems, each against the
// execution floor (C++ sqlite3 running each gold and predicted query once on the originals). The
// target: the suite evaluation at most 10 x the single-database one.
//
//   test_suite_bench [SHARED_DIR] [MAX_CANDIDATES]     (defaults: ../shared next to the checkout, 300)

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "bench_floor.hpp"
#include "bench_techniques.hpp"
#include "bench_util.hpp"
#include "datasets/spider_files.hpp"
#include "runner/evaluation_runner.hpp"
#include "suite/suite_builder.hpp"
#include "techniques/technique_catalog.hpp"

using namespace sqlmorph;

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  const std::filesystem::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const std::size_t max_candidates = argc > 2 ? std::stoul(argv[2]) : 300;
  const auto spider = shared / "benchmarks" / "spider-dev";
  if (!std::filesystem::exists(spider / "dev_gold.sql")) {
    std::printf("SKIPPED: %s not found (the Spider dev benchmark lives in ../shared)\n", spider.c_str());
    return 0;
  }
  bench::header("Distilled test suites on Spider dev (issue 17)");

  const bench::lua_techniques lua;

  // The suite, built once into a temporary folder.
  const std::filesystem::path suite_dir =
      std::filesystem::temp_directory_path() / "sqlmorph-test-suite-bench";
  std::filesystem::remove_all(suite_dir);
  core::suite::suite_request request;
  request.benchmark = "spider";
  request.gold = spider / "dev_gold.sql";
  request.db_root = spider / "database";
  request.out = suite_dir;
  request.max_candidates = max_candidates;
  request.jobs = 2;
  request.skip_missing = true;  // wta_1 is not in ../shared
  const auto comparison = lua.assemble({"spider_official_exec"}, core::penalize_choice::yes).front();
  const auto start = std::chrono::steady_clock::now();
  const auto manifest = core::suite::build_suite(request, comparison, lua.routes);
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "suite build, 19 databases, --max-candidates %zu, --jobs 2: %.1f s (target: 600 s), %d variants\n",
      max_candidates, build_s, manifest["totals"]["variants"].get<int>());

  std::vector<core::example> originals;
  std::vector<core::example> on_suite;
  for (const char* file : {"c3-gpt35.sql", "dail-sql-gpt4.sql", "din-sql-gpt4.csv", "resdsql-3b.sql"}) {
    const std::string system = std::filesystem::path(file).stem().string();
    for (core::example& ex : core::read_spider_files(
             {spider / "dev_gold.sql", spider / "predictions" / file, spider / "database", system})) {
      originals.push_back(ex);
      ex.db = (suite_dir / ex.db_id / (ex.db_id + ".sqlite")).string();
      on_suite.push_back(std::move(ex));
    }
  }
  std::vector<bench::floor_query> queries;
  for (const core::example& ex : originals) {
    if (!std::filesystem::exists(ex.db)) continue;
    queries.push_back({ex.db, ex.gold});
    queries.push_back({ex.db, ex.pred});
  }
  const bench::timing floor = bench::measure(5, [&] { bench::floor_exec(queries); });
  std::printf("floor, C++ sqlite3 (each gold and predicted query once, originals): %s\n",
              bench::format(floor).c_str());

  core::evaluation_settings settings;
  settings.routes = lua.routes;
  settings.jobs = 2;
  settings.techniques = lua.assemble({"spider_official_exec"}, core::penalize_choice::yes);
  const bench::timing single = bench::measure(5, [&] { core::run_evaluation(originals, settings); });
  std::printf("spider_official_exec, originals, 4 systems, --jobs 2:     %s   (%.2f x floor)\n",
              bench::format(single).c_str(), single.median_ms / floor.median_ms);
  settings.techniques = lua.assemble({"spider_test_suite"}, core::penalize_choice::yes);
  const bench::timing suite = bench::measure(5, [&] { core::run_evaluation(on_suite, settings); });
  std::printf(
      "spider_test_suite, the suite, 4 systems, --jobs 2:        %s   (%.2f x floor, %.2f x "
      "spider_official_exec; target: 10 x)\n",
      bench::format(suite).c_str(), suite.median_ms / floor.median_ms, suite.median_ms / single.median_ms);
  std::filesystem::remove_all(suite_dir);
  return 0;
}
