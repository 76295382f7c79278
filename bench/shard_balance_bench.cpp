// Planning `eval --shard K/N` (docs/scale-out.md): how even are the shards? Spider dev with every
// prediction file of ../shared (the published systems), execution accuracy, one worker.
//
// 1. One whole run gives each unit's measured time (the gold_ms + pred_ms of its records).
// 2. For N = 2..64: the partition of runner/shard_plan (by estimated cost, databases kept together
//    where that balances) against a naive split into N blocks of consecutive units, as max/mean of
//    the shards' measured time (1.00 = perfect; the run's wall time on N nodes is max, not mean).
// 3. Real shard processes for N = 4 and 8, run one after another: each shard's wall time (min /
//    median / max), the imbalance they show, and the databases each shard opens.
//
//   shard_balance_bench [SHARED_DIR]

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "bench_process.hpp"
#include "bench_util.hpp"
#include "datasets/spider_files.hpp"
#include "runner/shard_plan.hpp"
#include "runner/work_plan.hpp"

namespace fs = std::filesystem;
using namespace sqlmorph;

namespace {

std::vector<std::string> eval_args(const fs::path& spider,
                                   const std::vector<std::pair<std::string, fs::path>>& systems,
                                   const fs::path& out) {
  return bench::spider_eval_args(
      spider, {"--techniques", "execution_accuracy", "-j", "1", "--progress", "none", "--out", out.string()},
      systems);
}

double imbalance(const std::vector<double>& shard_time) {
  const double total = std::accumulate(shard_time.begin(), shard_time.end(), 0.0);
  const double mean = total / static_cast<double>(shard_time.size());
  return mean > 0 ? *std::max_element(shard_time.begin(), shard_time.end()) / mean : 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  const fs::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const fs::path spider = shared / "benchmarks/spider-dev";
  if (!fs::exists(spider / "dev_gold.sql")) {
    std::printf("SKIPPED: %s not found\n", spider.c_str());
    return 0;
  }
  bench::header("shard balance for eval --shard K/N (issue 16)");
  std::vector<std::pair<std::string, fs::path>> systems;
  for (const fs::path& dir : {spider / "predictions", spider / "predictions/nl2sql360"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".sql" || e.path().extension() == ".csv")
        systems.push_back({e.path().stem().string(), e.path()});
    }
  }
  std::sort(systems.begin(), systems.end());
  std::vector<core::example> examples;
  for (const auto& [name, file] : systems) {
    auto ex = core::read_spider_files({spider / "dev_gold.sql", file, spider / "database", name});
    examples.insert(examples.end(), ex.begin(), ex.end());
  }
  const auto units = core::plan_work(examples);
  std::printf("Spider dev, %zu systems: %zu examples in %zu units, execution accuracy, 1 worker\n\n",
              systems.size(), examples.size(), units.size());

  // 1. Measured time per unit.
  const fs::path out = fs::temp_directory_path() / "sqlmorph-shard-balance";
  fs::remove_all(out);
  const auto whole = bench::run_process(eval_args(spider, systems, out / "whole"));
  if (whole.exit_code != 0) {
    std::printf("the whole run failed (exit %d)\n", whole.exit_code);
    return 1;
  }
  // A unit runs its gold query once (every record of the unit carries its time) and each prediction.
  std::map<std::pair<std::string, std::string>, std::pair<double, double>>
      ms_of;  // (system, id) -> gold, pred
  std::ifstream results(out / "whole" / "results.jsonl");
  for (std::string line; std::getline(results, line);) {
    const auto j = nlohmann::json::parse(line);
    const auto ms = [&](const char* key) {
      return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
    };
    ms_of[{j["system"].get<std::string>(), j["id"].get<std::string>()}] = {ms("gold_ms"), ms("pred_ms")};
  }
  std::vector<double> unit_ms(units.size(), 0);
  for (std::size_t u = 0; u < units.size(); ++u) {
    double gold = 0;
    for (const std::size_t i : units[u].examples) {
      const auto [g, p] = ms_of[{examples[i].system, examples[i].id}];
      gold = std::max(gold, g);
      unit_ms[u] += p;
    }
    unit_ms[u] += gold;
  }
  const double largest_unit = *std::max_element(unit_ms.begin(), unit_ms.end());
  const double total_ms = std::accumulate(unit_ms.begin(), unit_ms.end(), 0.0);
  std::printf("whole run: %.2f s wall; the units' measured query time: %.2f s, the largest unit %.2f s\n\n",
              whole.seconds, total_ms / 1000, largest_unit / 1000);

  // 2. Imbalance by N, from the measured unit times.
  std::printf("%6s %20s %22s %18s %16s\n", "N", "shard_plan max/mean", "consecutive max/mean",
              "best possible", "databases/shard");
  for (std::size_t n : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
    std::vector<double> planned(n, 0), naive(n, 0);
    std::size_t most_databases = 0;
    for (std::size_t k = 0; k < n; ++k) {
      std::set<std::string> dbs;
      for (const std::size_t u : core::shard_units(examples, units, {k, n})) {
        planned[k] += unit_ms[u];
        dbs.insert(examples[units[u].examples.front()].db);
      }
      most_databases = std::max(most_databases, dbs.size());
    }
    for (std::size_t u = 0; u < units.size(); ++u) naive[u * n / units.size()] += unit_ms[u];
    // No partition does better than its largest unit (units are not split).
    const double best = std::max(1.0, largest_unit / (total_ms / static_cast<double>(n)));
    std::printf("%6zu %20.2f %22.2f %18.2f %16zu\n", n, imbalance(planned), imbalance(naive), best,
                most_databases);
  }

  // 3. Real shard processes.
  for (std::size_t n : {4, 8}) {
    std::vector<double> seconds;
    for (std::size_t k = 0; k < n; ++k) {
      auto args = eval_args(spider, systems, out / ("n" + std::to_string(n) + "-" + std::to_string(k)));
      args.insert(args.end(), {"--shard", std::to_string(k) + "/" + std::to_string(n)});
      const auto run = bench::run_process(args);
      if (run.exit_code != 0) {
        std::printf("shard %zu/%zu failed (exit %d)\n", k, n, run.exit_code);
        return 1;
      }
      seconds.push_back(run.seconds);
    }
    std::vector<double> sorted = seconds;
    std::sort(sorted.begin(), sorted.end());
    std::printf(
        "\nN=%zu real shard processes: min %.2f s, median %.2f s, max %.2f s (whole run %.2f s): "
        "max/mean %.2f, speed-up on %zu nodes %.2fx\n",
        n, sorted.front(), sorted[sorted.size() / 2], sorted.back(), whole.seconds, imbalance(seconds), n,
        whole.seconds / sorted.back());
  }
  fs::remove_all(out);
  return 0;
}
