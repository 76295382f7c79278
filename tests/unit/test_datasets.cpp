// Reading benchmarks: the JSONL cases format, Spider gold/prediction files, CSV predictions, BIRD
// prediction keys.

#include <doctest/doctest.h>

#include <fstream>

#include "datasets/bird_files.hpp"
#include "datasets/cases_file.hpp"
#include "datasets/csv.hpp"
#include "datasets/spider_files.hpp"
#include "errors.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {
std::filesystem::path write(const test::temp_dir& dir, const std::string& name, const std::string& text) {
  const auto file = dir.path() / name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}
}  // namespace

TEST_CASE("cases files: fields, relative database paths, optional fields") {
  test::temp_dir dir;
  const auto file =
      write(dir, "cases.jsonl",
            "{\"id\": \"a\", \"db\": \"dbs/x.sqlite\", \"gold\": \"SELECT 1\", \"pred\": \"SELECT 2\", "
            "\"question\": \"q?\", \"system\": \"s1\"}\n\n"
            "{\"id\": 7, \"db\": \"/abs/y.sqlite\", \"gold\": \"G\", \"pred\": \"P\", \"db_id\": \"yy\"}\n");
  const auto examples = core::read_cases_file(file);
  REQUIRE(examples.size() == 2);
  CHECK(examples[0].id == "a");
  CHECK(examples[0].db == (dir.path() / "dbs/x.sqlite").string());
  CHECK(examples[0].db_id == "x");
  CHECK(examples[0].question == "q?");
  CHECK(examples[0].system == "s1");
  CHECK(examples[1].id == "7");
  CHECK(examples[1].db == "/abs/y.sqlite");
  CHECK(examples[1].db_id == "yy");
  const auto rooted = core::read_cases_file(file, std::filesystem::path("/root"));
  CHECK(rooted[0].db == "/root/dbs/x.sqlite");
}

TEST_CASE("cases files: every problem names the file and line") {
  test::temp_dir dir;
  const auto bad_json =
      write(dir, "a.jsonl", "{\"id\": \"a\", \"db\": \"x\", \"gold\": \"G\", \"pred\": \"P\"}\n{oops\n");
  CHECK(test::usage_error_of([&] {
          core::read_cases_file(bad_json);
        }).find(bad_json.string() + ":2: invalid JSON") == 0);
  const auto missing = write(dir, "b.jsonl", "{\"id\": \"a\", \"db\": \"x\", \"gold\": \"G\"}\n");
  CHECK(test::usage_error_of([&] { core::read_cases_file(missing); }) ==
        missing.string() + ":1: missing field 'pred'");
  const auto typed = write(dir, "c.jsonl", "{\"id\": \"a\", \"db\": \"x\", \"gold\": 3, \"pred\": \"P\"}\n");
  CHECK(test::usage_error_of([&] { core::read_cases_file(typed); }) ==
        typed.string() + ":1: field 'gold' must be a string");
  const auto dup = write(dir, "d.jsonl",
                         "{\"id\": \"a\", \"db\": \"x\", \"gold\": \"G\", \"pred\": \"P\"}\n"
                         "{\"id\": \"a\", \"db\": \"x\", \"gold\": \"G\", \"pred\": \"P\"}\n");
  CHECK(test::usage_error_of([&] { core::read_cases_file(dup); }) ==
        dup.string() + ":2: duplicate id 'a' (first on line 1)");
  CHECK(test::usage_error_of([&] {
          core::read_cases_file(dir.path() / "none.jsonl");
        }).find("cannot be read") != std::string::npos);
}

TEST_CASE("spider files: gold and predictions aligned, trailing db_id, tabs inside SQL, CSV") {
  test::temp_dir dir;
  const auto gold =
      write(dir, "gold.sql", "SELECT a FROM t\tdb1\nSELECT b FROM u\tdb2\r\nSELECT\tc FROM v\tdb1\n");
  const auto pred = write(dir, "sys-x.sql", "SELECT a FROM t\tdb1\nSELECT 'tab\there' FROM u\nSELECT c\n");
  const auto examples =
      core::read_spider_files({gold, pred, dir.path() / "dbs", std::nullopt, core::prediction_tabs::keep});
  REQUIRE(examples.size() == 3);
  CHECK(examples[0].id == "sys-x:0");
  CHECK(examples[0].pred == "SELECT a FROM t");
  CHECK(examples[0].db == (dir.path() / "dbs/db1/db1.sqlite").string());
  CHECK(examples[1].pred == "SELECT 'tab\there' FROM u");
  CHECK(examples[1].db_id == "db2");
  CHECK(examples[2].gold == "SELECT\tc FROM v");
  CHECK(examples[2].system == "sys-x");
  // The official reading: the SQL ends at the first tab.
  const auto official = core::read_spider_files({gold, pred, dir.path() / "dbs", std::nullopt});
  CHECK(official[0].pred == "SELECT a FROM t");
  CHECK(official[1].pred == "SELECT 'tab");
  CHECK(official[2].pred == "SELECT c");

  const auto csv = write(dir, "din.csv",
                         "NLQ,PREDICTED SQL,GOLD SQL,DATABASE\n"
                         "q1,SELECT a FROM t,x,db1\n"
                         "\"q, 2\",\"SELECT \"\"b\"\"\nFROM u\",x,db2\n"
                         "q3,SELECT c,x,db1\n");
  const auto from_csv = core::read_spider_files({gold, csv, dir.path(), std::string("din")});
  REQUIRE(from_csv.size() == 3);
  CHECK(from_csv[1].pred == "SELECT \"b\"\nFROM u");
  CHECK(from_csv[1].id == "din:1");

  // A short prediction file: the examples without a prediction are pred_missing, not a failed run.
  const auto short_pred = write(dir, "short.sql", "SELECT 1\n");
  const auto partial = core::read_spider_files({gold, short_pred, dir.path(), std::nullopt});
  REQUIRE(partial.size() == 3);
  CHECK_FALSE(partial[0].pred_missing);
  CHECK(partial[1].pred_missing);
  CHECK(partial[2].pred_missing);
  CHECK(partial[0].item == "0");
  CHECK(partial[2].item == "2");
  CHECK(partial[0].difficulty == "easy");
  const auto bad_gold = write(dir, "bad_gold.sql", "SELECT 1\n");
  CHECK(test::usage_error_of([&] {
          core::read_spider_files({bad_gold, short_pred, dir.path(), std::nullopt});
        }) == bad_gold.string() + ":1: expected 'SQL<TAB>db_id' (Spider's gold format)");
}

TEST_CASE("CSV: quotes, doubled quotes, embedded newlines, unterminated field") {
  const auto rows = core::parse_csv("a,b\n\"x,1\",\"he said \"\"hi\"\"\"\n\"multi\nline\",z", "t.csv");
  REQUIRE(rows.size() == 3);
  CHECK(rows[1].fields[0] == "x,1");
  CHECK(rows[1].fields[1] == "he said \"hi\"");
  CHECK(rows[2].fields[0] == "multi\nline");
  CHECK(rows[2].line == 3);
  CHECK(test::usage_error_of([] { core::parse_csv("a\n\"open", "t.csv"); }) ==
        "t.csv:2: quoted field is never closed");
}

TEST_CASE("CSV: broken quoting names the line, and a quote inside an unquoted field is kept") {
  CHECK(test::usage_error_of([] { core::parse_csv("a,b\n\"x\"y,z\n", "t.csv"); }) ==
        "t.csv:2: broken quoting: text after the closing quote of a field that starts on line 2 (a quote "
        "inside a quoted field is written twice: \"\")");
  CHECK(test::usage_error_of([] {
          core::parse_csv("a\n\"multi\nline \"quote\" inside\"\n", "t.csv");
        }).find("t.csv:3: broken quoting: text after the closing quote of a field that starts on line 2") ==
        0);
  const auto rows = core::parse_csv("a,b\nsay \"hi\",\"\"\n\"end\"", "t.csv");
  REQUIRE(rows.size() == 3);
  CHECK(rows[1].fields[0] == "say \"hi\"");
  CHECK(rows[1].fields[1] == "");
  CHECK(rows[2].fields[0] == "end");
}

TEST_CASE("BIRD predictions: a key is a position in plain decimal, so 00 never stands in for 0") {
  test::temp_dir dir;
  const auto gold =
      write(dir, "dev.json", R"([{"db_id": "a", "SQL": "SELECT 1"}, {"db_id": "a", "SQL": "SELECT 2"}])");
  const auto read = [&](const std::string& predictions) {
    return core::read_bird_files({gold, write(dir, "pred.json", predictions), dir.path(), std::nullopt});
  };
  const auto plain = read(R"({"1": "SELECT 20", "0": "SELECT 10"})");
  REQUIRE(plain.size() == 2);
  CHECK(plain[0].pred == "SELECT 10");
  CHECK(plain[1].pred == "SELECT 20");
  for (const std::string key : {"00", "01", "+1", " 1", "1 ", "1.0", "0x1", "-0", "first", ""}) {
    CAPTURE(key);
    const std::string predictions = R"({"0": "SELECT 10", ")" + key + R"(": "SELECT 20"})";
    try {
      read(predictions);
      FAIL("key accepted");
    } catch (const core::usage_error& e) {
      const std::string message = e.what();
      CHECK(message.find("pred.json: key \"" + key + "\" is not a question position") != std::string::npos);
      CHECK(message.find("\"0\" to \"1\"") != std::string::npos);
    }
  }
}
