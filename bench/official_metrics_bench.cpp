// The official execution metrics on Spider dev (issue 12): the verdict techniques and BIRD's
// Soft-F1 against the execution floor, --plug-value, and R-VES with BIRD's 100 iterations against
// 100 × the floor of the pairs it times, with the R-VES of every run (timings are noisy: the spread
// is part of the figure) at one and two workers.
//
//   official_metrics_bench [SHARED_DIR] [SYSTEM]     (defaults: ../shared next to the checkout,
//   dail-sql-gpt4)

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include <spdlog/spdlog.h>

#include "bench_floor.hpp"
#include "bench_techniques.hpp"
#include "bench_util.hpp"
#include "datasets/spider_files.hpp"
#include "runner/evaluation_runner.hpp"
#include "techniques/technique_catalog.hpp"

using namespace sqlmorph;

namespace {

std::optional<double> r_ves_of(const core::run_summary& s) {
  for (const auto& g : s.groups()) {
    if (g.technique == "bird_ves") return g.r_ves();
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  const std::filesystem::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const std::string system = argc > 2 ? argv[2] : "dail-sql-gpt4";
  const auto spider = shared / "benchmarks" / "spider-dev";
  if (!std::filesystem::exists(spider / "dev_gold.sql")) {
    std::printf("SKIPPED: %s not found (the Spider dev benchmark lives in ../shared)\n", spider.c_str());
    return 0;
  }
  bench::header("Official execution metrics on Spider dev, one system (issue 12)");
  const auto pred_file = spider / "predictions" / (system + (system == "din-sql-gpt4" ? ".csv" : ".sql"));
  const std::vector<core::example> examples =
      core::read_spider_files({spider / "dev_gold.sql", pred_file, spider / "database", system});

  const bench::lua_techniques lua;
  core::evaluation_settings settings;
  settings.routes = lua.routes;
  const std::vector<std::string> exec_techniques = {"execution_accuracy",   "test_suite",
                                                    "spider_official_exec", "spider_test_suite",
                                                    "bird_soft_f1",         "soft_f1_matched"};

  std::vector<bench::floor_query> queries;
  for (const core::example& ex : examples) {
    queries.push_back({ex.db, ex.gold});
    queries.push_back({ex.db, ex.pred});
  }
  const bench::timing floor = bench::measure(7, [&] { bench::floor_exec(queries); });
  std::printf("floor, C++ sqlite3 (each gold and predicted query once): %s\n", bench::format(floor).c_str());

  settings.techniques = lua.assemble(exec_techniques, core::penalize_choice::yes);
  const bench::timing verdicts = bench::measure(7, [&] { core::run_evaluation(examples, settings); });
  std::printf("sqlmorph, %zu official execution techniques:            %s   (%.2f x floor)\n",
              settings.techniques.size(), bench::format(verdicts).c_str(),
              verdicts.median_ms / floor.median_ms);
  settings.techniques = lua.assemble(exec_techniques, core::penalize_choice::yes, true);
  const bench::timing plugged = bench::measure(7, [&] { core::run_evaluation(examples, settings); });
  std::printf("the same with --plug-value:                              %s   (%.2f x floor)\n",
              bench::format(plugged).c_str(), plugged.median_ms / floor.median_ms);

  // R-VES: the floor of what it repeats is the correct pairs (both queries) executed 100 times.
  settings.techniques = lua.assemble({"bird_ves"}, core::penalize_choice::yes);
  settings.jobs = 1;
  const core::evaluation_outcome first = core::run_evaluation(examples, settings);
  std::vector<bench::floor_query> timed;
  std::size_t correct = 0;
  {
    // The examples BIRD times: those whose row sets are equal (the EX of bird_ves).
    core::evaluation_settings ex_only = settings;
    ex_only.techniques = lua.assemble({"execution_accuracy"}, core::penalize_choice::yes);
    ex_only.out_dir = std::filesystem::temp_directory_path() / "sqlmorph-official-bench";
    core::run_evaluation(examples, ex_only);
    std::ifstream in(*ex_only.out_dir / "results.jsonl");
    std::map<std::string, bool> ok;
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      ok[j["id"].get<std::string>()] = j["EX"].is_number() && j["EX"].get<double>() == 1.0;
    }
    for (const core::example& ex : examples) {
      if (!ok[ex.id]) continue;
      ++correct;
      timed.push_back({ex.db, ex.pred});
      timed.push_back({ex.db, ex.gold});
    }
    std::filesystem::remove_all(*ex_only.out_dir);
  }
  const bench::timing timed_floor = bench::measure(5, [&] { bench::floor_exec(timed); });
  std::printf("\nR-VES, %zu iterations: %zu correct predictions timed\n", std::size_t{100}, correct);
  std::printf("floor of one pass over the timed pairs:                  %s   (x 100 = %.0f ms)\n",
              bench::format(timed_floor).c_str(), timed_floor.median_ms * 100);
  std::printf("100 x the floor of all queries:                          %.0f ms\n", floor.median_ms * 100);
  for (const unsigned jobs : {1u, 2u}) {
    settings.jobs = jobs;
    std::vector<double> values;
    const bench::timing ves = bench::measure(
        3,
        [&] {
          const auto outcome = core::run_evaluation(examples, settings);
          values.push_back(r_ves_of(outcome.summary).value_or(-1));
        },
        false);
    std::printf(
        "sqlmorph bird_ves, --jobs %u:                             %s   (%.2f x 100 x timed floor)\n  R-VES:",
        jobs, bench::format(ves).c_str(), ves.median_ms / (timed_floor.median_ms * 100));
    for (const double v : values) std::printf(" %.2f", v);
    std::printf("\n");
  }
  std::printf("(first run, --jobs 1: R-VES %.2f)\n", r_ves_of(first.summary).value_or(-1));
  return 0;
}
