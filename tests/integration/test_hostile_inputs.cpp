// Hostile and mistaken inputs at the command line: each ends with a clear message and exit code 2
// (or 1 for a script), never a crash, an abort, an endless read or silently lost results.

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

}  // namespace

TEST_CASE("hostile inputs: /dev/zero, a directory and an endless pipe are refused, not read without end") {
  test::temp_dir dir;
  const auto zero = run_sqlmorph(
      {"--config", config_arg(), "eval", "--cases", "/dev/zero", "--out", (dir.path() / "out1").string()});
  CHECK(zero.exit_code == 2);
  CHECK(zero.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
  const auto folder = run_sqlmorph({"--config", config_arg(), "eval", "--cases", dir.path().string(), "--out",
                                    (dir.path() / "out2").string()});
  CHECK(folder.exit_code == 2);
  CHECK(folder.err.find(": is a directory, not a file sqlmorph reads") != std::string::npos);
  // A pipe is read line by line, within the line limit.
  {
    test::endless_fifo fifo(dir.path() / "endless", std::string(4096, '\0'));
    const auto pipe = run_sqlmorph({"--config", config_arg(), "eval", "--cases", fifo.path().string(),
                                    "--out", (dir.path() / "out3").string()});
    CHECK(pipe.exit_code == 2);
    CHECK(pipe.err.find(fifo.path().string() + ":1: line longer than 16777216 bytes") != std::string::npos);
  }
  // The Lua helpers read through the same bounded reader.
  write_file(dir.path() / "zero.lua", "sqlmorph.cases{ file = '/dev/zero' }\n");
  const auto lua = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "zero.lua").string()});
  CHECK(lua.exit_code != 0);
  CHECK(lua.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
  write_file(dir.path() / "bird.json", "[]");
  const auto bird = run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold",
                                  "/dev/zero", "--pred", (dir.path() / "bird.json").string(), "--db-root",
                                  dir.path().string(), "--out", (dir.path() / "out4").string()});
  CHECK(bird.exit_code == 2);
  CHECK(bird.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
  write_file(dir.path() / "gold.sql", "SELECT 1\tdemo\n");
  const auto questions = run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "spider", "--gold",
                                       (dir.path() / "gold.sql").string(), "--pred",
                                       (dir.path() / "gold.sql").string(), "--db-root", dir.path().string(),
                                       "--questions", "/dev/zero", "--out", (dir.path() / "out5").string()});
  CHECK(questions.exit_code == 2);
  CHECK(questions.err.find("/dev/zero: is a character device, not a file sqlmorph reads") !=
        std::string::npos);
}

TEST_CASE(
    "hostile inputs: numbers out of range in any JSON input are an error with its line, never an abort") {
  test::temp_dir dir;
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  const auto eval_cases = [&](const std::string& name, const std::string& text) {
    write_file(dir.path() / name, text);
    return run_sqlmorph({"--config", config_arg(), "eval", "--cases", (dir.path() / name).string(), "--out",
                         (dir.path() / ("out-" + name)).string()});
  };
  const std::string good =
      "{\"id\": \"a\", \"db\": \"" + db + "\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 1\"}\n";
  const auto id =
      eval_cases("id.jsonl", good + "{\"id\":1e999,\"db\":\"x\",\"gold\":\"G\",\"pred\":\"P\"}\n");
  CHECK(id.exit_code == 2);
  CHECK(id.err.find("id.jsonl:2: invalid JSON: number overflow parsing '1e999'") != std::string::npos);
  const auto extra =
      eval_cases("extra.jsonl", "{\"id\":\"b\",\"foo\":1e400,\"db\":\"x\",\"gold\":\"G\",\"pred\":\"P\"}\n");
  CHECK(extra.exit_code == 2);
  CHECK(extra.err.find("extra.jsonl:1: invalid JSON: number overflow parsing '1e400'") != std::string::npos);
  const auto question = eval_cases(
      "question.jsonl", "{\"id\":\"c\",\"question\":-1e309,\"db\":\"x\",\"gold\":\"G\",\"pred\":\"P\"}\n");
  CHECK(question.exit_code == 2);
  CHECK(question.err.find("question.jsonl:1: invalid JSON: number overflow parsing '-1e309'") !=
        std::string::npos);
  const auto deep = eval_cases("deep.jsonl", std::string(100000, '[') + "\n");
  CHECK(deep.exit_code == 2);
  CHECK(deep.err.find("deep.jsonl:1: invalid JSON: nested deeper than 512 levels") != std::string::npos);

  // BIRD: questions and predictions are whole JSON documents; the line is where the number is.
  write_file(
      dir.path() / "questions.json",
      "[\n  {\"question_id\": 0, \"db_id\": \"demo\", \"question\": \"q\", \"SQL\": \"SELECT 1\"}\n]\n");
  write_file(dir.path() / "pred.json", "{\"0\": \"SELECT 1\",\n \"1\": 1e999}\n");
  const auto bird =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold",
                    (dir.path() / "questions.json").string(), "--pred", (dir.path() / "pred.json").string(),
                    "--db-root", dir.path().string(), "--out", (dir.path() / "out-bird").string()});
  CHECK(bird.exit_code == 2);
  CHECK(bird.err.find("pred.json:2: invalid JSON: number overflow parsing '1e999'") != std::string::npos);
  write_file(dir.path() / "questions2.json",
             "[\n  {\"question_id\": 0, \"db_id\": \"demo\",\n   \"question\": \"q\", \"SQL\": 1E+999}\n]\n");
  const auto bird_questions =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold",
                    (dir.path() / "questions2.json").string(), "--pred", (dir.path() / "pred.json").string(),
                    "--db-root", dir.path().string(), "--out", (dir.path() / "out-bird2").string()});
  CHECK(bird_questions.exit_code == 2);
  CHECK(bird_questions.err.find("questions2.json:3: invalid JSON: number overflow parsing '1E+999'") !=
        std::string::npos);

  // Spider's questions (dev.json, read for the judges).
  write_file(dir.path() / "gold.sql", "SELECT 1\tdemo\n");
  write_file(dir.path() / "pred.sql", "SELECT 1\n");
  write_file(dir.path() / "dev.json",
             "[{\"db_id\": \"demo\", \"question\": \"q\", \"query_toks\": [1e999]}]");
  const auto spider =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "spider", "--gold",
                    (dir.path() / "gold.sql").string(), "--pred", (dir.path() / "pred.sql").string(),
                    "--db-root", dir.path().string(), "--questions", (dir.path() / "dev.json").string(),
                    "--out", (dir.path() / "out-spider").string()});
  CHECK(spider.exit_code == 2);
  CHECK(spider.err.find("dev.json:1: invalid JSON: number overflow parsing '1e999'") != std::string::npos);
}

TEST_CASE("mistaken inputs: broken CSV quoting, empty inputs, duplicate BIRD keys, db_id outside the root") {
  test::temp_dir dir;
  const auto p = [&](const char* name) { return (dir.path() / name).string(); };
  const auto out = [&](const char* name) { return (dir.path() / "out" / name).string(); };
  write_file(p("gold.sql"), "SELECT 1\tdemo\nSELECT 2\tdemo\n");
  const auto spider = [&](const std::string& gold, const std::string& pred, const char* o) {
    return run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "spider", "--gold", gold, "--pred",
                         pred, "--db-root", dir.path().string(), "--out", out(o)});
  };
  // A quote inside a quoted field that was not doubled: the line of the broken field.
  write_file(p("pred.csv"), "PREDICTED SQL\n\"SELECT 1\"\n\"SELECT \"name\" FROM t\"\n");
  const auto csv = spider(p("gold.sql"), p("pred.csv"), "csv");
  CHECK(csv.exit_code == 2);
  CHECK(csv.err.find(
            "pred.csv:3: broken quoting: text after the closing quote of a field that starts on line 3") !=
        std::string::npos);

  // Empty inputs are refused, not evaluated as zero examples.
  write_file(p("empty.jsonl"), "\n  \n");
  const auto cases =
      run_sqlmorph({"--config", config_arg(), "eval", "--cases", p("empty.jsonl"), "--out", out("e")});
  CHECK(cases.exit_code == 2);
  CHECK(cases.err.find("empty.jsonl: no case in the file (it is empty or blank)") != std::string::npos);
  write_file(p("empty.sql"), "");
  const auto gold = spider(p("empty.sql"), p("gold.sql"), "g");
  CHECK(gold.exit_code == 2);
  CHECK(gold.err.find("empty.sql: no gold query in the file (it is empty)") != std::string::npos);
  write_file(p("empty.json"), "[]");
  write_file(p("bird_pred.json"), "{}");
  const auto bird_empty =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold", p("empty.json"),
                    "--pred", p("bird_pred.json"), "--db-root", dir.path().string(), "--out", out("b")});
  CHECK(bird_empty.exit_code == 2);
  CHECK(bird_empty.err.find("empty.json: no question in the list (it is empty)") != std::string::npos);

  // BIRD predictions naming a question twice: the last one is used, and the warning names the keys.
  write_file(p("questions.json"),
             "[{\"db_id\": \"demo\", \"question\": \"q\", \"SQL\": \"SELECT 1\"},\n"
             " {\"db_id\": \"demo\", \"question\": \"q\", \"SQL\": \"SELECT 2\"}]");
  write_file(p("dup.json"),
             "{\"0\": \"SELECT 1\",\n \"1\": \"SELECT 5\",\n \"1\": \"SELECT 2\",\n \"0\": \"SELECT 1\"}");
  const auto dup =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold", p("questions.json"),
                    "--pred", p("dup.json"), "--db-root", dir.path().string(), "--techniques",
                    "execution_accuracy", "--out", out("d")});
  CHECK(dup.exit_code == 0);
  CHECK(dup.err.find("dup.json: 2 keys given twice in one object; the last value is used: \"0\", \"1\"") !=
        std::string::npos);

  // A db_id that would reach outside --db-root is refused, naming where it was read.
  write_file(p("escape.sql"), "SELECT 1\tdemo\nSELECT 1\t../../etc\n");
  const auto escape = spider(p("escape.sql"), p("gold.sql"), "x");
  CHECK(escape.exit_code == 2);
  CHECK(escape.err.find("escape.sql:2: db_id '../../etc' is not a database name") != std::string::npos);
  write_file(p("slash.sql"), "SELECT 1\t/etc/passwd\n");
  const auto slash = spider(p("slash.sql"), p("gold.sql"), "s");
  CHECK(slash.exit_code == 2);
  CHECK(slash.err.find("slash.sql:1: db_id '/etc/passwd' is not a database name") != std::string::npos);
  write_file(p("bird_escape.json"), "[{\"db_id\": \"..\", \"question\": \"q\", \"SQL\": \"SELECT 1\"}]");
  const auto bird_escape =
      run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold", p("bird_escape.json"),
                    "--pred", p("bird_pred.json"), "--db-root", dir.path().string(), "--out", out("be")});
  CHECK(bird_escape.exit_code == 2);
  CHECK(bird_escape.err.find("bird_escape.json question 0: db_id '..' is not a database name") !=
        std::string::npos);
  const auto judge = run_sqlmorph({"--config", config_arg(), "judge", "--question", "q", "--sql", "SELECT 1",
                                   "--db-id", "../demo", "--db-root", dir.path().string()});
  CHECK(judge.exit_code == 2);
  CHECK(judge.err.find("--db-id: db_id '../demo' is not a database name") != std::string::npos);
}

TEST_CASE("mistaken configuration: a plugin folder that does not exist is named") {
  test::temp_dir dir;
  const auto missing = dir.path() / "no-such-plugins";
  write_file(dir.path() / "none.toml", "[plugins]\ndirs = [\"" + missing.string() + "\"]\n");
  const auto none = run_sqlmorph({"--config", (dir.path() / "none.toml").string(), "techniques"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("none.toml: no plugin folder exists (" + missing.string() + ")") != std::string::npos);
  write_file(dir.path() / "some.toml",
             "[plugins]\ndirs = [\"" + test::plugin_dir().string() + "\", \"" + missing.string() + "\"]\n");
  const auto some = run_sqlmorph({"--config", (dir.path() / "some.toml").string(), "judge", "--question", "q",
                                  "--sql", "SELECT 1", "--judges", "my_judge"});
  CHECK(some.exit_code == 2);
  CHECK(some.err.find("unknown judge 'my_judge'") != std::string::npos);
  CHECK(some.err.find("plugin folders that do not exist: " + missing.string()) != std::string::npos);
}

TEST_CASE(
    "hostile inputs: a prediction such as SELECT T1.1st is scored, not lexed forever (found by fuzzing)") {
  const auto r = run_sqlmorph({"--config", config_arg(), "compare", "--db",
                               (test::build_dir() / "examples/demo/demo.sqlite").string(), "--gold",
                               "SELECT name FROM employees", "--pred", "SELECT T1.1st FROM employees AS T1",
                               "--techniques", "execution_accuracy,spider_official_exec", "--json"});
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["results"].size() == 2);
  CHECK(j["results"][0]["status"] == "pred_error");
}
