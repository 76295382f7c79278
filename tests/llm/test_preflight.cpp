// Before anything is executed, every remote service a command relies on is asked once (GET
// <base_url>/models): an unreachable judge or embedder server stops the command at once with exit
// code 2 naming the URL, instead of an hour of judge_error; --no-preflight skips the check.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "openai_replies.hpp"
#include "openai_test_helpers.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::fake_openai_server;
using test::scripted_reply;
namespace replies = test::openai_replies;

namespace {

using test::write_file;

// A base URL where nothing listens: a fake server's port, closed again.
std::string closed_url() {
  fake_openai_server gone;
  const std::string url = gone.base_url();
  gone.stop();
  return url;
}

scripted_reply yes(const test::recorded_request&) {
  return scripted_reply::json(
      replies::chat_completion({{replies::verdict_json(1, "fine"), std::nullopt}}, 5, 2));
}

struct setup {
  test::temp_dir dir;
  std::filesystem::path config = dir.path() / "sqlmorph.toml";
  std::filesystem::path cases = dir.path() / "cases.jsonl";

  explicit setup(const std::string& judge_url, const std::string& embedder_url = "") {
    test::create_sqlite(dir.path() / "shop.sqlite",
                        "CREATE TABLE items(id INTEGER, name TEXT);"
                        "INSERT INTO items VALUES (1, 'apple');");
    write_file(
        cases,
        R"({"id": "a", "db": "shop.sqlite", "question": "Names?", "gold": "SELECT name FROM items", "pred": "SELECT name FROM items"}
)");
    std::string toml = "[judges.adherence]\nplugin = \"sql_adherence\"\noptions = { base_url = \"" +
                       judge_url + "\", api_key_env = \"\", votes = 1, timeout = 5.0, max_retries = 0 }\n";
    if (!embedder_url.empty()) {
      toml +=
          "[embedding]\nembedder = \"remote\"\n[embedders.remote]\nplugin = \"openai\"\noptions = { base_url "
          "= \"" +
          embedder_url + "\", api_key_env = \"\", model = \"e\", timeout = 5.0, max_retries = 0 }\n";
    }
    write_file(config, toml);
  }
  test::command_result eval(const std::string& out, std::vector<std::string> extra) const {
    std::vector<std::string> args = {
        "--config", config.string(), "eval", "--cases", cases.string(), "--out", (dir.path() / out).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_sqlmorph(args);
  }
};

}  // namespace

TEST_CASE(
    "preflight: an unreachable judge server stops eval and judge before anything runs, naming the URL") {
  const std::string url = closed_url();
  const setup s(url);
  const auto r = s.eval("out", {"--techniques", "execution_accuracy", "--judges", "adherence"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("the judge 'adherence': GET " + url + "/models: no response") != std::string::npos);
  CHECK(r.err.find("--no-preflight") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.dir.path() / "out" / "results.jsonl"));  // nothing was executed

  const auto judge = test::run_sqlmorph({"--config", s.config.string(), "judge", "--question", "q", "--sql",
                                         "SELECT 1", "--judges", "adherence"});
  CHECK(judge.exit_code == 2);
  CHECK(judge.err.find("GET " + url + "/models") != std::string::npos);

  // --no-preflight: the run goes on, and the judge's failure is its records' judge_error.
  const auto skipped =
      s.eval("out2", {"--techniques", "execution_accuracy", "--judges", "adherence", "--no-preflight"});
  CHECK(skipped.exit_code == 0);
  const auto results = test::read_jsonl(s.dir.path() / "out2" / "results.jsonl");
  REQUIRE(results.size() == 2);
  CHECK(results[1]["status"] == "judge_error");
}

TEST_CASE(
    "preflight: an unreachable embedder server stops a run whose techniques use it, and only such a run") {
  fake_openai_server judges(&yes);
  const std::string url = closed_url();
  const setup s(judges.base_url(), url);
  const auto semantic = s.eval("out", {"--techniques", "semantic_column_and_exact_cell"});
  CHECK(semantic.exit_code == 2);
  CHECK(semantic.err.find("the embedder openai:" + url + "|e: GET " + url + "/models: no response") !=
        std::string::npos);
  const auto compare = test::run_sqlmorph(
      {"--config", s.config.string(), "compare", "--db", (s.dir.path() / "shop.sqlite").string(), "--gold",
       "SELECT 1", "--pred", "SELECT 1", "--techniques", "semantic_column_and_partial_cell"});
  CHECK(compare.exit_code == 2);
  CHECK(compare.err.find("GET " + url + "/models") != std::string::npos);
  // Techniques that embed nothing do not need the server.
  const auto plain = s.eval("out2", {"--techniques", "execution_accuracy"});
  CHECK(plain.exit_code == 0);
}

TEST_CASE("preflight: a server that answers is asked once, and a refused key is named") {
  fake_openai_server server(&yes);
  const setup s(server.base_url());
  const auto r = s.eval("out", {"--techniques", "execution_accuracy", "--judges", "adherence"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(server.models_requests() == 1);
  CHECK(server.request_count() == 1);  // the one chat completion of the one example
  const auto skipped = s.eval("out2", {"--techniques", "none", "--judges", "adherence", "--no-preflight"});
  REQUIRE(skipped.exit_code == 0);
  CHECK(server.models_requests() == 1);

  server.set_models_reply(
      scripted_reply::json(R"({"error": {"message": "Incorrect API key provided"}})", 401));
  const auto refused = s.eval("out3", {"--techniques", "none", "--judges", "adherence"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("GET " + server.base_url() + "/models: HTTP 401: Incorrect API key provided") !=
        std::string::npos);
  // A server without the /models route still answers: it is reachable.
  server.set_models_reply(scripted_reply::json(R"({"error": "not found"})", 404));
  CHECK(s.eval("out4", {"--techniques", "none", "--judges", "adherence"}).exit_code == 0);
}

TEST_CASE("preflight: sqlmorph run checks the servers of each sqlmorph.evaluate before it runs") {
  const std::string url = closed_url();
  const setup s(url);
  const auto script = s.dir.path() / "experiment.lua";
  write_file(
      script,
      "local ex = sqlmorph.cases{ file = '" + s.cases.string() +
          "' }\n"
          "sqlmorph.evaluate{ examples = ex, techniques = {'execution_accuracy'}, judges = 'adherence', "
          "out = '" +
          (s.dir.path() / "out").string() + "' }\n");
  const auto r = test::run_sqlmorph({"--config", s.config.string(), "run", script.string()});
  CHECK(r.exit_code == 1);  // raised inside the script: a script error, with its line
  CHECK(r.err.find("experiment.lua:2") != std::string::npos);
  CHECK(r.err.find("the judge 'adherence': GET " + url + "/models: no response") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.dir.path() / "out" / "results.jsonl"));  // nothing was executed
  // --no-preflight: the run goes on; the judge's failure is its records' judge_error.
  const auto skipped =
      test::run_sqlmorph({"--config", s.config.string(), "run", "--no-preflight", script.string()});
  CHECK_MESSAGE(skipped.exit_code == 0, skipped.err);
  const auto results = test::read_jsonl(s.dir.path() / "out" / "results.jsonl");
  REQUIRE(results.size() == 2);
  CHECK(results[1]["status"] == "judge_error");
}
