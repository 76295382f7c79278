// The semantic techniques through the `openai` embedder on the loopback fake server, with the
// embedding cache: a first eval sends requests (distinct texts only, in batches of max_batch), an
// identical second eval sends none and gives identical numbers.

#include <doctest/doctest.h>

#include <fstream>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

#include "openai_replies.hpp"
#include "openai_test_helpers.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::fake_openai_server;
using test::scripted_reply;

namespace {

using test::read_jsonl;
using test::write_file;

// Every text the server was asked to embed, request by request.
std::vector<std::vector<std::string>> inputs_of(const fake_openai_server& server) {
  std::vector<std::vector<std::string>> out;
  for (const test::recorded_request& r : server.requests()) {
    const json body = json::parse(r.body);
    std::vector<std::string> texts;
    if (body["input"].is_string())
      texts.push_back(body["input"]);
    else
      for (const json& t : body["input"]) texts.push_back(t);
    out.push_back(std::move(texts));
  }
  return out;
}

// Metrics of each record, keyed by id|technique|penalize (timings left out).
std::map<std::string, std::string> metrics_of(const std::filesystem::path& results) {
  std::map<std::string, std::string> out;
  for (const json& x : read_jsonl(results)) {
    out[x["id"].get<std::string>() + "|" + x["technique"].get<std::string>() + "|" +
        x["penalize_extra_pred_cols"].dump()] =
        json{x["status"], x["EX"], x["EXP"], x["EXR"], x["F1"]}.dump();
  }
  return out;
}

struct semantic_setup {
  test::temp_dir dir;
  std::filesystem::path config;
  std::filesystem::path cases;
  std::filesystem::path cache;

  semantic_setup(const fake_openai_server& server, int max_batch) {
    const auto db = dir.path() / "staff.sqlite";
    test::create_sqlite(db,
                        "CREATE TABLE staff (name TEXT, dept TEXT, salary INTEGER);"
                        "INSERT INTO staff VALUES ('Alice', 'eng', 100000), ('Bob', 'eng', 80000),"
                        " ('Carol', 'ops', 70000), ('Dan', 'ops', 70000), ('Eve', 'eng', 90000);");
    config = dir.path() / "sqlmorph.toml";
    write_file(config,
               "[embedding]\nembedder = \"remote\"\n"
               "[embedders.remote]\nplugin = \"openai\"\n"
               "options = { base_url = \"" +
                   server.base_url() +
                   "\", api_key_env = \"\", model = \"fake-embed\", "
                   "max_batch = " +
                   std::to_string(max_batch) + ", timeout = 10.0 }\n");
    cases = dir.path() / "cases.jsonl";
    const std::string d = db.string();
    write_file(cases,
               "{\"id\": \"renamed\", \"db\": \"" + d +
                   "\", \"gold\": \"SELECT name, salary FROM staff\", "
                   "\"pred\": \"SELECT salary AS pay, name AS employee FROM staff\"}\n"
                   "{\"id\": \"subset\", \"db\": \"" +
                   d +
                   "\", \"gold\": \"SELECT name FROM staff WHERE dept = 'eng'\", "
                   "\"pred\": \"SELECT name, dept FROM staff\"}\n"
                   "{\"id\": \"same\", \"db\": \"" +
                   d + "\", \"gold\": \"SELECT dept FROM staff\", \"pred\": \"SELECT dept FROM staff\"}\n");
    cache = dir.path() / "cache" / "embeddings.sqlite";
  }

  test::command_result eval(const std::filesystem::path& out, const std::string& techniques,
                            const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"--config",
                                     config.string(),
                                     "-q",
                                     "eval",
                                     "--cases",
                                     cases.string(),
                                     "--out",
                                     out.string(),
                                     "--jobs",
                                     "1",
                                     "--techniques",
                                     techniques,
                                     "--penalize-extra-pred-cols",
                                     "both"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_sqlmorph(args);
  }
};

const char* all_semantic =
    "semantic_column_and_exact_cell,semantic_column_and_partial_cell,unified_column_and_semantic_row";

}  // namespace

TEST_CASE("semantic techniques on the openai embedder: a re-run with the embedding cache sends no request") {
  fake_openai_server server([](const test::recorded_request& r) {
    return scripted_reply::json(test::openai_replies::embeddings(r.body, 8));
  });
  const semantic_setup s(server, 4);
  const auto first = s.eval(s.dir.path() / "run1", all_semantic, {"--embedding-cache", s.cache.string()});
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const std::size_t first_requests = server.request_count();
  CHECK(first_requests > 0);
  CHECK(std::filesystem::exists(s.cache));
  // No text was ever sent twice (de-duplicated within a call, cached across calls), and no
  // request carried more than max_batch texts.
  std::multiset<std::string> sent;
  for (const auto& texts : inputs_of(server)) {
    CHECK(texts.size() <= 4);
    sent.insert(texts.begin(), texts.end());
  }
  CHECK(std::set<std::string>(sent.begin(), sent.end()).size() == sent.size());
  const auto numbers = metrics_of(s.dir.path() / "run1" / "results.jsonl");
  CHECK(numbers.size() == 3 * 5);
  for (const auto& [key, m] : numbers) {
    CAPTURE(key);
    CHECK(m.find("\"ok\"") != std::string::npos);
  }

  const auto second = s.eval(s.dir.path() / "run2", all_semantic, {"--embedding-cache", s.cache.string()});
  REQUIRE_MESSAGE(second.exit_code == 0, second.err);
  CHECK(server.request_count() == first_requests);  // zero new requests
  CHECK(metrics_of(s.dir.path() / "run2" / "results.jsonl") == numbers);

  // Without the disk cache the same run asks again, and agrees.
  const auto third = s.eval(s.dir.path() / "run3", all_semantic, {"--no-embedding-cache"});
  REQUIRE_MESSAGE(third.exit_code == 0, third.err);
  CHECK(server.request_count() > first_requests);
  CHECK(metrics_of(s.dir.path() / "run3" / "results.jsonl") == numbers);
}

TEST_CASE(
    "semantic techniques on the openai embedder: one call's texts go out de-duplicated, ceil(distinct / "
    "max_batch) requests") {
  fake_openai_server server([](const test::recorded_request& r) {
    return scripted_reply::json(test::openai_replies::embeddings(r.body, 8));
  });
  const semantic_setup s(server, 3);
  // One example, one technique: the unified rows of gold and prediction are embedded in one call.
  // Gold: 5 rows of dept → 'eng' x3, 'ops' x2; prediction the same with names: 5 distinct strings.
  write_file(s.cases,
             "{\"id\": \"rows\", \"db\": \"" + (s.dir.path() / "staff.sqlite").string() +
                 "\", \"gold\": \"SELECT dept FROM staff\", \"pred\": \"SELECT dept, name FROM staff\"}\n");
  const auto r = s.eval(s.dir.path() / "out", "unified_column_and_semantic_row", {"--no-embedding-cache"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // Texts: "eng" x3 and "ops" x2 ("dept | N/A" strings), plus 5 distinct "dept | name" strings → 7 distinct.
  std::vector<std::string> all;
  for (const auto& texts : inputs_of(server)) all.insert(all.end(), texts.begin(), texts.end());
  const std::set<std::string> distinct(all.begin(), all.end());
  CHECK(distinct.size() == 7);
  CHECK(all.size() == 7);
  CHECK(server.request_count() == 3);  // ceil(7 / 3)
}
