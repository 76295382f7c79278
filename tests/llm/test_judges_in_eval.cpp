// `sqlmorph eval --judges` with the sql_adherence judge against the loopback fake server: votes,
// confidence and tokens in results.jsonl, what the judge was shown, and a judge that keeps getting
// malformed replies recorded as judge_error while the run goes on.

#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "openai_replies.hpp"
#include "openai_test_helpers.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::fake_openai_server;
using test::scripted_reply;
namespace replies = test::openai_replies;

namespace {

using test::read_jsonl;
using test::write_file;

std::string prompt_of(const test::recorded_request& r) {
  return json::parse(r.body)["messages"][0]["content"].get<std::string>();
}

// Verdict 1 for every prompt, except prompts about "BROKEN", which get prose instead of JSON.
scripted_reply answer(const test::recorded_request& r) {
  if (prompt_of(r).find("BROKEN") != std::string::npos) {
    return scripted_reply::json(replies::chat_completion({{"I would rather not say.", std::nullopt}}, 7, 3));
  }
  return scripted_reply::json(
      replies::chat_completion({{replies::verdict_json(1, "answers it"), std::nullopt}}, 11, 4));
}

}  // namespace

TEST_CASE("eval --judges with sql_adherence on the fake server: votes, confidence, tokens, judge_error") {
  fake_openai_server server(&answer);
  test::temp_dir dir;
  test::create_sqlite(
      dir.path() / "shop.sqlite",
      "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items VALUES (1, 'apple');");
  write_file(
      dir.path() / "cases.jsonl",
      R"({"id": "a", "db": "shop.sqlite", "question": "Names of the items?", "evidence": "items = things sold", "gold": "SELECT name FROM items", "pred": "SELECT name FROM items"}
{"id": "b", "db": "shop.sqlite", "question": "BROKEN question", "gold": "SELECT name FROM items", "pred": "SELECT id FROM items"}
{"id": "c", "db": "shop.sqlite", "question": "Ids of the items?", "gold": "SELECT id FROM items", "pred": "SELECT id FROM items"}
)");
  write_file(dir.path() / "sqlmorph.toml",
             "[judges.adherence]\nplugin = \"sql_adherence\"\noptions = { base_url = \"" + server.base_url() +
                 "\", api_key_env = \"\", votes = 3, malformed_retries = 1, "
                 "retry_base_delay = 0.01, timeout = 5.0 }\n");
  const auto out = dir.path() / "out";
  const auto r =
      test::run_sqlmorph({"--config", (dir.path() / "sqlmorph.toml").string(), "eval", "--cases",
                          (dir.path() / "cases.jsonl").string(), "--techniques", "execution_accuracy",
                          "--judges", "adherence", "--out", out.string(), "-j", "2"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 6);

  const json& a = results[1];
  CHECK(a["technique"] == "judge:adherence");
  CHECK(a["status"] == "ok");
  CHECK(a["label"] == 1);
  CHECK(a["confidence"] == 100.0);
  CHECK(a["votes"] == json::array({1, 1, 1}));
  CHECK(a["rationales"] == json::array({"answers it", "answers it", "answers it"}));
  CHECK(a["prompt_tokens"] == 33);
  CHECK(a["completion_tokens"] == 12);
  CHECK(a["confidence_source"] == "votes");

  const json& b = results[3];
  CHECK(b["technique"] == "judge:adherence");
  CHECK(b["status"] == "judge_error");
  CHECK(b["label"].is_null());
  CHECK(b["error"].get<std::string>().find("malformed reply") != std::string::npos);
  // The run went on after the failing judge.
  CHECK(results[4]["status"] == "ok");
  CHECK(results[5]["status"] == "ok");
  CHECK(results[5]["label"] == 1);

  // What the judge was shown: the question, the evidence as hints, the schema read from the
  // database, the dialect and the predicted SQL.
  bool seen = false;
  for (const auto& req : server.requests()) {
    const std::string prompt = prompt_of(req);
    if (prompt.find("Names of the items?") == std::string::npos) continue;
    seen = true;
    CHECK(prompt.find("items = things sold") != std::string::npos);
    CHECK(prompt.find("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)") != std::string::npos);
    CHECK(prompt.find("SQL (sqlite):\nSELECT name FROM items") != std::string::npos);
  }
  CHECK(seen);

  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  REQUIRE(summary["judges"].size() == 1);
  const json& g = summary["judges"][0];
  CHECK(g["count"] == 3);
  CHECK(g["labelled"] == 2);
  CHECK(g["statuses"] == json{{"judge_error", 1}, {"ok", 2}});
  CHECK(g["mean_confidence"] == 100.0);
  CHECK(g["prompt_tokens"].get<int>() >= 66);
  // EX: a = 1, c = 1 (b's judge could not decide): both agree with label 1.
  CHECK(g["agreement_with_ex"]["counts"] ==
        json{{"judge1_ex1", 2}, {"judge1_ex0", 0}, {"judge0_ex1", 0}, {"judge0_ex0", 0}});
  CHECK(r.out.find("judge_error=1") != std::string::npos);
  const json run = json::parse(test::file_bytes(out / "run.json"));
  CHECK(run["judges"][0]["plugin"] == "sql_adherence");
  CHECK(run["judges"][0]["options"]["votes"] == 3);
}

TEST_CASE("sqlmorph judge with sql_adherence and sql_correctness side by side") {
  fake_openai_server server(&answer);
  test::temp_dir dir;
  test::create_sqlite(dir.path() / "shop.sqlite", "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);");
  write_file(dir.path() / "sqlmorph.toml",
             "[judges.adherence]\nplugin = \"sql_adherence\"\noptions = { base_url = \"" + server.base_url() +
                 "\", api_key_env = \"\", votes = 2 }\n");
  const auto r = test::run_sqlmorph(
      {"--config", (dir.path() / "sqlmorph.toml").string(), "judge", "--question", "Names of the items?",
       "--sql", "SELECT name FROM items", "--hints", "a hint", "--schema-from",
       (dir.path() / "shop.sqlite").string(), "--db", (dir.path() / "shop.sqlite").string(), "--judges",
       "adherence,sql_correctness", "--timeout", "5"});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("adherence") != std::string::npos);
  CHECK(r.out.find("answers it (+1 more)") != std::string::npos);
  CHECK(r.out.find("22+8") != std::string::npos);
  CHECK(r.out.find("sql_correctness") != std::string::npos);
  REQUIRE(server.request_count() == 2);
  CHECK(prompt_of(server.requests()[0]).find("a hint") != std::string::npos);
}

TEST_CASE("examples/judges/bird_judge.sh judges a BIRD mini-dev question end to end") {
  if (test::skip_without_shared("examples/judges/bird_judge.sh")) return;
  const auto bird = *test::shared_dir() / "benchmarks" / "bird-minidev";
  const auto r = test::run_program(
      "/usr/bin/env",
      {"SQLMORPH=" + test::sqlmorph_binary().string(), "FAKE_OPENAI=" SQLMORPH_TEST_FAKE_OPENAI, "sh",
       (test::source_dir() / "examples" / "judges" / "bird_judge.sh").string(), bird.string(), "0"});
  CAPTURE(r.out);
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("BIRD mini-dev question 0 (debit_card_specializing)") != std::string::npos);
  CHECK(r.out.find("adherence") != std::string::npos);
  CHECK(r.out.find("sql_correctness") != std::string::npos);
  // The gold SQL binds against the published schema.
  CHECK(r.out.find("judge_error") == std::string::npos);

  const auto json_run = test::run_program(
      "/usr/bin/env",
      {"SQLMORPH=" + test::sqlmorph_binary().string(), "FAKE_OPENAI=" SQLMORPH_TEST_FAKE_OPENAI, "sh",
       (test::source_dir() / "examples" / "judges" / "bird_judge.sh").string(), bird.string(), "0",
       "--json"});
  REQUIRE(json_run.exit_code == 0);
  const auto start = json_run.out.find("\n{");
  REQUIRE(start != std::string::npos);
  const json j = json::parse(json_run.out.substr(start + 1));
  REQUIRE(j["judges"].size() == 2);
  CHECK(j["judges"][0]["judge"] == "adherence");
  CHECK(j["judges"][0]["status"] == "ok");
  CHECK(j["judges"][0]["votes"].size() == 5);
  CHECK(j["judges"][0]["prompt_tokens"].get<int>() > 0);
  CHECK(j["judges"][1]["label"] == 1);
  CHECK(j["schema_source"] == "debit_card_specializing.sqlite");
}

TEST_CASE("eval --judges: an example whose database is missing is judge_error, and the judge is not asked") {
  fake_openai_server server(&answer);
  test::temp_dir dir;
  test::create_sqlite(dir.path() / "shop.sqlite", "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);");
  write_file(
      dir.path() / "cases.jsonl",
      R"({"id": "here", "db": "shop.sqlite", "question": "Names?", "gold": "SELECT name FROM items", "pred": "SELECT name FROM items"}
{"id": "gone", "db": "missing.sqlite", "question": "Question about a missing database?", "gold": "SELECT 1", "pred": "SELECT 1"}
)");
  write_file(dir.path() / "sqlmorph.toml",
             "[judges.adherence]\nplugin = \"sql_adherence\"\noptions = { base_url = \"" + server.base_url() +
                 "\", api_key_env = \"\", timeout = 5.0 }\n");
  const auto out = dir.path() / "out";
  const auto r = test::run_sqlmorph({"--config", (dir.path() / "sqlmorph.toml").string(), "eval", "--cases",
                                     (dir.path() / "cases.jsonl").string(), "--techniques", "none",
                                     "--judges", "adherence,sql_correctness", "--out", out.string()});
  CAPTURE(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = read_jsonl(out / "results.jsonl");
  REQUIRE(results.size() == 4);
  CHECK(results[0]["status"] == "ok");
  for (const json& gone : {results[2], results[3]}) {
    CAPTURE(gone.dump());
    CHECK(gone["id"] == "gone");
    CHECK(gone["status"] == "judge_error");
    CHECK(gone["label"].is_null());
    CHECK(gone["error"].get<std::string>().find("not asked: cannot open the database (db_missing)") !=
          std::string::npos);
  }
  for (const auto& req : server.requests()) {
    if (req.method != "POST") continue;
    CHECK(prompt_of(req).find("missing database") == std::string::npos);
  }
}

TEST_CASE("sqlmorph judge --show-prompt prints the exact prompt the judge sends") {
  fake_openai_server server(&answer);
  test::temp_dir dir;
  test::create_sqlite(dir.path() / "shop.sqlite", "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);");
  write_file(dir.path() / "sqlmorph.toml",
             "[judges.adherence]\nplugin = \"sql_adherence\"\noptions = { base_url = \"" + server.base_url() +
                 "\", api_key_env = \"\", votes = 1 }\n");
  const std::vector<std::string> args = {"--config",
                                         (dir.path() / "sqlmorph.toml").string(),
                                         "judge",
                                         "--question",
                                         "Names of the items?",
                                         "--sql",
                                         "SELECT name FROM items",
                                         "--hints",
                                         "a hint",
                                         "--db",
                                         (dir.path() / "shop.sqlite").string(),
                                         "--judges",
                                         "adherence,sql_correctness",
                                         "--show-prompt"};
  const auto r = test::run_sqlmorph(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  REQUIRE(server.request_count() == 1);
  const std::string sent = prompt_of(server.requests()[0]);
  CHECK(sent.find("Names of the items?") != std::string::npos);
  CHECK(r.out.find("prompt of adherence (sql_adherence):\n-----\n" + sent + "\n-----\n") == 0);
  CHECK(r.out.find("prompt of sql_correctness (sql_correctness): none, this judge sends no prompt") !=
        std::string::npos);

  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  const auto j = test::run_sqlmorph(with_json);
  REQUIRE_MESSAGE(j.exit_code == 0, j.err);
  const json out = json::parse(j.out);
  CHECK(out["judges"][0]["prompt"] == sent);
  CHECK(out["judges"][1]["prompt"].is_null());
}
