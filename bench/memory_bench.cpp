// PERF.md target 6: a result of R rows x C columns costs at most ~32 bytes per cell plus its text,
// and a whole run's peak memory stays within 2x the largest pair of results plus a constant.
//
//   memory_bench
//
// Results built in this process are freed before each child starts, so a forked child never
// inherits (and reports) them as resident memory.

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <sqlmorph/result.hpp>

#include "bench_process.hpp"
#include "bench_util.hpp"

namespace fs = std::filesystem;

namespace {
std::vector<std::string> eval_args(const fs::path& cases, const fs::path& out, const char* techniques) {
  return {SQLMORPH_BENCH_BINARY,
          "--config",
          std::string(SQLMORPH_BENCH_SOURCE_DIR) + "/sqlmorph.toml",
          "-q",
          "eval",
          "--cases",
          cases.string(),
          "--techniques",
          techniques,
          "-j",
          "1",
          "--out",
          out.string()};
}
}  // namespace

int main() {
  sqlmorph::bench::header("memory (PERF.md target 6)");
  // 1. The cost of a cell.
  double per_cell = 0;
  {
    sqlmorph::result r;
    r.set_columns({"a", "b", "c", "d"});
    const std::size_t rows = 1'000'000;
    std::size_t text = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      r.append_integer(static_cast<long long>(i));
      r.append_real(static_cast<double>(i) / 3);
      const std::string s = "name_" + std::to_string(i);
      r.append_text(s);
      text += s.size();
      r.append_null();
    }
    per_cell = static_cast<double>(r.memory_bytes() - text) / static_cast<double>(rows * 4);
    std::printf("a %zu x 4 result: %.1f bytes per cell besides %zu bytes of text (target: ~32)\n\n", rows,
                per_cell, text);
  }

  // 2. Peak memory of runs whose largest pair of results has a given size.
  const fs::path dir = fs::temp_directory_path() / "sqlmorph-memory-bench";
  fs::create_directories(dir);
  const fs::path db = dir / "big.sqlite";
  if (!fs::exists(db)) {
    sqlite3* h = nullptr;
    sqlite3_open(db.c_str(), &h);
    sqlite3_exec(h,
                 "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, grp INT);"
                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
                 "INSERT INTO t SELECT i, 'name_' || i, i / 3.0, i % 97 FROM n;",
                 nullptr, nullptr, nullptr);
    sqlite3_close(h);
  }
  // The constant: a run whose results are tiny.
  const fs::path tiny = dir / "tiny.jsonl";
  std::ofstream(tiny) << nlohmann::json{{"id", "tiny"},
                                        {"db", db.string()},
                                        {"gold", "SELECT 1"},
                                        {"pred", "SELECT 2"}}
                             .dump()
                      << "\n";
  const auto base = sqlmorph::bench::run_process(eval_args(tiny, dir / "out-tiny", "all"));
  std::printf("constant (a run with one-row results, all techniques): peak RSS %.1f MB\n",
              base.peak_rss_kb / 1024.0);
  bool met = true;
  for (const std::size_t n : {100'000, 300'000, 1'000'000}) {
    const fs::path cases = dir / ("big" + std::to_string(n) + ".jsonl");
    const std::string limit = std::to_string(n);
    std::ofstream(cases)
        << nlohmann::json{{"id", "big"},
                          {"db", db.string()},
                          {"gold", "SELECT id, name, score, grp FROM t LIMIT " + limit},
                          {"pred", "SELECT id, name, score, grp + (id % 10 = 0) FROM t LIMIT " + limit}}
               .dump()
        << "\n";
    // The pair's size as sqlmorph holds it.
    double pair_mb = 0;
    {
      sqlmorph::result pair_probe;
      pair_probe.set_columns({"id", "name", "score", "grp"});
      for (std::size_t i = 1; i <= n; ++i) {
        pair_probe.append_integer(static_cast<long long>(i));
        pair_probe.append_text("name_" + std::to_string(i));
        pair_probe.append_real(static_cast<double>(i) / 3.0);
        pair_probe.append_integer(static_cast<long long>(i % 97));
      }
      pair_mb = 2.0 * static_cast<double>(pair_probe.memory_bytes()) / (1024.0 * 1024.0);
    }
    for (const char* techniques : {"exact_column_and_partial_cell", "all"}) {
      const auto run = sqlmorph::bench::run_process(eval_args(cases, dir / "out-big", techniques));
      const double peak_mb = run.peak_rss_kb / 1024.0;
      const double bound = 2 * pair_mb + base.peak_rss_kb / 1024.0;
      const bool ok = run.exit_code == 0 && peak_mb <= bound;
      met = met && ok;
      std::printf(
          "%8zu rows x 4, techniques %-30s pair %7.1f MB, peak RSS %7.1f MB, bound 2 x pair + constant %7.1f "
          "MB: %s (%.1f s)\n",
          n, techniques, pair_mb, peak_mb, bound, ok ? "met" : "NOT MET", run.seconds);
    }
  }
  std::printf("\ntarget 6: %s\n", met && per_cell <= 32 ? "met" : "NOT MET");
  return 0;
}
