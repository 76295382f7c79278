// Issue 13's performance targets for the evidence and the report, measured against the same run
// without them:
//   1. Spider dev, one system, every technique: eval with --keep-rows 20 (the default) stays within
//      1.5x the same run with --keep-rows 0 (examples.jsonl without rows);
//   2. the report of a 124-system run (every Spider dev prediction file, execution_accuracy and
//      exact_column_and_partial_cell) builds in <= 10 s;
//   3. that report opens in headless Chromium in <= 5 s: navigation to the load event (the page's
//      scripts parsed the data and drew the overview) and to the overview's rows, measured with
//      tests/report/open_timing.mjs (puppeteer-core), next to an empty page in the same run.
//
//   evidence_report_bench [SHARED_DIR] [--runs N]

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench_process.hpp"
#include "bench_util.hpp"

namespace fs = std::filesystem;
using namespace sqlmorph;

namespace {

struct spread {
  double min = 0, median = 0, max = 0;
};

spread of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2], v.back()};
}

void print(const char* what, const spread& s, const char* unit = "s") {
  std::printf("  %-44s min %8.2f %s  median %8.2f %s  max %8.2f %s\n", what, s.min, unit, s.median, unit,
              s.max, unit);
}

double timed(const std::vector<std::string>& args, const char* what) {
  const bench::process_run r = bench::run_process(args);
  if (r.exit_code != 0) {
    std::printf("%s failed (exit %d):", what, r.exit_code);
    for (const auto& a : args) std::printf(" %s", a.c_str());
    std::printf("\n");
    std::exit(1);
  }
  return r.seconds;
}

std::vector<std::string> eval_args(const fs::path& spider, const fs::path& out) {
  return bench::spider_eval_args(spider, {"--overwrite", "--out", out.string()});
}

std::string chromium() {
  for (const char* c : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (fs::exists(c)) return c;
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  fs::path shared = SQLMORPH_BENCH_SHARED_DIR;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else
      shared = argv[i];
  }
  const fs::path spider = shared / "benchmarks/spider-dev";
  if (!fs::exists(spider / "dev_gold.sql")) {
    std::printf("SKIPPED: %s not found\n", spider.c_str());
    return 0;
  }
  bench::header("evidence and report (issue 13 targets)");
  const fs::path tmp = fs::temp_directory_path() / "sqlmorph-evidence-report-bench";
  fs::create_directories(tmp);

  // 1. --keep-rows 20 against --keep-rows 0: one system, every technique, alternating runs.
  std::printf("1. Spider dev, dail-sql-gpt4, every technique (%d runs each, alternating):\n", runs);
  std::vector<double> with_rows, without_rows;
  for (int i = 0; i < runs + 1; ++i) {
    for (const char* keep : {"20", "0"}) {
      auto args = eval_args(spider, tmp / (std::string("keep-") + keep));
      args.insert(args.end(), {"--pred", "dail=" + (spider / "predictions/dail-sql-gpt4.sql").string(),
                               "--techniques", "all", "--keep-rows", keep});
      const double s = timed(args, "eval");
      if (i == 0) continue;  // warm-up (page cache)
      (std::strcmp(keep, "20") == 0 ? with_rows : without_rows).push_back(s);
    }
  }
  const spread w = of(with_rows), wo = of(without_rows);
  print("--keep-rows 0 (the reference)", wo);
  print("--keep-rows 20", w);
  std::printf("  ratio of medians %.2fx (target <= 1.5x); examples.jsonl %.1f MB vs %.1f MB\n\n",
              w.median / wo.median, static_cast<double>(fs::file_size(tmp / "keep-20/examples.jsonl")) / 1e6,
              static_cast<double>(fs::file_size(tmp / "keep-0/examples.jsonl")) / 1e6);

  // 2. The report of every prediction file of Spider dev.
  std::vector<std::pair<std::string, fs::path>> systems;
  for (const auto& dir : {spider / "predictions", spider / "predictions/nl2sql360"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".sql") systems.push_back({e.path().stem().string(), e.path()});
    }
  }
  std::sort(systems.begin(), systems.end());
  auto args = eval_args(spider, tmp / "many");
  for (const auto& [name, file] : systems) args.insert(args.end(), {"--pred", name + "=" + file.string()});
  args.insert(args.end(), {"--techniques", "execution_accuracy,exact_column_and_partial_cell"});
  const double eval_seconds = timed(args, "eval");
  std::printf("2. report of %zu systems x 2 techniques x 1,034 examples (the run itself: %.2f s):\n",
              systems.size(), eval_seconds);
  const fs::path report = tmp / "report.html";
  std::vector<double> build;
  long peak_kb = 0;
  for (int i = 0; i < runs; ++i) {
    const bench::process_run r = bench::run_process(
        {SQLMORPH_BENCH_BINARY, "-q", "report", (tmp / "many").string(), "-o", report.string()});
    if (r.exit_code != 0) {
      std::printf("report failed (exit %d)\n", r.exit_code);
      return 1;
    }
    build.push_back(r.seconds);
    peak_kb = std::max(peak_kb, r.peak_rss_kb);
  }
  print("sqlmorph report", of(build));
  std::printf("  target <= 10 s; %.1f MB of HTML, peak memory %.0f MB\n\n",
              static_cast<double>(fs::file_size(report)) / 1e6, static_cast<double>(peak_kb) / 1024);

  // 3. Opening it in Chromium (puppeteer-core of tests/report, installed by make deps): from
  // navigation to the load event and to the overview's rows, against an empty page.
  const std::string browser = chromium();
  const fs::path script = fs::path(SQLMORPH_BENCH_SOURCE_DIR) / "tests/report/open_timing.mjs";
  if (browser.empty() || !fs::exists(fs::path(SQLMORPH_BENCH_SOURCE_DIR) / "tests/report/node_modules")) {
    std::printf("3. SKIPPED: no chromium or no tests/report/node_modules (make deps installs them)\n");
    return 0;
  }
  const fs::path empty = tmp / "empty.html";
  std::ofstream(empty)
      << "<!doctype html><title>empty</title><table id=overview-table><tbody><tr><td>x</td></tr>"
         "</tbody></table>";
  const auto open = [&](const fs::path& page, std::vector<double>& load, std::vector<double>& shown) {
    const std::string command =
        "node '" + script.string() + "' '" + page.string() + "' " + std::to_string(runs);
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return false;
    char line[256];
    while (std::fgets(line, sizeof line, pipe) != nullptr) {
      double l = 0, o = 0;
      if (std::sscanf(line, "load %lf overview %lf", &l, &o) == 2)
        load.push_back(l / 1000), shown.push_back(o / 1000);
    }
    return ::pclose(pipe) == 0 && !load.empty();
  };
  std::printf("3. the report in headless chromium (%d page loads in one browser):\n", runs);
  std::vector<double> blank_load, blank_shown, load, shown;
  if (!open(empty, blank_load, blank_shown) || !open(report, load, shown)) {
    std::printf("  chromium failed (node %s)\n", script.c_str());
    return 1;
  }
  print("empty page: load event (the floor)", of(blank_load));
  print("the report: load event", of(load));
  print("the report: overview shown", of(shown));
  std::printf("  target: opens in <= 5 s\n");
  return 0;
}
