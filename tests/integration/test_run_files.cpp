// The files a run reads back (issue 38): gold-cache entries, run.json and the shards' files for
// merge and --resume, run.lock for merge. A damaged or foreign file ends in a clear message naming
// it (or, for a cache entry, in a miss with a warning), never a crash, unbounded memory or a run
// that silently mixes another's results.

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "runner/output_lock.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

json read_json(const std::filesystem::path& file) {
  return json::parse(test::file_bytes(file));
}

std::vector<std::string> eval_args(const std::filesystem::path& cases, const std::filesystem::path& out,
                                   std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--config",           config_arg(), "eval",       "--cases",
                                   cases.string(),       "--out",      out.string(), "--techniques",
                                   "execution_accuracy", "--progress", "none"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The only entry of a gold cache folder.
std::filesystem::path only_entry(const std::filesystem::path& cache) {
  std::vector<std::filesystem::path> entries;
  for (const auto& e : std::filesystem::recursive_directory_iterator(cache))
    if (e.is_regular_file() && e.path().extension() == ".bin") entries.push_back(e.path());
  REQUIRE(entries.size() == 1);
  return entries.front();
}

}  // namespace

TEST_CASE("a corrupted gold-cache entry is a miss with a warning naming it, never an abort") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  // One gold query whose result is one integer cell: the entry ends with the cell count (8 bytes),
  // then the cell (its kind, 8 bytes).
  test::write_file(
      cases,
      json{{"id", 1}, {"db", demo_db().string()}, {"gold", "SELECT 7"}, {"pred", "SELECT 7"}}.dump() + "\n");
  const auto cache = dir.path() / "cache";
  const auto run = [&](const std::string& name) {
    const auto out = dir.path() / name;
    const auto r = run_sqlmorph(eval_args(cases, out, {"--cache", cache.string()}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(test::read_jsonl(out / "results.jsonl")[0]["EX"] == 1);
    return std::make_pair(r, read_json(out / "run.json")["statistics"]);
  };
  REQUIRE(run("cold").second["gold_executed"] == 1);
  const auto entry = only_entry(cache);
  const std::string good = test::file_bytes(entry);
  REQUIRE(good.size() > 17);
  int round = 0;
  for (const std::uint64_t count : {std::uint64_t{1} << 44, ~std::uint64_t{0}, std::uint64_t{2}}) {
    CAPTURE(count);
    std::string bad = good;
    std::memcpy(bad.data() + bad.size() - 17, &count, 8);
    test::write_file(entry, bad);
    const auto [r, stats] = run("bad" + std::to_string(round++));
    CHECK(stats["gold_executed"] == 1);  // executed again
    CHECK(stats["gold_from_disk_cache"] == 0);
    CHECK(r.err.find("gold cache: ignoring the unreadable entry " + entry.string()) != std::string::npos);
    // Rewritten by that run (the same bytes but for the time it took): the last run below finds it.
    CHECK(test::file_bytes(entry) != bad);
    CHECK(test::file_bytes(entry).size() == good.size());
  }
  // A torn entry (a copy cut short) and one cut inside its key: misses too.
  for (const std::size_t keep : {good.size() - 5, std::size_t{12}}) {
    CAPTURE(keep);
    test::write_file(entry, good.substr(0, keep));
    const auto [r, stats] = run("torn" + std::to_string(keep));
    CHECK(stats["gold_executed"] == 1);
    CHECK(r.err.find(entry.string()) != std::string::npos);
  }
  const auto [r, stats] = run("warm");
  CHECK(stats["gold_from_disk_cache"] == 1);
  CHECK(r.err.find("gold cache") == std::string::npos);
}

