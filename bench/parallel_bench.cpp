// PERF.md target 5: --jobs 2 on 2 cores is at least 1.7x faster than --jobs 1 on a benchmark
// dominated by execution. The workload: aggregation queries over a 400,000-row table (tens of
// milliseconds each), every query distinct (so execute-once saves nothing and the floor executes
// exactly what sqlmorph executes), gold and prediction different, one technique.
//
//   parallel_bench [EXAMPLES]

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "bench_process.hpp"
#include "bench_util.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  const int examples = argc > 1 ? std::atoi(argv[1]) : 40;
  sqlmorph::bench::header("parallel workers on an execution-bound benchmark (PERF.md target 5)");
  const fs::path dir = fs::temp_directory_path() / "sqlmorph-parallel-bench";
  fs::create_directories(dir);
  const fs::path db = dir / "sales.sqlite";
  if (!fs::exists(db)) {
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    sqlite3_exec(h,
                 "CREATE TABLE sales(id INTEGER PRIMARY KEY, region INT, product INT, amount REAL, day INT);"
                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) "
                 "INSERT INTO sales SELECT i, i % 17, (i * 7919) % 1009, (i % 977) * 1.25, i % 365 FROM n;",
                 nullptr, nullptr, nullptr);
    sqlite3_close(h);
  }
  const fs::path cases = dir / "cases.jsonl";
  {
    std::ofstream out(cases);
    for (int i = 0; i < examples; ++i) {
      const std::string k = std::to_string(3 + i % 11);
      const std::string j = std::to_string(i % 3);
      const std::string id = std::to_string(i);
      out << nlohmann::
                 json{{"id", "q" + std::to_string(i)},
                      {"db", db.string()},
                      {"gold", "SELECT region, sum(amount), count(*) FROM sales WHERE product % " + k +
                                   " = " + j + " AND id > " + id + " GROUP BY region"},
                      {"pred",
                       "SELECT region, round(sum(amount), 2), count(*) FROM sales WHERE (product + day) % " +
                           k + " <> " + j + " AND id > " + id + " GROUP BY region ORDER BY region"}}
                     .dump()
          << "\n";
    }
  }
  const auto run = [&](const char* jobs) {
    std::vector<double> seconds;
    for (int r = 0; r < 3; ++r) {
      const auto p = sqlmorph::bench::run_process(
          {SQLMORPH_BENCH_BINARY, "--config", std::string(SQLMORPH_BENCH_SOURCE_DIR) + "/sqlmorph.toml", "-q",
           "eval", "--cases", cases.string(), "--techniques", "execution_accuracy", "-j", jobs, "--out",
           (dir / (std::string("out") + jobs)).string()});
      if (p.exit_code != 0) {
        std::printf("run failed (exit %d)\n", p.exit_code);
        std::exit(1);
      }
      seconds.push_back(p.seconds * 1000);
    }
    std::sort(seconds.begin(), seconds.end());
    return sqlmorph::bench::timing{seconds.front(), seconds[1], seconds.back(), 3};
  };
  // The floor: the same queries, executed once each, one after the other.
  sqlite3* h = nullptr;
  sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
  const auto floor = sqlmorph::bench::measure(
      3,
      [&] {
        std::ifstream in(cases);
        for (std::string line; std::getline(in, line);) {
          const auto j = nlohmann::json::parse(line);
          for (const char* role : {"gold", "pred"}) {
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(h, j[role].get<std::string>().c_str(), -1, &st, nullptr);
            while (sqlite3_step(st) == SQLITE_ROW) {
            }
            sqlite3_finalize(st);
          }
        }
      },
      false);
  sqlite3_close(h);
  std::printf("%d examples (%d queries of ~%.0f ms)\n\n", examples, 2 * examples,
              floor.median_ms / (2 * examples));
  std::printf("floor (one thread, plain sqlite3): %s\n", sqlmorph::bench::format(floor).c_str());
  const auto one = run("1");
  std::printf("sqlmorph eval --jobs 1:            %s\n", sqlmorph::bench::format(one).c_str());
  const auto two = run("2");
  std::printf("sqlmorph eval --jobs 2:            %s\n", sqlmorph::bench::format(two).c_str());
  const double speedup = one.median_ms / two.median_ms;
  std::printf(
      "\nspeedup --jobs 2 / --jobs 1 (medians) = %.2f   (target >= 1.7 on 2 cores: %s; %u hardware threads "
      "here)\n",
      speedup, speedup >= 1.7 ? "met" : "NOT MET", std::thread::hardware_concurrency());
  std::printf("speedup from the fastest runs (min / min) = %.2f; the floor / --jobs 2 (medians) = %.2f\n",
              one.min_ms / two.min_ms, floor.median_ms / two.median_ms);
  return 0;
}
