// What the sqlmorph executable says when its command line is wrong: every error starts with
// "sqlmorph: error:", a mistyped option or command gets the nearest one, and a number out of range
// gets its bounds in words (exit code 2 each time).

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using test::run_sqlmorph;

namespace {

struct refusal {
  std::vector<std::string> args;
  std::string message;  // what stderr must hold, after "sqlmorph: error: "
};

void check_refused(const refusal& r) {
  const auto result = run_sqlmorph(r.args);
  std::string command;
  for (const std::string& a : r.args) command += a + " ";
  CAPTURE(command);
  CAPTURE(result.err);
  CHECK(result.exit_code == 2);
  CHECK(result.err.rfind("sqlmorph: error: ", 0) == 0);
  CHECK(result.err.find(r.message) != std::string::npos);
  // Bounds in words: never the 300 digits of the largest double.
  CHECK(result.err.size() < 600);
}

const std::vector<std::string> compare_args = {"compare",  "--db",   "x.sqlite", "--gold",
                                               "SELECT 1", "--pred", "SELECT 1"};

std::vector<std::string> compare_with(std::vector<std::string> extra) {
  std::vector<std::string> args = compare_args;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace

TEST_CASE("command-line errors: a mistyped option or command gets the nearest one of its command") {
  const std::vector<refusal> table = {
      {compare_with({"--techniqes", "all"}),
       "unrecognized arguments to sqlmorph compare: --techniqes all (did you mean --techniques?)"},
      {compare_with({"--techniqes=all"}), "(did you mean --techniques?)"},
      {compare_with({"--tech", "all"}), "(did you mean --techniques?)"},
      {compare_with({"-techniques", "all"}), "(did you mean --techniques?)"},
      {compare_with({"--timout", "3", "--penalise-extra-pred-cols", "false"}),
       "(did you mean --timeout for --timout, --penalize-extra-pred-cols for --penalise-extra-pred-cols?)"},
      // A mistyped option is reported before the required one it leaves missing.
      {{"compare", "--db", "x.sqlite", "--gold", "SELECT 1", "--prd", "SELECT 1"},
       "unrecognized arguments to sqlmorph compare: --prd SELECT 1 (did you mean --pred?)"},
      {{"suite", "build", "--out", "x", "--max-candiates", "3"},
       "to sqlmorph suite build: --max-candiates 3 (did you mean --max-candidates?)"},
      {{"eval", "--cases", "c.jsonl", "--keep-row", "3"}, "(did you mean --keep-rows?)"},
      {{"evaluate"},
       "'evaluate' is not a command of sqlmorph (did you mean eval?); the commands: compare, eval"},
      {{"comapre"}, "'comapre' is not a command of sqlmorph (did you mean compare?)"},
      {{"suite", "biuld"},
       "'biuld' is not a command of sqlmorph suite (did you mean build?); the commands: build"},
      {{}, "sqlmorph needs a command: compare, eval, "},
      {{"suite"}, "sqlmorph suite needs a command: build"},
      // Other errors keep CLI11's words, after the prefix.
      {{"compare", "--db", "x.sqlite", "--gold", "SELECT 1"}, "--pred is required"},
      {compare_with({"--penalize-extra-pred-cols", "maybe"}), "--penalize-extra-pred-cols"},
  };
  for (const refusal& r : table) check_refused(r);

  // Nothing close: no guess.
  const auto far = run_sqlmorph(compare_with({"--zzzzzzzz"}));
  CHECK(far.exit_code == 2);
  CHECK(far.err.find("unrecognized argument to sqlmorph compare: --zzzzzzzz") != std::string::npos);
  CHECK(far.err.find("did you mean") == std::string::npos);
  const auto unknown = run_sqlmorph({"frobnicate"});
  CHECK(unknown.err.find("'frobnicate' is not a command of sqlmorph; the commands: ") != std::string::npos);
  // Where the help is.
  CHECK(far.err.find("`sqlmorph compare --help` shows the usage") != std::string::npos);
}

TEST_CASE("command-line errors: numbers out of range are refused with their bounds in words") {
  const std::string timeout_bounds = "must be a number of seconds from 0 (no limit) to 604800";
  const std::vector<refusal> table = {
      {compare_with({"--timeout", "-1"}), "--timeout " + timeout_bounds + ", not -1"},
      {compare_with({"--timeout", "1e9"}), "--timeout " + timeout_bounds + ", not 1000000000"},
      {compare_with({"--timeout", "nan"}), "--timeout " + timeout_bounds + ", not nan"},
      {compare_with({"--timeout", "ten"}), "--timeout must be a number, not 'ten'"},
      {compare_with({"--gold-timeout", "-0.5"}), "--gold-timeout " + timeout_bounds + ", not -0.5"},
      {compare_with({"--pred-timeout", "inf"}), "--pred-timeout " + timeout_bounds + ", not inf"},
      // An unsigned option read "-1" as 2^64-1.
      {compare_with({"--max-rows", "-1"}),
       "--max-rows must be a whole number of rows (0: no row cap), not -1"},
      {compare_with({"--max-rows", "2.5"}),
       "--max-rows must be a whole number of rows (0: no row cap), not 2.5"},
      {{"eval", "--cases", "c.jsonl", "--jobs", "-1"},
       "--jobs must be a whole number of workers from 0 (one per hardware thread) to 256, not -1"},
      {{"eval", "--cases", "c.jsonl", "-j", "4294967296"},
       "--jobs must be a whole number of workers from 0 (one per hardware thread) to 256, not 4294967296"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--timeout", "0"},
       "--timeout must be a number of seconds above 0 (at most 604800), not 0"},
      {{"judge", "--question", "q", "--sql", "SELECT 1", "--timeout", "700000"},
       "--timeout " + timeout_bounds + ", not 700000"},
      {{"report", "run", "--rows", "-1"},
       "--rows must be a whole number from 0 to 18446744073709551615, not -1"},
  };
  for (const refusal& r : table) check_refused(r);
}

TEST_CASE("command-line errors: a number is read as written, in decimal (010 is ten, not octal eight)") {
  test::temp_dir dir;
  const auto r = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "eval", "--cases",
                               (test::source_dir() / "examples/demo/cases.jsonl").string(), "--db-root",
                               (test::build_dir() / "examples/demo").string(), "--techniques",
                               "execution_accuracy", "--out", (dir.path() / "out").string(), "--progress",
                               "none", "--jobs", "010", "--max-rows", "010", "--timeout", "1e0"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto settings = nlohmann::json::parse(test::file_bytes(dir.path() / "out/run.json"))["settings"];
  CHECK(settings["jobs"] == 10);
  CHECK(settings["gold_limits"]["max_rows"] == 10);
  CHECK(settings["pred_limits"]["timeout_seconds"] == 1.0);
}
