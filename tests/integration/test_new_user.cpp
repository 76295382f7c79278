// What a new user met: options where they are typed, discoverable ways to do things, mistakes
// caught before a run wastes time.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

std::string demo_db() {
  return (test::build_dir() / "examples" / "demo" / "demo.sqlite").string();
}

}  // namespace

TEST_CASE("new user: -q, -v and --config are accepted before and after the subcommand") {
  const std::vector<std::string> pair = {"--db",   demo_db(),  "--gold",       "SELECT 1",
                                         "--pred", "SELECT 1", "--techniques", "execution_accuracy"};
  const auto with = [&](std::vector<std::string> before, std::vector<std::string> after) {
    std::vector<std::string> args = std::move(before);
    args.push_back("compare");
    args.insert(args.end(), pair.begin(), pair.end());
    args.insert(args.end(), after.begin(), after.end());
    return run_sqlmorph(args);
  };
  const auto after = with({}, {"--config", config_arg(), "-v"});
  CHECK(after.exit_code == 0);
  CHECK(after.err.find("debug: configuration: " + config_arg()) != std::string::npos);
  const auto before = with({"--config", config_arg(), "-v"}, {});
  CHECK(before.exit_code == 0);
  CHECK(before.err.find("debug: configuration: " + config_arg()) != std::string::npos);
  const auto quiet = with({"--config", config_arg()}, {"-q"});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.out.find("execution_accuracy") != std::string::npos);
  // --config after the subcommand is really used: a file that does not parse is refused.
  test::temp_dir dir;
  write_file(dir.path() / "bad.toml", "[run]\nnope = 1\n");
  const auto bad = with({}, {"--config", (dir.path() / "bad.toml").string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.toml:2:1: unknown key 'nope' in [run]") != std::string::npos);
  // `run`: global options before or after the script; other options are refused, not dropped.
  write_file(dir.path() / "args.lua", "print(table.concat(arg, '|'))\n");
  const auto run =
      run_sqlmorph({"run", (dir.path() / "args.lua").string(), "a", "-q", "b", "--config", config_arg()});
  CHECK(run.exit_code == 0);
  CHECK(run.out == "a|b\n");
  const auto unknown = run_sqlmorph({"run", (dir.path() / "args.lua").string(), "a", "--frobnicate"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("arguments neither sqlmorph nor the script can take: --frobnicate") !=
        std::string::npos);
}

TEST_CASE("new user: --techniques none runs only the judges") {
  test::temp_dir dir;
  write_file(dir.path() / "cases.jsonl",
             "{\"id\": \"a\", \"db\": \"" + demo_db() +
                 "\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT name FROM employees\"}\n");
  const auto out = dir.path() / "out";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", (dir.path() / "cases.jsonl").string(),
                    "--techniques", "none", "--judges", "sql_correctness", "--out", out.string()});
  REQUIRE(r.exit_code == 0);
  const auto records = test::read_jsonl(out / "results.jsonl");
  REQUIRE(records.size() == 1);
  CHECK(records[0]["technique"] == "judge:sql_correctness");
  const auto nothing =
      run_sqlmorph({"--config", config_arg(), "eval", "--cases", (dir.path() / "cases.jsonl").string(),
                    "--techniques", "none", "--out", (dir.path() / "out2").string()});
  CHECK(nothing.exit_code == 2);
  CHECK(nothing.err.find("nothing to do: --techniques none and no --judges") != std::string::npos);
  const auto mixed =
      run_sqlmorph({"--config", config_arg(), "eval", "--cases", (dir.path() / "cases.jsonl").string(),
                    "--techniques", "none,malloy", "--out", (dir.path() / "out3").string()});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("'none' means no technique; it cannot be listed with others") != std::string::npos);
}

TEST_CASE("new user: sqlmorph techniques --json lists every technique with its components") {
  const auto text = run_sqlmorph({"--config", config_arg(), "techniques"});
  REQUIRE(text.exit_code == 0);
  const auto r = run_sqlmorph({"--config", config_arg(), "techniques", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["techniques"].is_array());
  CHECK(j["techniques"].size() >= 10);
  for (const json& t : j["techniques"]) {
    CAPTURE(t.dump());
    CHECK(text.out.find(t["name"].get<std::string>() + "  (") != std::string::npos);
    CHECK(t["columns"]["name"].is_string());
    CHECK(t["rows"]["name"].is_string());
    CHECK(t["scorer"]["name"].is_string());
  }
  CHECK(j["techniques"][0]["name"] == "execution_accuracy");
  CHECK(j["techniques"][0]["columns"]["name"] == "positional");
}
