// `eval --shard K/N` and `merge`: shards evaluate every unit exactly once, the merge equals the
// single-machine run (timings aside), and a merge with missing, duplicated or foreign units refuses,
// listing them. (The same on a real Slurm cluster: tests/scale_out/slurm_shards.sh.)

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "runner/content_hash.hpp"
#include "runner/shard_plan.hpp"
#include "runner/work_plan.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;

namespace {

std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

// results.jsonl without the timings, which differ from run to run.
std::string without_timings(const std::filesystem::path& file) {
  std::string out;
  for (json j : test::read_jsonl(file)) {
    j.erase("gold_ms");
    j.erase("pred_ms");
    j.erase("technique_ms");
    out += j.dump() + "\n";
  }
  return out;
}

json read_json(const std::filesystem::path& file) {
  return json::parse(test::file_bytes(file));
}

// A cases file of `count` examples on the demo database, three systems answering each question
// (one unit per question: the systems' answers stay together).
std::filesystem::path demo_cases(const test::temp_dir& dir, int count) {
  const auto file = dir.path() / "cases.jsonl";
  std::ofstream out(file);
  for (int i = 0; i < count; ++i) {
    for (const char* system : {"a", "b", "c"}) {
      const std::string pred = std::string(system) == "a" ? "SELECT " + std::to_string(i)
                               : std::string(system) == "b"
                                   ? "SELECT " + std::to_string(i % 4)
                                   : "SELECT name FROM employees LIMIT " + std::to_string(i % 5);
      out << json{{"id", "q" + std::to_string(i)},
                  {"system", system},
                  {"db", demo_db().string()},
                  // Gold queries repeat across units, so shards sharing a cache write the same entries.
                  {"gold", "SELECT " + std::to_string(i % 7)},
                  {"pred", pred}}
                 .dump()
          << "\n";
    }
  }
  return file;
}

std::vector<std::string> eval_args(const std::filesystem::path& cases, const std::filesystem::path& out) {
  return {"-q",         "eval",       "--cases",      cases.string(),
          "--out",      out.string(), "--techniques", "execution_accuracy,exact_column_and_partial_cell",
          "--progress", "none"};
}

test::command_result run_shard(const std::filesystem::path& cases, const std::filesystem::path& out, int k,
                               int n, std::vector<std::string> extra = {}) {
  auto args = eval_args(cases, out);
  args.insert(args.end(), {"--shard", std::to_string(k) + "/" + std::to_string(n)});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_sqlmorph(args);
}

test::command_result merge(const std::vector<std::filesystem::path>& shards,
                           const std::filesystem::path& out) {
  std::vector<std::string> args = {"-q", "merge"};
  for (const auto& s : shards) args.push_back(s.string());
  args.insert(args.end(), {"--out", out.string()});
  return run_sqlmorph(args);
}

// The merged folder equals the single-machine run: results.jsonl line for line (timings aside),
// summary.json (wall time aside), and run.json's fingerprint, examples, techniques and statistics.
void check_same_run(const std::filesystem::path& single, const std::filesystem::path& merged) {
  CHECK(without_timings(merged / "results.jsonl") == without_timings(single / "results.jsonl"));
  // The evidence too, byte for byte, and the summary's slices by SQL feature that come from it.
  CHECK(test::file_bytes(merged / "examples.jsonl") == test::file_bytes(single / "examples.jsonl"));
  json a = read_json(single / "summary.json");
  json b = read_json(merged / "summary.json");
  a.erase("wall_seconds");
  b.erase("wall_seconds");
  CHECK(a.contains("by_feature"));
  CHECK(a == b);
  const json ra = read_json(single / "run.json");
  const json rb = read_json(merged / "run.json");
  for (const char* key : {"fingerprint", "examples", "techniques", "status"}) {
    CAPTURE(key);
    CHECK(ra[key] == rb[key]);
  }
  // The settings too, but for the gold cache folder (a test gives the shards one the single run has not).
  json sa = ra["settings"];
  json sb = rb["settings"];
  sa.erase("cache");
  sb.erase("cache");
  CHECK(sa == sb);
  CHECK(ra["statistics"]["units"] == rb["statistics"]["units"]);
  CHECK_FALSE(rb.contains("shard"));
  CHECK(rb["merged_from"].is_array());
}

// `cases` run as `n` shards one after another, merged: the same as the single-machine run `single`.
void check_shards_merge_into(const test::temp_dir& dir, const std::filesystem::path& cases, int n,
                             const std::filesystem::path& single) {
  std::vector<std::filesystem::path> shards;
  for (int k = 0; k < n; ++k) {
    shards.push_back(dir.path() / ("shard" + std::to_string(k)));
    const auto r = run_shard(cases, shards.back(), k, n);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  const auto merged = dir.path() / "merged";
  const auto r = merge(shards, merged);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  check_same_run(single, merged);
}

}  // namespace

TEST_CASE("--shard K/N is parsed strictly") {
  for (const char* bad : {"4/4", "1/0", "a/b", "-1/2", "1", "1/2/3", "0/4097", " 0/2", "0/2x"}) {
    CAPTURE(bad);
    const std::string message = test::usage_error_of([&] { core::parse_shard_spec(bad); });
    CHECK(message.find("--shard") != std::string::npos);
  }
  const auto s = core::parse_shard_spec("3/8");
  CHECK(s.index == 3);
  CHECK(s.count == 8);
  test::temp_dir dir;
  const auto r = run_shard(demo_cases(dir, 2), dir.path() / "out", 2, 2);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--shard '2/2'") != std::string::npos);
}

TEST_CASE("shards partition the units: each exactly once, whole units, the same partition every time") {
  std::vector<core::example> examples;
  for (int i = 0; i < 300; ++i) {
    for (int s = 0; s < 1 + i % 3; ++s) {
      core::example ex;
      ex.id = std::to_string(i);
      ex.system = "s" + std::to_string(s);
      ex.item = "item" + std::to_string(i);
      ex.db = "db" + std::to_string(i % 7 == 0 ? 0 : i % 11);  // one big database, ten small ones
      examples.push_back(ex);
    }
  }
  const auto units = core::plan_work(examples);
  REQUIRE(units.size() == 300);
  for (std::size_t n = 1; n <= 70; ++n) {
    CAPTURE(n);
    std::vector<int> owners(units.size(), 0);
    std::size_t largest = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const auto mine = core::shard_units(examples, units, {k, n});
      CHECK(mine == core::shard_units(examples, units, {k, n}));
      CHECK(std::is_sorted(mine.begin(), mine.end()));
      for (const std::size_t u : mine) ++owners[u];
      std::size_t cost = 0;
      for (const std::size_t u : mine) cost += 1 + units[u].examples.size();
      largest = std::max(largest, cost);
    }
    CHECK(std::all_of(owners.begin(), owners.end(), [](int o) { return o == 1; }));
    // Balanced: the largest shard is at most the mean plus a piece (half a share) plus one unit.
    std::size_t total = 0;
    for (const auto& u : units) total += 1 + u.examples.size();
    const double share = static_cast<double>(total) / static_cast<double>(n);
    CHECK(static_cast<double>(largest) <= share * 1.5 + 4 + 1);
  }
}

TEST_CASE(
    "a shard keeps the whole run's units: questions with one gold query, apart in the run, stay apart") {
  // Two databases, their questions interleaved: the whole run joins only neighbours with one gold
  // query (2+3, 6+7); a shard holding one database's questions sees 0, 2, 3, 5 as neighbours.
  test::temp_dir dir;
  const auto other_db = dir.path() / "demo_b.sqlite";
  std::filesystem::copy_file(demo_db(), other_db);
  const auto cases = dir.path() / "interleaved.jsonl";
  {
    std::ofstream out(cases);
    const char* databases = "ABAABABB";
    for (int i = 0; i < 8; ++i) {
      const bool a = databases[i] == 'A';
      for (const char* system : {"s1", "s2", "s3"}) {
        out << json{{"id", "q" + std::to_string(i)},
                    {"system", system},
                    {"db", (a ? demo_db() : other_db).string()},
                    {"gold", a ? "SELECT 1" : "SELECT 2"},
                    {"pred", "SELECT " + std::to_string(i % 3)}}
                   .dump()
            << "\n";
      }
    }
  }
  const auto single = dir.path() / "single";
  REQUIRE(run_sqlmorph(eval_args(cases, single)).exit_code == 0);
  CHECK(read_json(single / "run.json")["statistics"]["units"] == 6);
  check_shards_merge_into(dir, cases, 2, single);
}

TEST_CASE("N shard runs merged equal the single-machine run, shards run side by side on one gold cache") {
  test::temp_dir dir;
  const auto cases = demo_cases(dir, 40);
  const auto single = dir.path() / "single";
  REQUIRE(run_sqlmorph(eval_args(cases, single)).exit_code == 0);
  const int n = 3;
  std::vector<std::filesystem::path> shards;
  std::vector<int> pids;
  for (int k = 0; k < n; ++k) {
    shards.push_back(dir.path() / ("shard" + std::to_string(k)));
    auto args = eval_args(cases, shards.back());
    args.insert(args.end(), {"--shard", std::to_string(k) + "/" + std::to_string(n), "--cache",
                             (dir.path() / "shared-cache").string()});
    pids.push_back(test::start_sqlmorph(args, dir.path() / ("o" + std::to_string(k)),
                                        dir.path() / ("e" + std::to_string(k))));
  }
  for (int k = 0; k < n; ++k) {
    CAPTURE(k);
    CHECK(test::wait_for(pids[static_cast<std::size_t>(k)]) == 0);
    const json run = read_json(shards[static_cast<std::size_t>(k)] / "run.json");
    CHECK(run["shard"]["index"] == k);
    CHECK(run["shard"]["run_fingerprint"] == read_json(single / "run.json")["fingerprint"]);
  }
  const auto merged = dir.path() / "merged";
  const auto r = merge(shards, merged);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  check_same_run(single, merged);
  // Given in another order, the same output; an existing merge is not overwritten silently.
  const auto again = merge({shards[2], shards[0], shards[1]}, merged);
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("--overwrite") != std::string::npos);
  const auto reordered = dir.path() / "reordered";
  REQUIRE(merge({shards[2], shards[0], shards[1]}, reordered).exit_code == 0);
  CHECK(test::file_bytes(reordered / "results.jsonl") == test::file_bytes(merged / "results.jsonl"));
  // The shards shared one gold cache: the second and third found gold results there or ran them
  // (never a corrupt entry: the merged results equal the single run's, checked above).
  CHECK(std::filesystem::exists(dir.path() / "shared-cache"));
  CHECK(read_json(merged / "run.json")["settings"]["cache"] == (dir.path() / "shared-cache").string());
}

TEST_CASE("more shards than units: the empty shards still merge") {
  test::temp_dir dir;
  const auto cases = demo_cases(dir, 3);
  const auto single = dir.path() / "single";
  REQUIRE(run_sqlmorph(eval_args(cases, single)).exit_code == 0);
  check_shards_merge_into(dir, cases, 5, single);
}

TEST_CASE("a merge with a missing, cut or foreign shard refuses and lists the units, --resume repairs it") {
  test::temp_dir dir;
  const auto cases = demo_cases(dir, 30);
  const auto single = dir.path() / "single";
  REQUIRE(run_sqlmorph(eval_args(cases, single)).exit_code == 0);
  std::vector<std::filesystem::path> shards;
  for (int k = 0; k < 3; ++k) {
    shards.push_back(dir.path() / ("shard" + std::to_string(k)));
    REQUIRE(run_shard(cases, shards.back(), k, 3).exit_code == 0);
  }
  const auto out = dir.path() / "merged";

  SUBCASE("a shard not given") {
    const auto r = merge({shards[0], shards[2]}, out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("shard 1/3 not given") != std::string::npos);
    CHECK(r.err.find("units missing") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out / "results.jsonl"));
  }
  SUBCASE("a shard given twice") {
    const auto r = merge({shards[0], shards[1], shards[2], shards[1]}, out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("given twice") != std::string::npos);
    CHECK(r.err.find("is in two shards") != std::string::npos);
  }
  SUBCASE("a shard of another run") {
    test::temp_dir other;
    const auto foreign = other.path() / "shard1";
    REQUIRE(run_shard(demo_cases(other, 31), foreign, 1, 3).exit_code == 0);
    const auto r = merge({shards[0], foreign, shards[2]}, out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("of another run") != std::string::npos);
  }
  SUBCASE("a folder that is not a shard run") {
    const auto r = merge({shards[0], shards[1], single}, out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("not a shard run") != std::string::npos);
  }
  SUBCASE("a line changed to another example") {
    std::string text = test::file_bytes(shards[1] / "results.jsonl");
    const auto at = text.find("\"system\":\"b\"");
    REQUIRE(at != std::string::npos);
    text.replace(at, 12, "\"system\":\"z\"");
    std::ofstream(shards[1] / "results.jsonl", std::ios::trunc | std::ios::binary) << text;
    const auto r = merge(shards, out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("differ from what its shard run wrote (edited?)") != std::string::npos);
    // With the checksums rewritten to match (6 lines a unit), the keys digest still tells.
    std::string checks;
    std::size_t begin = 0;
    while (begin < text.size()) {
      std::size_t end = begin;
      for (int line = 0; line < 6; ++line) end = text.find('\n', end) + 1;
      const std::string_view unit(text.data() + begin, end - begin);
      checks += std::to_string(unit.size()) + "\t" + core::text_content_hash(unit) + "\n";
      begin = end;
    }
    std::ofstream(shards[1] / "results.jsonl.check", std::ios::trunc | std::ios::binary) << checks;
    const auto r2 = merge(shards, out);
    CHECK(r2.exit_code == 2);
    CHECK(r2.err.find("are not the ones its shard run planned") != std::string::npos);
  }
  SUBCASE("an interrupted shard, then resumed") {
    // Cut the shard after its first unit and a half (as an interrupted run leaves it).
    std::string text = test::file_bytes(shards[1] / "results.jsonl");
    std::size_t cut = 0;
    for (int line = 0; line < 9; ++line)
      cut = text.find('\n', cut) + 1;  // 3 systems x 2 techniques = 6 lines a unit
    text.resize(cut);
    std::ofstream(shards[1] / "results.jsonl", std::ios::trunc | std::ios::binary) << text;
    const auto refused = merge(shards, out);
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("(shard 1/3)") != std::string::npos);
    CHECK(refused.err.find("rerun their shards with --resume") != std::string::npos);
    CHECK(refused.err.find("(shard 0/3)") == std::string::npos);
    REQUIRE(run_shard(cases, shards[1], 1, 3, {"--resume"}).exit_code == 0);
    const auto r = merge(shards, out);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    check_same_run(single, out);
  }
}

TEST_CASE("Spider dev, two systems, 4 shards: the merge equals the single-machine run") {
  if (test::skip_without_shared("Spider dev")) return;
  const auto spider = *test::shared_dir() / "benchmarks" / "spider-dev";
  test::temp_dir dir;
  const std::vector<std::string> base = {
      "-q",          "eval",
      "--benchmark", "spider",
      "--gold",      (spider / "dev_gold.sql").string(),
      "--pred",      (spider / "predictions" / "dail-sql-gpt4.sql").string(),
      "--pred",      (spider / "predictions" / "c3-gpt35.sql").string(),
      "--db-root",   (spider / "database").string(),
      "--progress",  "none"};
  auto args = base;
  args.insert(args.end(), {"--out", (dir.path() / "single").string()});
  REQUIRE(run_sqlmorph(args).exit_code == 0);
  std::vector<std::filesystem::path> shards;
  std::set<std::string> databases_per_shard_sum;
  for (int k = 0; k < 4; ++k) {
    shards.push_back(dir.path() / ("shard" + std::to_string(k)));
    args = base;
    args.insert(args.end(), {"--out", shards.back().string(), "--shard", std::to_string(k) + "/4"});
    REQUIRE(run_sqlmorph(args).exit_code == 0);
  }
  const auto r = merge(shards, dir.path() / "merged");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  check_same_run(dir.path() / "single", dir.path() / "merged");
}
