// What a new user met: options where they are typed, discoverable ways to do things, mistakes
// caught before a run wastes time.

#include <doctest/doctest.h>

#include <sstream>

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
  // Built into the engine, not assembled from components: listed apart, in both forms.
  REQUIRE(j["built_in"].size() == 1);
  CHECK(j["built_in"][0]["name"] == "spider_exact_match");
  CHECK(j["built_in"][0]["description"].get<std::string>().find("tables.json") != std::string::npos);
  CHECK(text.out.find("spider_exact_match  (built in)") != std::string::npos);
}

TEST_CASE(
    "new user: a file of one benchmark's format given as another's is refused, naming the right option") {
  test::temp_dir dir;
  const auto p = [&](const char* name) { return (dir.path() / name).string(); };
  write_file(p("gold.sql"), "SELECT count(*) FROM employees\tdemo\n");
  write_file(p("pred.sql"), "SELECT count(*) FROM employees\n");
  write_file(p("bird_pred.json"), "{\"0\": \"SELECT count(*) FROM employees\\t----- bird -----\\tdemo\"}");
  write_file(p("questions.json"),
             "[{\"question_id\": 0, \"db_id\": \"demo\", \"question\": \"q\", \"SQL\": \"SELECT 1\"}]");
  write_file(p("cases.jsonl"), "{\"id\": \"a\", \"db\": \"" + demo_db() +
                                   "\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 1\"}\n");
  int n = 0;
  const auto eval = [&](const std::vector<std::string>& args) {
    std::vector<std::string> all = {"--config", config_arg(), "-q",
                                    "eval",     "--out",      p("out") + std::to_string(++n)};
    all.insert(all.end(), args.begin(), args.end());
    return run_sqlmorph(all);
  };
  const std::vector<std::string> spider = {"--benchmark", "spider",    "--gold",
                                           p("gold.sql"), "--db-root", dir.path().string()};
  const auto with = [](std::vector<std::string> a, std::vector<std::string> b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  // BIRD predictions as Spider predictions: before, every example scored 0 with exit code 0.
  const auto bird_as_spider = eval(with(spider, {"--pred", p("bird_pred.json")}));
  CHECK(bird_as_spider.exit_code == 2);
  CHECK(bird_as_spider.err.find(
            "bird_pred.json:1: this is JSON, not Spider predictions (one SQL per line): BIRD "
            "predictions go with --benchmark bird") != std::string::npos);
  const auto cases_as_spider = eval(with(spider, {"--pred", p("cases.jsonl")}));
  CHECK(cases_as_spider.exit_code == 2);
  CHECK(cases_as_spider.err.find("cases.jsonl:1: this is JSON, not Spider predictions") != std::string::npos);
  const auto questions_as_gold = eval({"--benchmark", "spider", "--gold", p("questions.json"), "--pred",
                                       p("pred.sql"), "--db-root", dir.path().string()});
  CHECK(questions_as_gold.exit_code == 2);
  CHECK(
      questions_as_gold.err.find("questions.json:1: expected 'SQL<TAB>db_id' (Spider's gold format); this is "
                                 "JSON: BIRD questions go with --benchmark bird") != std::string::npos);
  const auto spider_as_cases = eval({"--cases", p("gold.sql")});
  CHECK(spider_as_cases.exit_code == 2);
  CHECK(
      spider_as_cases.err.find("gold.sql:1: expected one JSON object per line (the cases format); Spider and "
                               "BIRD files go with --benchmark") != std::string::npos);
  const std::vector<std::string> bird = {"--benchmark", "bird", "--db-root", dir.path().string()};
  const auto spider_as_bird = eval(with(bird, {"--gold", p("gold.sql"), "--pred", p("bird_pred.json")}));
  CHECK(spider_as_bird.exit_code == 2);
  CHECK(spider_as_bird.err.find(
            "gold.sql: not JSON, but BIRD's questions are a JSON document: Spider files go with "
            "--benchmark spider") != std::string::npos);
  const auto swapped = eval(with(bird, {"--gold", p("bird_pred.json"), "--pred", p("questions.json")}));
  CHECK(swapped.exit_code == 2);
  CHECK(swapped.err.find(
            "bird_pred.json: expected a JSON list of questions (an object is a predictions file: it "
            "goes with --pred)") != std::string::npos);
  const auto questions_as_pred =
      eval(with(bird, {"--gold", p("questions.json"), "--pred", p("questions.json")}));
  CHECK(questions_as_pred.exit_code == 2);
  CHECK(questions_as_pred.err.find("(a list is a questions file: it goes with --gold)") != std::string::npos);
  // The right files are accepted.
  CHECK(eval(with(spider, {"--pred", p("pred.sql"), "--techniques", "execution_accuracy"})).exit_code == 0);
  CHECK(eval(with(bird, {"--gold", p("questions.json"), "--pred", p("bird_pred.json"), "--techniques",
                         "execution_accuracy"}))
            .exit_code == 0);
}

TEST_CASE("new user: make run builds only the CLI, its plugins and the demo database, make test builds all") {
  const auto build_lines = [](const char* target) {
    const auto r =
        test::run_program("/usr/bin/make", {"-n", "-C", test::source_dir().string(), target, "JOBS=2"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    std::vector<std::string> out;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("cmake --build", 0) == 0) out.push_back(line);
    }
    return out;
  };
  CHECK(build_lines("run") ==
        std::vector<std::string>{"cmake --build --preset default -j 2 --target sqlmorph demo_database"});
  CHECK(build_lines("test") == std::vector<std::string>{"cmake --build --preset default -j 2"});
}
