// `sqlmorph explain` and `compare --show-rows` on every kind of example (both queries ok, either
// failed, a timeout, a missing database) without a crash — tests/explain/explain_every_example.sh
// explains every example of the demo and of a Spider dev run —; text from the run or the database
// printed with its control characters escaped and its cells cut to a width; a bad --technique or
// id an error that says what there is.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "output/example_explanation.hpp"
#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// No byte a terminal obeys (ESC, BEL, the other C0 controls but the line break, DEL).
bool terminal_safe(const std::string& text) {
  return std::none_of(text.begin(), text.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && b != '\n') || b == 0x7F;
  });
}

}  // namespace

TEST_CASE(
    "compare --show-rows on every pair of the demo, and explain on its prediction that does not parse") {
  // (tests/explain/explain_every_example.sh explains every example of the demo and of Spider dev.)
  const auto demo = test::build_dir() / "examples/demo";
  for (const json& c : test::read_jsonl(test::source_dir() / "examples/demo/cases.jsonl")) {
    const std::string id = c["id"].get<std::string>();
    const auto shown = run_sqlmorph({"--config", config_arg(), "compare", "--db",
                                     (demo / c["db"].get<std::string>()).string(), "--gold",
                                     c["gold"].get<std::string>(), "--pred", c["pred"].get<std::string>(),
                                     "--techniques", "execution_accuracy", "--timeout", "2", "--show-rows"});
    REQUIRE_MESSAGE(shown.exit_code == 0, id << ": exit " << shown.exit_code << ": " << shown.err);
    CHECK_MESSAGE(has(shown.out, "gold result: "), id);
    CHECK_MESSAGE(has(shown.out, "predicted result: "), id);
    CHECK_MESSAGE(has(shown.out, "\nexecution_accuracy "), id);
    CHECK_MESSAGE(terminal_safe(shown.out), id);
  }
  // The reproduction: `explain build/demo-results spaced_operator` (its gold fine).
  test::temp_dir dir;
  const auto out = dir.path() / "demo-results";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases",
                    (test::source_dir() / "examples/demo/cases.jsonl").string(), "--db-root", demo.string(),
                    "--timeout", "2", "--techniques", "execution_accuracy", "--out", out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto spaced = run_sqlmorph({"explain", out.string(), "spaced_operator"});
  REQUIRE_MESSAGE(spaced.exit_code == 0, "exit " << spaced.exit_code << ": " << spaced.err);
  CHECK(has(spaced.out, "predicted result: error: "));
  CHECK(has(spaced.out, "gold result: "));
}

TEST_CASE("compare --show-rows when either query fails, times out or has no database") {
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  const auto show = [&](const std::string& gold, const std::string& pred, const std::string& on = "") {
    const auto r = run_sqlmorph({"--config", config_arg(), "compare", "--db", on.empty() ? db : on, "--gold",
                                 gold, "--pred", pred, "--techniques", "execution_accuracy", "--timeout",
                                 "0.5", "--show-rows"});
    REQUIRE_MESSAGE(r.exit_code == 0, gold << " / " << pred << ": exit " << r.exit_code << ": " << r.err);
    CHECK(!has(r.out, "columns paired by name"));
    CHECK(!has(r.out, "\n*"));
    return r.out;
  };
  const std::string pred_error = show("SELECT name FROM employees", "SELECT * FROM nope");
  CHECK(has(pred_error, "predicted result: error: "));
  CHECK(has(pred_error, "gold result: "));
  CHECK(has(pred_error, " rows\n"));  // the gold's rows are still shown
  const std::string gold_error = show("SELECT nope FROM employees", "SELECT name FROM employees");
  CHECK(has(gold_error, "gold result: error: "));
  CHECK(has(show("SELECT nope", "SELECT nope"), "gold result: error: "));
  const std::string timeout =
      show("SELECT name FROM employees",
           "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c");
  CHECK(has(timeout, "predicted result: timeout"));
  const std::string missing = show("SELECT 1", "SELECT 1", "/no/such/database.sqlite");
  CHECK(has(missing, "gold: SELECT 1"));
}

TEST_CASE("compare --show-rows and explain print control characters escaped and cut long cells") {
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  // The payload: retitles the terminal (OSC 0 ... BEL) and clears it (CSI 2J), in a cell, in
  // a column name and in the SQL text itself.
  const std::string payload = "char(27)||']0;PWNED'||char(7)||char(27)||'[2J'";
  const std::string sql = "SELECT " + payload + " AS \"t\x1b[1mx\", 'a' || char(10) || 'b' AS v";
  const auto r =
      run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold", sql, "--pred",
                    "SELECT 1 AS \"\x1b]0;x\x07\"", "--techniques", "execution_accuracy", "--show-rows"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(terminal_safe(r.out));
  CHECK(has(r.out, "\\x1b]0;PWNED\\x07\\x1b[2J"));  // the cell
  CHECK(has(r.out, "t\\x1b[1mx"));                  // a column name
  CHECK(has(r.out, "a\\nb"));                       // a line break inside a cell keeps the table's rows
  CHECK(has(r.out, "\\x1b]0;x\\x07"));              // the predicted column's name

  // A 10 MB cell: cut to explained_cell_chars characters with a marker, and so is its separator line.
  const auto big = run_sqlmorph({"--config", config_arg(), "compare", "--db", db, "--gold",
                                 "SELECT printf('%.*c', 10000000, 'x') AS big", "--pred", "SELECT 1 AS one",
                                 "--techniques", "execution_accuracy", "--show-rows"});
  REQUIRE_MESSAGE(big.exit_code == 0, big.err);
  CHECK(big.out.size() < 20000);
  CHECK(has(big.out, std::string(core::explained_cell_chars, 'x') + "…[+" +
                         std::to_string(10000000 - core::explained_cell_chars) + " bytes]"));
  CHECK(!has(big.out, std::string(core::explained_cell_chars + 1, 'x')));

  // explain: a question, an id, an error message and a cell of a run.
  test::temp_dir dir;
  json question_case = {{"id", "q\x1b[2J"},
                        {"db", db},
                        {"db_id", "demo"},
                        {"question", "Who\x07 is \x1b]0;PWNED\x07 here?"},
                        {"gold", "SELECT " + payload + " AS c"},
                        {"pred", "SELECT \x1b[2J FROM employees"}};
  write_file(dir.path() / "cases.jsonl", question_case.dump() + "\n");
  const auto out = dir.path() / "out";
  const auto run =
      run_sqlmorph({"--config", config_arg(), "-q", "eval", "--cases", (dir.path() / "cases.jsonl").string(),
                    "--techniques", "execution_accuracy", "--out", out.string()});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  const auto explained = run_sqlmorph({"explain", out.string(), "q\x1b[2J"});
  REQUIRE_MESSAGE(explained.exit_code == 0, explained.err);
  CHECK(terminal_safe(explained.out));
  CHECK(explained.out.rfind("q\\x1b[2J  database demo", 0) == 0);
  CHECK(has(explained.out, "question: Who\\x07 is \\x1b]0;PWNED\\x07 here?"));
  CHECK(has(explained.out, "pred: SELECT \\x1b[2J FROM employees"));
  CHECK(has(explained.out, "predicted result: error: "));
  CHECK(has(explained.out, "\\x1b]0;PWNED\\x07\\x1b[2J"));  // the gold's cell
  // An unknown id: the ids suggested are escaped too.
  const auto unknown = run_sqlmorph({"explain", out.string(), "q"});
  CHECK(unknown.exit_code == 2);
  CHECK(terminal_safe(unknown.err));
}

namespace {

// Two systems (dail and din) over eight questions of the demo database.
std::filesystem::path two_systems(const test::temp_dir& dir) {
  std::string gold, pred;
  for (int i = 0; i < 8; ++i) {
    gold += "SELECT count(*) FROM projects WHERE id > " + std::to_string(i) + "\tdemo\n";
    pred += "SELECT count(*) FROM projects WHERE id >= " + std::to_string(i) + "\n";
  }
  write_file(dir.path() / "gold.sql", gold);
  write_file(dir.path() / "dail.sql", pred);
  write_file(dir.path() / "din.sql", pred);
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(test::build_dir() / "examples/demo/demo.sqlite",
                             dir.path() / "dbs/demo/demo.sqlite");
  const auto out = dir.path() / "two";
  const auto r = run_sqlmorph(
      {"--config", config_arg(), "-q", "eval", "--benchmark", "spider", "--gold",
       (dir.path() / "gold.sql").string(), "--pred", "dail=" + (dir.path() / "dail.sql").string(), "--pred",
       "din=" + (dir.path() / "din.sql").string(), "--db-root", (dir.path() / "dbs").string(), "--techniques",
       "execution_accuracy,exact_column_and_partial_cell", "--out", out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return out;
}

}  // namespace

TEST_CASE("explain: an id that is not there suggests the same question's ids first, then near ones") {
  test::temp_dir dir;
  const auto out = two_systems(dir);
  const auto six = run_sqlmorph({"explain", out.string(), "6"});
  CHECK(six.exit_code == 2);
  CHECK(has(six.err, "no example '6' in "));
  CHECK(has(six.err, "(nearest ids: dail:6, din:6)"));
  const auto typo = run_sqlmorph({"explain", out.string(), "dial:6"});
  CHECK(typo.exit_code == 2);
  CHECK_MESSAGE(has(typo.err, "(nearest ids: dail:6, din:6, dail:0, dail:1, dail:2)"), typo.err);
  const auto far = run_sqlmorph({"explain", out.string(), "dail:6x"});
  CHECK(far.exit_code == 2);
  CHECK(has(far.err, "(nearest ids: dail:6, dail:0, dail:1, dail:2, dail:3)"));
  const auto nothing = run_sqlmorph({"explain", out.string(), "something else"});
  CHECK(nothing.exit_code == 2);
  CHECK(has(nothing.err, "(no id is near it; the first is dail:0)"));
}

TEST_CASE("explain --technique names a technique of the example's records, or exits 2 listing them") {
  test::temp_dir dir;
  const auto out = two_systems(dir);
  const auto one =
      run_sqlmorph({"explain", out.string(), "din:3", "--technique", "exact_column_and_partial_cell"});
  REQUIRE_MESSAGE(one.exit_code == 0, one.err);
  CHECK(has(one.out, "\nexact_column_and_partial_cell "));
  CHECK(!has(one.out, "\nexecution_accuracy "));
  const auto bogus = run_sqlmorph({"explain", out.string(), "din:3", "--technique", "bogus"});
  CHECK(bogus.exit_code == 2);
  CHECK(bogus.out.empty());
  CHECK(has(bogus.err,
            "example 'din:3' has no record of technique 'bogus' (its techniques: execution_accuracy, "
            "exact_column_and_partial_cell)"));
}
