// PERF.md target 2: many systems on the same benchmark. Each gold query runs once in total, and
// wall time grows with the number of distinct predicted queries, not with systems × techniques.
// Spider dev, N prediction files of the NL2SQL360 collection, every technique with both
// penalize_extra_pred_cols values, all workers; next to each run, the floor: executing the run's
// distinct (database, SQL) pairs once each with plain sqlite3.
//
//   many_systems_bench [SHARED_DIR]

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "bench_floor.hpp"
#include "bench_process.hpp"
#include "bench_util.hpp"
#include "datasets/spider_files.hpp"

namespace fs = std::filesystem;
using namespace sqlmorph;

namespace {

struct run_figures {
  double seconds = 0;
  double gold = 0;
  double pred = 0;
  double records = 0;
};

run_figures run_systems(const fs::path& spider,
                        const std::vector<std::pair<std::string, fs::path>>& systems) {
  const std::string out = (fs::temp_directory_path() / "sqlmorph-many-systems").string();
  const auto args =
      bench::spider_eval_args(spider, {"--penalize-extra-pred-cols", "both", "--out", out}, systems);
  const auto run = bench::run_process(args);
  if (run.exit_code != 0) {
    std::printf("run with %zu systems failed (exit %d)\n", systems.size(), run.exit_code);
    std::exit(1);
  }
  std::ifstream in(fs::path(out) / "run.json");
  const auto manifest = nlohmann::json::parse(in);
  const auto& stats = manifest["statistics"];
  std::size_t variants = 0;
  for (const auto& t : manifest["techniques"]) variants += t.contains("variants") ? t["variants"].size() : 1;
  run_figures f;
  f.seconds = run.seconds;
  f.gold = stats["gold_executed"].get<double>();
  f.pred = stats["pred_executed"].get<double>();
  f.records = static_cast<double>(systems.size()) * 1034 * static_cast<double>(variants);
  return f;
}

// The distinct (database, SQL) pairs of the gold file and these prediction files.
std::vector<bench::floor_query> distinct_queries(
    const fs::path& spider, const std::vector<std::pair<std::string, fs::path>>& systems) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<bench::floor_query> out;
  for (const auto& [name, file] : systems) {
    for (const core::example& ex :
         core::read_spider_files({spider / "dev_gold.sql", file, spider / "database", name})) {
      for (const std::string* sql : {&ex.gold, &ex.pred}) {
        if (seen.insert({ex.db, *sql}).second) out.push_back({ex.db, *sql});
      }
    }
  }
  return out;
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
  bench::header("many systems on one benchmark (PERF.md target 2)");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(spider / "predictions/nl2sql360")) {
    if (e.path().extension() == ".sql") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::printf(
      "Spider dev (1,034 examples), NL2SQL360 prediction files, every technique x both penalize values, one "
      "run each\n");
  std::printf(
      "(sqlmorph also executes the official rewrites of the queries; the floor executes each distinct query "
      "once)\n\n");
  std::printf("%8s %9s %9s %10s %10s %11s %9s %12s %10s\n", "systems", "seconds", "floor s", "gold runs",
              "pred runs", "records", "x floor", "ms/query", "us/record");

  struct point {
    double seconds, queries, records;
  };
  std::vector<point> points;
  double single_gold = 0;
  bool gold_once = true;
  const auto report = [&](const char* label, const std::vector<std::pair<std::string, fs::path>>& systems) {
    const run_figures f = run_systems(spider, systems);
    const auto queries = distinct_queries(spider, systems);
    const bench::timing floor = bench::measure(
        1, [&] { bench::floor_exec(queries); }, false);
    if (single_gold == 0) single_gold = f.gold;
    gold_once = gold_once && f.gold <= single_gold;  // a gold query may be met first as a prediction
    points.push_back({f.seconds, f.gold + f.pred, f.records});
    std::printf("%8s %9.2f %9.2f %10.0f %10.0f %11.0f %9.2f %12.3f %10.2f\n", label, f.seconds,
                floor.median_ms / 1000, f.gold, f.pred, f.records, f.seconds * 1000 / floor.median_ms,
                1000 * f.seconds / (f.gold + f.pred), 1e6 * f.seconds / f.records);
  };

  std::printf("N different systems:\n");
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{8}, std::size_t{16},
                        std::size_t{32}, std::size_t{64}, files.size()}) {
    if (n > files.size()) break;
    std::vector<std::pair<std::string, fs::path>> systems;
    for (std::size_t i = 0; i < n; ++i) systems.push_back({files[i].stem().string(), files[i]});
    report(std::to_string(n).c_str(), systems);
  }
  std::printf("\nthe same prediction file under N names (distinct queries constant, records x N):\n");
  for (std::size_t n : {1, 8, 32}) {
    std::vector<std::pair<std::string, fs::path>> systems;
    for (std::size_t i = 0; i < n; ++i) systems.push_back({"copy" + std::to_string(i), files[0]});
    report(std::to_string(n).c_str(), systems);
  }

  // Least squares: seconds = c + a · executed queries + b · records.
  double s[3][4] = {};
  for (const point& p : points) {
    const double x[3] = {1, p.queries, p.records};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) s[i][j] += x[i] * x[j];
      s[i][3] += x[i] * p.seconds;
    }
  }
  for (int i = 0; i < 3; ++i) {  // Gauss-Jordan on the 3x3 normal equations
    for (int r = 0; r < 3; ++r) {
      if (r == i) continue;
      const double f = s[r][i] / s[i][i];
      for (int c = 0; c < 4; ++c) s[r][c] -= f * s[i][c];
    }
  }
  const double c = s[0][3] / s[0][0];
  const double a = s[1][3] / s[1][1];
  const double b = s[2][3] / s[2][2];
  std::printf("\nfit over these runs: seconds = %.3f + %.4f ms x executed queries + %.2f us x records\n", c,
              a * 1000, b * 1e6);
  std::printf("gold queries executed once in total whatever the number of systems: %s\n",
              gold_once ? "yes" : "NO");
  std::printf(
      "target 2: time follows the distinct queries executed; each record (system x technique x example) "
      "adds\n"
      "only its matching and its line of output.\n");
  return gold_once ? 0 : 1;
}
