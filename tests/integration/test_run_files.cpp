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

// A copy of the demo database (which the test then changes).
std::filesystem::path demo_copy(const test::temp_dir& dir) {
  const auto db = dir.path() / "demo.sqlite";
  std::filesystem::copy_file(demo_db(), db);
  return db;
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

namespace {

// A cases file of `count` questions on `db`, two systems answering each (one unit per question).
std::filesystem::path two_system_cases(const test::temp_dir& dir, const std::filesystem::path& db,
                                       int count) {
  const auto file = dir.path() / "cases.jsonl";
  std::ofstream out(file);
  for (int i = 0; i < count; ++i) {
    for (const char* system : {"a", "b"}) {
      out << json{{"id", "q" + std::to_string(i)},
                  {"system", system},
                  {"db", db.string()},
                  {"gold", "SELECT count(*) + " + std::to_string(i) + " FROM employees"},
                  {"pred", std::string(system) == "a" ? "SELECT " + std::to_string(i) : "SELECT 1"}}
                 .dump()
          << "\n";
    }
  }
  return file;
}

test::command_result run_shard(const std::filesystem::path& cases, const std::filesystem::path& out, int k,
                               int n, std::vector<std::string> extra = {}) {
  auto args = eval_args(cases, out, {"-q", "--shard", std::to_string(k) + "/" + std::to_string(n)});
  args.insert(args.end(), extra.begin(), extra.end());
  return run_sqlmorph(args);
}

// `cases` run as shards 0/2 and 1/2 in dir/shard0 and dir/shard1.
std::vector<std::filesystem::path> two_shards(const test::temp_dir& dir, const std::filesystem::path& cases) {
  std::vector<std::filesystem::path> shards;
  for (int k = 0; k < 2; ++k) {
    shards.push_back(dir.path() / ("shard" + std::to_string(k)));
    const auto r = run_shard(cases, shards.back(), k, 2);
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  return shards;
}

std::vector<std::string> merge_args(const std::vector<std::filesystem::path>& shards,
                                    const std::filesystem::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"-q", "merge"};
  for (const auto& s : shards) args.push_back(s.string());
  args.insert(args.end(), {"--out", out.string()});
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// sqlmorph under an address-space limit of `megabytes` (not under AddressSanitizer, whose shadow
// memory needs terabytes of address space).
test::command_result run_sqlmorph_limited(const std::vector<std::string>& args, int megabytes) {
#if defined(__SANITIZE_ADDRESS__)
  (void)megabytes;
  return run_sqlmorph(args);
#else
  std::vector<std::string> shell = {"-c", "ulimit -v " + std::to_string(megabytes * 1024) + " && exec \"$@\"",
                                    "sh", test::sqlmorph_binary().string()};
  shell.insert(shell.end(), args.begin(), args.end());
  return test::run_program("/bin/sh", shell);
#endif
}

void edit_json(const std::filesystem::path& file, const std::function<void(json&)>& edit) {
  json j = read_json(file);
  edit(j);
  test::write_file(file, j.dump(2));
}

}  // namespace

TEST_CASE(
    "merge re-checks every number of the shards' run.json against the others and the files, in bounded "
    "memory") {
  test::temp_dir dir;
  const auto cases = two_system_cases(dir, demo_db(), 6);
  const std::vector<std::filesystem::path> shards = two_shards(dir, cases);
  const auto out = dir.path() / "merged";
  // The untouched shards merge within the limit.
  const int limit_mb = 1024;
  const auto good = run_sqlmorph_limited(merge_args(shards, out), limit_mb);
  REQUIRE_MESSAGE(good.exit_code == 0, good.err);
  const auto manifest = [&](int k) { return shards[static_cast<std::size_t>(k)] / "run.json"; };
  const std::string original0 = test::file_bytes(manifest(0));
  const std::string original1 = test::file_bytes(manifest(1));
  struct tamper {
    const char* what;
    std::function<void(json&)> edit;
    bool both;             // in both shards' run.json (so that they agree)
    const char* expected;  // in the message, after the file's name
  };
  const std::vector<tamper> cases_of_tampering = {
      {"count", [](json& j) { j["shard"]["count"] = 1000000000; }, true, "shard.count 1000000000"},
      {"run_units", [](json& j) { j["shard"]["run_units"] = 100000000; }, true, "shard.run_units 100000000"},
      {"run_units and run_examples",
       [](json& j) {
         j["shard"]["run_units"] = 100000000;
         j["shard"]["run_examples"] = 100000000;
       },
       true, "shard.run_units says 100000000 units, but the 2 shards' run.json list 6"},
      {"run_examples", [](json& j) { j["shard"]["run_examples"] = 4000000000000LL; }, true,
       "shard.run_examples says 4000000000000 examples, but the 2 shards' run.json list 12"},
      {"a unit's examples, the sum kept",  // (their lines would overflow a count)
       [](json& j) {
         j["shard"]["run_examples"] = 4000000000000000010LL;
         if (j["shard"]["index"] == 0) j["shard"]["units"][0][1] = 4000000000000000000LL;
       },
       true, "units missing"},
      {"a unit's index", [](json& j) { j["shard"]["units"][0][0] = j["shard"]["run_units"]; }, false,
       "shard.units[0]: unit 6 beyond run_units 6"},
      {"units out of order",
       [](json& j) {
         auto& units = j["shard"]["units"];
         if (units.size() > 1)
           std::swap(units[0], units[1]);
         else
           units.push_back(units[0]);
       },
       false, "not after unit"},
  };
  for (const tamper& t : cases_of_tampering) {
    const std::string tampered = t.what;
    CAPTURE(tampered);
    edit_json(manifest(0), t.edit);
    if (t.both) edit_json(manifest(1), t.edit);
    const auto r = run_sqlmorph_limited(merge_args(shards, out, {"--overwrite"}), limit_mb);
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find(t.expected) != std::string::npos, r.err);
    if (std::string(t.expected).find("shard") != std::string::npos)
      CHECK_MESSAGE(r.err.find(manifest(0).string()) != std::string::npos, r.err);
    // With shard 1 not given, its units cannot be counted: the message says how many are missing
    // without listing them all.
    const auto alone = run_sqlmorph_limited(merge_args({shards[0]}, out, {"--overwrite"}), limit_mb);
    CHECK(alone.exit_code == 2);
    CHECK(alone.err.size() < 20000);
    test::write_file(manifest(0), original0);
    test::write_file(manifest(1), original1);
  }
  // run_units claimed by both and shard 1 not given: counted, the first 50 named.
  for (int k = 0; k < 2; ++k) {
    edit_json(manifest(k), [](json& j) {
      j["shard"]["run_units"] = 100000000;
      j["shard"]["run_examples"] = 100000000;
    });
  }
  const auto missing = run_sqlmorph_limited(merge_args({shards[0]}, out, {"--overwrite"}), limit_mb);
  CHECK(missing.exit_code == 2);
  CHECK_MESSAGE(missing.err.find("shard 1/2 not given") != std::string::npos, missing.err);
  CHECK(missing.err.find(" of 100000000 units missing") != std::string::npos);
  CHECK(missing.err.find("more") != std::string::npos);
  CHECK(missing.err.size() < 20000);
}

TEST_CASE("merge takes the output folder's run.lock as eval does, and reads no shard a run is writing") {
  test::temp_dir dir;
  const auto cases = two_system_cases(dir, demo_db(), 4);
  const std::vector<std::filesystem::path> shards = two_shards(dir, cases);
  // An eval writing to `busy` (it holds run.lock; the same lock in this process stands for it).
  const auto busy = dir.path() / "busy";
  std::filesystem::create_directories(busy);
  {
    const core::output_lock eval_running(busy);
    const auto r = run_sqlmorph(merge_args(shards, busy, {"--overwrite"}));
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find("another sqlmorph run is writing to " + busy.string()) != std::string::npos,
                  r.err);
    CHECK_FALSE(std::filesystem::exists(busy / "results.jsonl"));
    CHECK_FALSE(std::filesystem::exists(busy / "run.json"));
  }
  // A shard being written (resumed, say): not read.
  {
    const core::output_lock shard_running(shards[1]);
    const auto r = run_sqlmorph(merge_args(shards, dir.path() / "merged"));
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find("a sqlmorph run is writing to " + shards[1].string()) != std::string::npos,
                  r.err);
  }
  // Released: the merge goes ahead, and holds the lock while it writes (an eval then is refused).
  const auto r = run_sqlmorph(merge_args(shards, busy, {"--overwrite"}));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(std::filesystem::exists(busy / "run.lock"));
  CHECK(read_json(busy / "run.json")["status"] == "complete");
}

TEST_CASE("the run fingerprint covers the databases' contents: merge refuses shards of different copies") {
  test::temp_dir dir;
  const auto db = demo_copy(dir);
  const auto cases = two_system_cases(dir, db, 6);
  const auto single = dir.path() / "single";
  REQUIRE(run_sqlmorph(eval_args(cases, single, {"-q"})).exit_code == 0);
  const auto shard0 = dir.path() / "shard0";
  const auto shard1 = dir.path() / "shard1";
  REQUIRE(run_shard(cases, shard0, 0, 2).exit_code == 0);
  // The database changes (a row more) before shard 1 runs: shard 1's results come from other data.
  test::create_sqlite(db, "INSERT INTO employees(name, salary) VALUES ('one more', 1)");
  REQUIRE(run_shard(cases, shard1, 1, 2).exit_code == 0);
  const auto r = run_sqlmorph(merge_args({shard0, shard1}, dir.path() / "merged"));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find(shard0.string() + " (shard 0/2) and " + shard1.string() +
                           " (shard 1/2) were computed on different contents of a database: " +
                           db.string()) != std::string::npos,
                r.err);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "merged" / "results.jsonl"));
  // run.json keeps each database's hash.
  const json hashes = read_json(single / "run.json")["database_hashes"];
  REQUIRE(hashes.size() == 1);
  CHECK(hashes[db.string()].get<std::string>().size() == 32);
  // Shard 0 run again on the database as it is now: the shards merge.
  REQUIRE(run_shard(cases, shard0, 0, 2, {"--overwrite"}).exit_code == 0);
  const auto again = run_sqlmorph(merge_args({shard0, shard1}, dir.path() / "merged"));
  CHECK_MESSAGE(again.exit_code == 0, again.err);
  CHECK(read_json(dir.path() / "merged" / "run.json")["database_hashes"][db.string()] != hashes[db.string()]);
}

TEST_CASE("--resume refuses a run whose database changed since it began, naming the database") {
  test::temp_dir dir;
  const auto db = demo_copy(dir);
  const auto cases = two_system_cases(dir, db, 3);
  const auto out = dir.path() / "out";
  REQUIRE(run_sqlmorph(eval_args(cases, out, {"-q"})).exit_code == 0);
  CHECK(run_sqlmorph(eval_args(cases, out, {"-q", "--resume"})).exit_code == 0);  // unchanged: resumes
  const std::string results = test::file_bytes(out / "results.jsonl");
  test::create_sqlite(db, "DELETE FROM employees WHERE rowid = 1");
  const auto r = run_sqlmorph(eval_args(cases, out, {"-q", "--resume"}));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(
      r.err.find("cannot resume the run in " + out.string() +
                 ": a database changed since it began: " + db.string() + " (content ") != std::string::npos,
      r.err);
  CHECK(test::file_bytes(out / "results.jsonl") == results);  // untouched
}

TEST_CASE("--resume without a readable run.json refuses a folder holding results, saying how to start over") {
  test::temp_dir dir;
  const auto cases = two_system_cases(dir, demo_db(), 3);
  const auto out = dir.path() / "out";
  // Every query timed out (a limit of a microsecond)...
  const auto first = run_sqlmorph(eval_args(cases, out, {"-q", "--timeout", "0.000001"}));
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const std::string results = test::file_bytes(out / "results.jsonl");
  const std::string manifest = test::file_bytes(out / "run.json");
  // ... then run.json removed, emptied, cut short or without its fingerprint, and the run "resumed"
  // with a limit of 30 s: the timeouts must not be kept as this run's results.
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"removed", ""},
      {"is empty", ""},
      {"is not a JSON object", manifest.substr(0, manifest.size() / 2)},
      {"has no fingerprint", "{\"status\": \"complete\"}"}};
  for (const auto& [problem, text] : damages) {
    CAPTURE(problem);
    if (problem == "removed")
      std::filesystem::remove(out / "run.json");
    else
      test::write_file(out / "run.json", text);
    const auto r = run_sqlmorph(eval_args(cases, out, {"-q", "--timeout", "30", "--resume"}));
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(
        r.err.find("cannot resume the run in " + out.string() + ": its run.json " +
                   (problem == "removed" ? std::string("is missing") : problem)) != std::string::npos,
        r.err);
    CHECK(r.err.find("--overwrite") != std::string::npos);
    CHECK(test::file_bytes(out / "results.jsonl") == results);  // untouched
  }
  // Started over as the message says: the new limit's results.
  const auto over = run_sqlmorph(eval_args(cases, out, {"-q", "--timeout", "30", "--overwrite"}));
  REQUIRE_MESSAGE(over.exit_code == 0, over.err);
  CHECK(read_json(out / "run.json")["status"] == "complete");
  // --resume into a folder holding no run yet starts it (a cluster's task always passes --resume),
  // and so into one whose run.json was written but no result yet.
  const auto fresh = dir.path() / "fresh";
  CHECK(run_sqlmorph(eval_args(cases, fresh, {"-q", "--resume"})).exit_code == 0);
  std::filesystem::remove(fresh / "results.jsonl");
  std::filesystem::remove(fresh / "examples.jsonl");
  test::write_file(fresh / "run.json", "");
  CHECK(run_sqlmorph(eval_args(cases, fresh, {"-q", "--resume"})).exit_code == 0);
}

TEST_CASE("run.json says complete only once summary.json is written: a failed summary leaves it failed") {
  test::temp_dir dir;
  const auto cases = two_system_cases(dir, demo_db(), 2);
  const auto out = dir.path() / "out";
  // summary.json cannot be written — here because a folder has its name, as a full disk would make
  // its write fail (write_file_atomically's error is the same either way: tested on a full disk in
  // test_run_guards.cpp).
  std::filesystem::create_directories(out / "summary.json");
  const auto r = run_sqlmorph(eval_args(cases, out, {"-q"}));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("cannot write " + (out / "summary.json").string()) != std::string::npos, r.err);
  CHECK(read_json(out / "run.json")["status"] == "failed");
  // Once it can be written, --resume finishes the run.
  std::filesystem::remove(out / "summary.json");
  const auto resumed = run_sqlmorph(eval_args(cases, out, {"-q", "--resume"}));
  CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
  CHECK(read_json(out / "run.json")["status"] == "complete");
  CHECK(std::filesystem::is_regular_file(out / "summary.json"));
}

TEST_CASE("--keep-rows and --show-rows say what 0 means: no rows kept") {
  test::temp_dir dir;
  const auto cases = two_system_cases(dir, demo_db(), 1);
  const auto bad = run_sqlmorph(eval_args(cases, dir.path() / "bad", {"--keep-rows", "-1"}));
  CHECK(bad.exit_code == 2);
  CHECK_MESSAGE(
      bad.err.find("--keep-rows must be a whole number of rows (0: none), not -1") != std::string::npos,
      bad.err);
  CHECK(bad.err.find("no row cap") == std::string::npos);
  const auto show = run_sqlmorph({"--config", config_arg(), "compare", "--db", demo_db().string(), "--gold",
                                  "SELECT 1", "--pred", "SELECT 1", "--show-rows", "1.5"});
  CHECK(show.exit_code == 2);
  CHECK(show.err.find("--show-rows must be a whole number of rows (0: none), not 1.5") != std::string::npos);
  // 0 keeps none: the evidence has the row count, no rows.
  const auto none = dir.path() / "none";
  REQUIRE(run_sqlmorph(eval_args(cases, none, {"-q", "--keep-rows", "0"})).exit_code == 0);
  const json evidence = test::read_jsonl(none / "examples.jsonl").at(0);
  CHECK(evidence["gold_result"]["row_count"] == 1);
  CHECK(evidence["gold_result"].value("rows", json::array()).empty());
  const auto help = run_sqlmorph({"eval", "--help"});
  CHECK(help.out.find("0: none") != std::string::npos);
}

TEST_CASE("report refuses a folder given twice and two folders holding one system, naming them") {
  test::temp_dir dir;
  const auto run_of = [&](const std::string& name, const std::string& system) {
    const auto cases = dir.path() / (name + ".jsonl");
    test::write_file(cases, json{{"id", 1},
                                 {"system", system},
                                 {"db", demo_db().string()},
                                 {"gold", "SELECT 1"},
                                 {"pred", "SELECT 1"}}
                                    .dump() +
                                "\n");
    const auto out = dir.path() / name;
    REQUIRE(run_sqlmorph(eval_args(cases, out, {"-q"})).exit_code == 0);
    return out;
  };
  const auto a = run_of("a", "alpha");
  const auto b = run_of("b", "beta");
  const auto a_again = run_of("a_again", "alpha");
  const auto report = [&](const std::vector<std::filesystem::path>& folders) {
    std::vector<std::string> args = {"report"};
    for (const auto& f : folders) args.push_back(f.string());
    args.insert(args.end(), {"-o", (dir.path() / "report.html").string()});
    return run_sqlmorph(args);
  };
  const auto twice = report({a, a});
  CHECK(twice.exit_code == 2);
  CHECK_MESSAGE(twice.err.find("report: " + a.string() + " is given twice") != std::string::npos, twice.err);
  const auto spelled = report({a, a / "." / ".." / "a"});
  CHECK(spelled.exit_code == 2);
  CHECK(spelled.err.find("is given twice (as " + a.string() + ")") != std::string::npos);
  const auto same_system = report({a, b, a_again});
  CHECK(same_system.exit_code == 2);
  CHECK_MESSAGE(same_system.err.find("report: " + a.string() + " and " + a_again.string() +
                                     " both hold system 'alpha'") != std::string::npos,
                same_system.err);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "report.html"));
  const auto fine = report({a, b});
  CHECK_MESSAGE(fine.exit_code == 0, fine.err);
}
