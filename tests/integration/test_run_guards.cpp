// The run's own safety (issue 11, defects 5, 6, 10 and part of 13): absurd job counts and time
// limits refused wherever they are set, one run per output folder, an existing run never silently
// started over, metadata files replaced atomically (a full disk leaves the old file), Lua's
// write_file refusing what is not a regular file, max_rows = 0 meaning no row cap.

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "output/atomic_file.hpp"
#include "runner/output_lock.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}
std::filesystem::path demo_db() {
  return test::build_dir() / "examples" / "demo" / "demo.sqlite";
}

std::filesystem::path two_cases(const test::temp_dir& dir) {
  const auto file = dir.path() / "cases.jsonl";
  std::ofstream out(file);
  // Two gold queries: two units of work (one gold query would make one).
  for (int i = 0; i < 2; ++i) {
    const std::string sql = "SELECT " + std::to_string(i + 1);
    out << json{{"id", i}, {"db", demo_db().string()}, {"gold", sql}, {"pred", sql}}.dump() << "\n";
  }
  return file;
}

std::vector<std::string> eval(const std::filesystem::path& cases, const std::filesystem::path& out,
                              std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--config",     config_arg(),         "-q",         "eval",
                                   "--cases",      cases.string(),       "--out",      out.string(),
                                   "--techniques", "execution_accuracy", "--progress", "none"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

json run_json(const std::filesystem::path& out) {
  return json::parse(test::file_bytes(out / "run.json"));
}

}  // namespace

TEST_CASE(
    "absurd job counts are refused on the command line, in sqlmorph.toml and in Lua, workers <= units") {
  test::temp_dir dir;
  const auto cases = two_cases(dir);
  for (const char* jobs : {"100000", "257", "-1", "1.5", "nan"}) {
    CAPTURE(jobs);
    const auto r = run_sqlmorph(eval(cases, dir.path() / "out", {"-j", jobs}));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("jobs") != std::string::npos);
  }
  // 9223372036854775807 in the configuration: refused, naming the file and line (was recorded as 4294967295).
  write_file(dir.path() / "big.toml", "[run]\njobs = 9223372036854775807\n");
  auto args = eval(cases, dir.path() / "out");
  args[1] = (dir.path() / "big.toml").string();
  const auto big = run_sqlmorph(args);
  CHECK(big.exit_code == 2);
  CHECK(big.err.find("big.toml:2") != std::string::npos);
  CHECK(big.err.find("'jobs'") != std::string::npos);
  // Lua: jobs = 10000, and jobs = 1.5.
  for (const char* jobs : {"10000", "1.5", "-3"}) {
    CAPTURE(jobs);
    write_file(dir.path() / "jobs.lua",
               "sqlmorph.evaluate{ examples = sqlmorph.cases{ file = '" + cases.string() +
                   "' }, techniques = {'execution_accuracy'}, jobs = " + jobs + " }\n");
    const auto lua = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "jobs.lua").string()});
    CHECK(lua.exit_code != 0);
    CHECK(lua.err.find("sqlmorph.evaluate: 'jobs' must be a whole number of workers") != std::string::npos);
  }
  // The most allowed, on 2 examples: 2 workers start, not 256.
  const auto out = dir.path() / "max";
  const auto r = run_sqlmorph(eval(cases, out, {"-j", "256"}));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(run_json(out)["settings"]["jobs"] == 256);
  CHECK(run_json(out)["statistics"]["workers"] == 2);
}

TEST_CASE("time limits must be finite: nan and inf are refused wherever a timeout is set") {
  test::temp_dir dir;
  const auto cases = two_cases(dir);
  for (const char* flag : {"--timeout", "--gold-timeout", "--pred-timeout"}) {
    for (const char* value : {"nan", "inf", "1e300"}) {
      CAPTURE(flag);
      CAPTURE(value);
      const auto r = run_sqlmorph(eval(cases, dir.path() / "out", {flag, value}));
      CHECK(r.exit_code == 2);
    }
  }
  const auto r = run_sqlmorph(eval(cases, dir.path() / "out", {"--timeout", "nan"}));
  CHECK(r.err.find("--timeout must be a number of seconds") != std::string::npos);
  for (const char* value : {"nan", "inf", "-inf"}) {
    CAPTURE(value);
    write_file(dir.path() / "t.toml", std::string("[run]\ntimeout = ") + value + "\n");
    auto args = eval(cases, dir.path() / "out");
    args[1] = (dir.path() / "t.toml").string();
    const auto c = run_sqlmorph(args);
    CHECK(c.exit_code == 2);
    CHECK(c.err.find("t.toml:2") != std::string::npos);
    CHECK(c.err.find("'timeout'") != std::string::npos);
  }
  for (const char* value : {"0/0", "math.huge"}) {
    CAPTURE(value);
    write_file(dir.path() / "t.lua",
               "sqlmorph.evaluate{ examples = sqlmorph.cases{ file = '" + cases.string() +
                   "' }, techniques = {'execution_accuracy'}, timeout = " + value + " }\n");
    const auto lua = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "t.lua").string()});
    CHECK(lua.exit_code != 0);
    CHECK(lua.err.find("sqlmorph.evaluate: 'timeout' must be a number of seconds") != std::string::npos);
  }
}

TEST_CASE("max_rows = 0 means no row cap, a positive cap truncates") {
  const std::string gold = "SELECT name FROM employees";
  const auto compare = [&](const char* max_rows) {
    const auto r = run_sqlmorph({"--config", config_arg(), "-q", "compare", "--db", demo_db().string(),
                                 "--gold", gold, "--pred", gold, "--techniques", "execution_accuracy",
                                 "--json", "--max-rows", max_rows});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return json::parse(r.out)["results"][0];
  };
  const json uncapped = compare("0");
  CHECK(uncapped["status"] == "ok");
  CHECK(uncapped["EX"] == 1);
  const json capped = compare("1");
  CHECK(capped["status"] == "truncated");
}

TEST_CASE("one run per output folder: a second run exits 2 naming the holder") {
  test::temp_dir dir;
  const auto cases = two_cases(dir);
  const auto out = dir.path() / "out";
  std::filesystem::create_directories(out);
  {
    core::output_lock held(out);  // as a run in progress holds it
    const auto r = run_sqlmorph(eval(cases, out));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("another sqlmorph run is writing to " + out.string()) != std::string::npos);
    CHECK(r.err.find("pid " + std::to_string(::getpid())) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out / "results.jsonl"));
    // In the same process too (the Python module, a Lua experiment): the lock is per open file.
    CHECK(test::usage_error_of([&] { core::output_lock again(out); }).find("another sqlmorph run") !=
          std::string::npos);
  }
  // Released (as when the holder ends or is killed): the run goes ahead.
  const auto r = run_sqlmorph(eval(cases, out));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
}

TEST_CASE(
    "an existing run is continued with --resume or replaced with --overwrite, never started over silently") {
  test::temp_dir dir;
  const auto cases = two_cases(dir);
  const auto out = dir.path() / "out";
  REQUIRE(run_sqlmorph(eval(cases, out)).exit_code == 0);
  const std::string first = test::file_bytes(out / "results.jsonl");
  const auto again = run_sqlmorph(eval(cases, out));
  CHECK(again.exit_code == 2);
  CHECK(again.err.find("already holds a run") != std::string::npos);
  CHECK(test::file_bytes(out / "results.jsonl") == first);  // untouched
  CHECK(run_sqlmorph(eval(cases, out, {"--resume", "--overwrite"})).exit_code == 2);
  const auto replaced = run_sqlmorph(eval(cases, out, {"--overwrite"}));
  CHECK_MESSAGE(replaced.exit_code == 0, replaced.err);
  CHECK(test::read_jsonl(out / "results.jsonl").size() == 2);  // replaced, not appended
  CHECK(run_sqlmorph(eval(cases, out, {"--resume"})).exit_code == 0);
  CHECK(test::read_jsonl(out / "results.jsonl").size() == 2);
}

TEST_CASE("metadata files are replaced atomically: a full disk leaves the previous file") {
  test::temp_dir dir;
  const auto file = dir.path() / "run.json";
  core::write_file_atomically(file, "{\"status\": \"complete\"}\n");
  CHECK(test::file_bytes(file) == "{\"status\": \"complete\"}\n");
  // A full disk: writes past 4 KiB fail (RLIMIT_FSIZE; SIGXFSZ ignored so write() returns EFBIG).
  struct rlimit old_limit {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string message =
      test::usage_error_of([&] { core::write_file_atomically(file, std::string(100000, 'x')); });
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  ::signal(SIGXFSZ, old_handler);
  CHECK(message.find("cannot write " + file.string()) != std::string::npos);
  CHECK(test::file_bytes(file) == "{\"status\": \"complete\"}\n");  // the previous content, whole
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) files += e.is_regular_file();
  CHECK(files == 1);  // no temporary file left behind
  // A target that is not a regular file is refused, not replaced.
  CHECK(test::usage_error_of([&] {
          core::write_file_atomically("/dev/null", "x");
        }).find("not a regular file") != std::string::npos);
}

TEST_CASE("Lua's sqlmorph.write_file refuses /proc/self/mem and devices with a clear error") {
  test::temp_dir dir;
  for (const char* target : {"/proc/self/mem", "/dev/null"}) {
    CAPTURE(target);
    write_file(dir.path() / "w.lua", std::string("sqlmorph.write_file('") + target + "', 'x')\n");
    const auto r = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "w.lua").string()});
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(std::string("sqlmorph.write_file: cannot write ") + target) != std::string::npos);
  }
  CHECK(std::filesystem::is_character_file("/dev/null"));
  write_file(dir.path() / "ok.lua",
             "sqlmorph.write_file('" + (dir.path() / "sub" / "x.txt").string() + "', 'hello')\n");
  const auto ok = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "ok.lua").string()});
  CHECK_MESSAGE(ok.exit_code == 0, ok.err);
  CHECK(test::file_bytes(dir.path() / "sub" / "x.txt") == "hello");
}

TEST_CASE("missing databases: a loud warning when every one is missing, exit 2 with --require-databases") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  std::ofstream(cases) << json{{"id", 1},
                               {"db", (dir.path() / "nowhere.sqlite").string()},
                               {"gold", "SELECT 1"},
                               {"pred", "SELECT 1"}}
                              .dump()
                       << "\n"
                       << json{{"id", 2},
                               {"db", (dir.path() / "nowhere.sqlite").string()},
                               {"gold", "SELECT 2"},
                               {"pred", "SELECT 2"}}
                              .dump()
                       << "\n";
  const auto all_missing = run_sqlmorph(eval(cases, dir.path() / "a"));
  CHECK(all_missing.exit_code == 0);
  CHECK(all_missing.err.find("EVERY example's database is missing (nowhere)") != std::string::npos);
  const auto required = run_sqlmorph(eval(cases, dir.path() / "b", {"--require-databases"}));
  CHECK(required.exit_code == 2);
  CHECK(required.err.find("2 of 2 examples have no database (status db_missing: nowhere)") !=
        std::string::npos);
  CHECK(std::filesystem::exists(dir.path() / "b" / "summary.json"));  // the outputs are written first
  // One of two missing: a warning naming it; with the flag, exit 2 all the same.
  std::ofstream(cases, std::ios::app)
      << json{{"id", 3}, {"db", demo_db().string()}, {"gold", "SELECT 1"}, {"pred", "SELECT 1"}}.dump()
      << "\n";
  auto args = eval(cases, dir.path() / "c");
  args.erase(args.begin() + 2);  // without -q: the warning is a warning, which -q hides
  const auto some = run_sqlmorph(args);
  CHECK(some.exit_code == 0);
  CHECK(some.err.find("2 of 3 examples have no database") != std::string::npos);
  CHECK(run_sqlmorph(eval(cases, dir.path() / "d", {"--require-databases"})).exit_code == 2);
  // Every database there: the flag changes nothing.
  CHECK(run_sqlmorph(eval(two_cases(dir), dir.path() / "e", {"--require-databases"})).exit_code == 0);
}

TEST_CASE("a warm gold cache executes no gold query, queries on missing databases counted apart") {
  test::temp_dir dir;
  const auto cases = dir.path() / "cases.jsonl";
  std::ofstream(cases)
      << json{{"id", 1}, {"db", demo_db().string()}, {"gold", "SELECT 1"}, {"pred", "SELECT 1"}}.dump()
      << "\n"
      << json{{"id", 2},
              {"db", (dir.path() / "gone.sqlite").string()},
              {"gold", "SELECT 2"},
              {"pred", "SELECT 2"}}
             .dump()
      << "\n";
  const auto cache = dir.path() / "cache";
  for (const char* name : {"cold", "warm"}) {
    const auto r = run_sqlmorph(eval(cases, dir.path() / name, {"--cache", cache.string()}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  const json cold = run_json(dir.path() / "cold")["statistics"];
  const json warm = run_json(dir.path() / "warm")["statistics"];
  CHECK(cold["gold_executed"] == 1);
  CHECK(warm["gold_executed"] == 0);  // the missing database's gold query was never executed
  CHECK(warm["gold_from_disk_cache"] == 1);
  CHECK(warm["db_missing_queries"] == 1);  // its gold (the prediction is then not run at all)
}

TEST_CASE("a technique file cannot evaluate or write files: only experiment scripts can") {
  test::temp_dir dir;
  for (const char* call :
       {"sqlmorph.write_file('x.txt', 'side effect')", "sqlmorph.evaluate{ examples = {} }"}) {
    CAPTURE(call);
    std::filesystem::create_directories(dir.path() / "techniques");
    write_file(dir.path() / "techniques" / "bad.lua", std::string(call) + "\n");
    write_file(dir.path() / "sqlmorph.toml",
               "[lua]\ntechnique_dirs = [\"" + (dir.path() / "techniques").string() + "\"]\n");
    const auto r = run_sqlmorph({"--config", (dir.path() / "sqlmorph.toml").string(), "techniques"});
    CHECK(r.exit_code != 0);
    CHECK(r.err.find("works in experiment scripts (sqlmorph run SCRIPT.lua), not in technique files") !=
          std::string::npos);
    CHECK(r.err.find("bad.lua") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists("x.txt"));
  }
}
