// Issue 19, target 1: unified_column_and_semantic_row at a fraction of its former cost.
// 1. Spider dev example 784 of Llama3-8B-500 (world_1: 753 gold rows × 29,847 predicted rows, of
//    which 3,993 distinct), the technique alone. Target: ≤ 0.5 s (it took ~5 s).
// 2. Spider dev, DAIL-SQL, every technique (`--techniques all`) with both penalize_extra_pred_cols
//    values. Target: ≤ 3× the execution floor (executing the same 1,944 queries once and fetching
//    every row), measured in the same run: with C++'s sqlite3 (the stricter) and with Python's
//    (PERF.md's floor, bench/spider_floor.py), each ratio printed.
// Each figure is min / median / max of several runs: in process (as spider_dev_bench; the embedding
// cache's memory serves repeated row strings from the second run on) and as the whole `sqlmorph
// eval` command (a fresh process each run, --no-embedding-cache: every row string is embedded).
//
//   semantic_row_bench [SHARED_DIR] [SQLMORPH_BINARY]
//
// SQLMORPH_BINARY (default: this build's) also names the plugins the in-process runs load (the
// plugins/ folder next to it), so the same program measures an older build for a before/after.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "bench_floor.hpp"
#include "bench_process.hpp"
#include "bench_techniques.hpp"
#include "bench_util.hpp"
#include "datasets/spider_files.hpp"
#include "runner/evaluation_runner.hpp"
#include "techniques/technique_catalog.hpp"

using namespace sqlmorph;

namespace {

std::vector<bench::floor_query> floor_queries(const std::vector<core::example>& examples) {
  std::vector<bench::floor_query> out;
  for (const core::example& ex : examples) {
    out.push_back({ex.db, ex.gold});
    out.push_back({ex.db, ex.pred});
  }
  return out;
}

// `runs` whole `sqlmorph eval` commands with these arguments; the spread of those that succeed.
bench::timing command(const std::string& binary, const std::vector<std::string>& args, int runs) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    std::vector<std::string> argv = {binary, "-q", "eval"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto run = bench::run_process(argv);
    if (run.exit_code == 0) ms.push_back(run.seconds * 1000);
  }
  std::sort(ms.begin(), ms.end());
  if (ms.empty()) return {};
  return {ms.front(), ms[ms.size() / 2], ms.back(), static_cast<int>(ms.size())};
}

void print(const char* what, const bench::timing& t) {
  if (t.runs == 0)
    std::printf("%-58s FAILED\n", what);
  else
    std::printf("%-58s %s\n", what, bench::format(t).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::off);
  const std::filesystem::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const std::string binary = argc > 2 ? argv[2] : SQLMORPH_BENCH_BINARY;
  const std::filesystem::path plugin_dir = std::filesystem::path(binary).parent_path() / "plugins";
  const auto spider = shared / "benchmarks" / "spider-dev";
  const auto llama = spider / "predictions" / "nl2sql360" / "Llama3-8B-500.sql";
  const auto dail = spider / "predictions" / "dail-sql-gpt4.sql";
  if (!std::filesystem::exists(llama) || !std::filesystem::exists(dail)) {
    std::printf("SKIPPED: the Spider dev predictions are not in %s (../shared)\n", spider.c_str());
    return 0;
  }
  bench::header("unified_column_and_semantic_row (issue 19, target 1)");
  std::printf("sqlmorph: %s\nplugins:  %s\n\n", binary.c_str(), plugin_dir.c_str());

  const bench::lua_techniques lua(plugin_dir);
  const auto settings_for = [&](const std::vector<std::string>& techniques) {
    core::evaluation_settings s;
    s.routes = lua.routes;
    s.techniques = lua.assemble(techniques, core::penalize_choice::both);
    return s;
  };
  const std::string unified = "unified_column_and_semantic_row";
  const std::string config_file = std::string(SQLMORPH_BENCH_SOURCE_DIR) + "/sqlmorph.toml";
  const std::string out_dir = "/tmp/sqlmorph-semantic-row-bench";

  // 1. Example 784 of Llama3-8B-500, on its own.
  const std::vector<core::example> llama_examples =
      core::read_spider_files({spider / "dev_gold.sql", llama, spider / "database", "Llama3-8B-500"});
  if (llama_examples.size() <= 784) {
    std::printf("SKIPPED: %s has %zu examples\n", llama.c_str(), llama_examples.size());
    return 0;
  }
  const std::vector<core::example> one = {llama_examples[784]};
  std::printf("1. Llama3-8B-500, example %s (%s), %s alone\n", one[0].id.c_str(), one[0].db_id.c_str(),
              unified.c_str());
  const std::filesystem::path one_dir = out_dir + "-784";
  std::filesystem::create_directories(one_dir);
  {
    std::ifstream gold_in(spider / "dev_gold.sql");
    std::ifstream pred_in(llama);
    std::string line;
    for (int i = 0; i <= 784 && std::getline(gold_in, line); ++i) {
    }
    std::ofstream(one_dir / "gold.sql") << line << "\n";
    for (int i = 0; i <= 784 && std::getline(pred_in, line); ++i) {
    }
    std::ofstream(one_dir / "pred.sql") << line << "\n";
  }
  const bench::timing floor_one = bench::measure(7, [&] { bench::floor_exec(floor_queries(one)); });
  print("floor (execute + fetch both queries):", floor_one);
  const auto unified_only = settings_for({unified});
  const bench::timing in_process_one = bench::measure(5, [&] { core::run_evaluation(one, unified_only); });
  print("sqlmorph, in process:", in_process_one);
  const bench::timing command_one = command(
      binary,
      {"--config", config_file, "--benchmark", "spider", "--gold", (one_dir / "gold.sql").string(), "--pred",
       (one_dir / "pred.sql").string(), "--db-root", (spider / "database").string(), "--techniques", unified,
       "--no-embedding-cache", "--overwrite", "--out", (one_dir / "out").string()},
      5);
  print("sqlmorph eval, whole command, no embedding cache:", command_one);
  std::printf("target: <= 500 ms for the example (whole command, median): %s\n\n",
              command_one.runs > 0 && command_one.median_ms <= 500 ? "met" : "NOT MET");

  // 2. DAIL-SQL, every technique, both variants.
  const std::vector<core::example> examples =
      core::read_spider_files({spider / "dev_gold.sql", dail, spider / "database", "dail-sql-gpt4"});
  const auto all = settings_for({"all"});
  std::printf("2. dail-sql-gpt4, %zu examples, --techniques all (%zu variants)\n", examples.size(),
              all.techniques.size());
  const bench::timing floor_all = bench::measure(7, [&] { bench::floor_exec(floor_queries(examples)); });
  print("floor, C++ sqlite3 (execute + fetch every row):", floor_all);
  const bench::timing floor_py = bench::python_floor(7, spider / "dev_gold.sql", dail, spider / "database");
  if (floor_py.runs > 0) print("floor, Python sqlite3 (PERF.md's floor, in-script):", floor_py);
  const bench::timing in_process_all = bench::measure(5, [&] { core::run_evaluation(examples, all); });
  print("sqlmorph, every technique, in process:", in_process_all);
  const auto unified_all = settings_for({unified});
  const bench::timing in_process_unified =
      bench::measure(5, [&] { core::run_evaluation(examples, unified_all); });
  print("sqlmorph, unified_column_and_semantic_row alone, in process:", in_process_unified);
  const bench::timing command_all = command(
      binary,
      {"--config", config_file, "--benchmark", "spider", "--gold", (spider / "dev_gold.sql").string(),
       "--pred", dail.string(), "--db-root", (spider / "database").string(), "--penalize-extra-pred-cols",
       "both", "--no-embedding-cache", "--overwrite", "--out", out_dir + "-dail"},
      5);
  print("sqlmorph eval, whole command, no embedding cache:", command_all);
  // Against each floor: the C++ one (the stricter) and PERF.md's own, Python's sqlite3.
  const auto ratios = [&](const char* name, const bench::timing& floor) {
    if (floor.runs == 0) return;
    const auto verdict = [](double r) { return r <= 3.0 ? "met" : "NOT MET"; };
    const double in_process = in_process_all.median_ms / floor.median_ms;
    std::printf("ratio (medians) to %s: every technique in process = %.2f (%s)", name, in_process,
                verdict(in_process));
    if (command_all.runs > 0) {
      const double whole = command_all.median_ms / floor.median_ms;
      std::printf(", whole command = %.2f (%s)", whole, verdict(whole));
    }
    std::printf("\n");
  };
  ratios("the C++ floor", floor_all);
  ratios("PERF.md's Python floor", floor_py);
  std::printf("target: <= 3x the floor\n");
  return 0;
}
