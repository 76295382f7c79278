// The `sql_adherence` judge against the loopback fake server: vote aggregation, logprob
// confidence, malformed replies, the reply cache, the in-flight limit, the prompt template, the
// API key.

#include <doctest/doctest.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <thread>

#include <sqlmorph/judge.hpp>

#include "openai_replies.hpp"
#include "openai_test_helpers.hpp"

using namespace sqlmorph;
using test::fake_openai_server;
using test::scripted_reply;
namespace replies = test::openai_replies;

namespace {

std::shared_ptr<const judge> make_judge(const core::component_spec& spec) {
  return test::registry().create<judge>(spec);
}

judge_request example(const std::string& id = "q1") {
  judge_request r;
  r.id = id;
  r.question = "How many singers are there? (" + id + ")";
  r.sql = "SELECT count(*) FROM singer";
  r.dialect = "sqlite";
  r.schema = "CREATE TABLE singer (id INTEGER, name TEXT);";
  return r;
}

scripted_reply verdict_reply(int verdict, const std::string& rationale = "because") {
  return scripted_reply::json(
      replies::chat_completion({{replies::verdict_json(verdict, rationale), std::nullopt}}));
}

const field_value* extra(const judge_verdict& v, const std::string& name) {
  for (const auto& [n, value] : v.extra) {
    if (n == name) return &value;
  }
  return nullptr;
}

std::string prompt_of(const test::recorded_request& r) {
  return nlohmann::json::parse(r.body)["messages"][0]["content"].get<std::string>();
}

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("judge: the label is the majority of k votes and the confidence its share, a tie is 0") {
  const struct {
    std::vector<int> votes;
    int label;
    double confidence;
  } cases[] = {
      {{1, 1, 1, 0, 0}, 1, 60.0},
      {{0, 1, 0, 1, 1}, 1, 60.0},
      {{0, 0, 1, 0, 0}, 0, 80.0},
      {{1, 1, 1, 1, 1}, 1, 100.0},
      {{1, 0, 1, 0}, 0, 50.0},
      {{1}, 1, 100.0},
      {{0}, 0, 100.0},
      {{1, 1, 0}, 1, 200.0 / 3},
  };
  for (const auto& c : cases) {
    CAPTURE(c.votes.size());
    CAPTURE(c.label);
    fake_openai_server server;
    for (std::size_t i = 0; i < c.votes.size(); ++i) {
      server.enqueue(verdict_reply(c.votes[i], "rationale " + std::to_string(i)));
    }
    const auto j = make_judge(
        test::openai_spec("sql_adherence", server).with("votes", static_cast<std::int64_t>(c.votes.size())));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.label == c.label);
    CHECK(v.confidence == doctest::Approx(c.confidence));
    CHECK(v.votes == c.votes);
    REQUIRE(v.rationales.size() == c.votes.size());
    CHECK(v.rationales.front() == "rationale 0");
    CHECK(v.prompt_tokens == 10 * c.votes.size());
    CHECK(v.completion_tokens == 5 * c.votes.size());
    CHECK(server.request_count() == c.votes.size());  // one request per vote (use_n = false)
    const nlohmann::json body = nlohmann::json::parse(server.requests().front().body);
    CHECK(body["model"] == "gpt-4o-mini");
    CHECK(body["temperature"].get<double>() == doctest::Approx(0.7));
    CHECK(body["max_tokens"] == 300);
    CHECK_FALSE(body.contains("n"));
    CHECK_FALSE(body.contains("logprobs"));
    CHECK(std::get<std::string>(*extra(v, "confidence_source")) == "votes");
  }
}

TEST_CASE("judge: use_n asks for every vote in one request, and falls back when the server ignores n") {
  SUBCASE("the server honours n") {
    fake_openai_server server(replies::deterministic_handler());
    const auto j = make_judge(test::openai_spec("sql_adherence", server).with("use_n", true));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.votes.size() == 5);
    REQUIRE(server.request_count() == 1);
    CHECK(nlohmann::json::parse(server.requests()[0].body)["n"] == 5);
  }
  SUBCASE("the server answers one choice whatever n is") {
    fake_openai_server server([](const test::recorded_request&) { return verdict_reply(1); });
    const auto j = make_judge(
        test::openai_spec("sql_adherence", server).with("use_n", true).with("votes", std::int64_t{4}));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.votes == std::vector<int>{1, 1, 1, 1});
    REQUIRE(server.request_count() == 4);  // n = 4 once, then one request per remaining vote
    CHECK(nlohmann::json::parse(server.requests()[0].body)["n"] == 4);
    CHECK_FALSE(nlohmann::json::parse(server.requests()[1].body).contains("n"));
  }
}

TEST_CASE("judge: with logprobs the confidence is the mean probability of the label's verdict token") {
  const struct {
    std::vector<std::pair<int, replies::verdict_probabilities>> votes;
    int label;
    double confidence;
  } cases[] = {
      {{{1, {0.8, 0.2}}}, 1, 80.0},
      {{{0, {0.1, 0.9}}}, 0, 90.0},
      {{{1, {0.9, 0.1}}, {1, {0.7, 0.3}}, {0, {0.4, 0.6}}}, 1, 100.0 * (0.9 + 0.7 + 0.4) / 3},
      // P1 and P0 are normalised over the two: 0.6 / (0.6 + 0.2)
      {{{1, {0.6, 0.2}}}, 1, 75.0},
  };
  for (const auto& c : cases) {
    CAPTURE(c.confidence);
    fake_openai_server server;
    for (const auto& [verdict, p] : c.votes) {
      server.enqueue(scripted_reply::json(replies::chat_completion({{replies::verdict_json(verdict), p}})));
    }
    const auto j = make_judge(test::openai_spec("sql_adherence", server)
                                  .with("logprobs", true)
                                  .with("votes", static_cast<std::int64_t>(c.votes.size())));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.label == c.label);
    CHECK(v.confidence == doctest::Approx(c.confidence));
    CHECK(std::get<std::string>(*extra(v, "confidence_source")) == "logprobs");
    const nlohmann::json body = nlohmann::json::parse(server.requests().front().body);
    CHECK(body["logprobs"] == true);
    CHECK(body["top_logprobs"] == 5);
  }

  SUBCASE("a vote without logprobs makes the confidence the vote share again") {
    fake_openai_server server;
    server.enqueue(scripted_reply::json(
        replies::chat_completion({{replies::verdict_json(1), replies::verdict_probabilities{0.9, 0.1}}})));
    server.enqueue(verdict_reply(1));
    const auto j = make_judge(
        test::openai_spec("sql_adherence", server).with("logprobs", true).with("votes", std::int64_t{2}));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.confidence == doctest::Approx(100.0));
    CHECK(std::get<std::string>(*extra(v, "confidence_source")) == "votes");
  }
}

TEST_CASE("judge: a malformed reply is asked again, and reported as judge_error when it stays malformed") {
  SUBCASE("malformed, then a verdict in code fences") {
    fake_openai_server server;
    server.enqueue(
        scripted_reply::json(replies::chat_completion({{"I think the query is fine.", std::nullopt}})));
    server.enqueue(scripted_reply::json(replies::chat_completion(
        {{"```json\n{\"verdict\": 1, \"rationale\": \"counts singers\"}\n```", std::nullopt}})));
    const auto j = make_judge(test::openai_spec("sql_adherence", server).with("votes", std::int64_t{1}));
    const judge_verdict v = j->evaluate(example());
    REQUIRE_MESSAGE(v.ok, v.error);
    CHECK(v.label == 1);
    CHECK(v.rationales == std::vector<std::string>{"counts singers"});
    CHECK(server.request_count() == 2);
    CHECK(v.prompt_tokens == 20);  // both replies' usage
  }
  SUBCASE("malformed every time") {
    fake_openai_server server([](const test::recorded_request&) {
      return scripted_reply::json(replies::chat_completion({{R"({"verdict": "maybe"})", std::nullopt}}));
    });
    const auto j = make_judge(test::openai_spec("sql_adherence", server)
                                  .with("votes", std::int64_t{3})
                                  .with("malformed_retries", std::int64_t{2}));
    const judge_verdict v = j->evaluate(example());
    CHECK_FALSE(v.ok);
    CHECK_FALSE(v.label.has_value());
    CHECK(v.error.starts_with("judge_error: vote 1 of 3: malformed reply after 3 attempts"));
    CHECK(v.error.find("\"verdict\" is not 0 or 1") != std::string::npos);
    CHECK(server.request_count() == 3);
  }
}

TEST_CASE("judge: a failing endpoint is a judge_error naming the endpoint and the status") {
  fake_openai_server server([](const test::recorded_request&) {
    return scripted_reply::json(R"({"error":{"message":"Incorrect API key provided"}})", 401);
  });
  const auto j = make_judge(test::openai_spec("sql_adherence", server));
  const judge_verdict v = j->evaluate(example());
  CHECK_FALSE(v.ok);
  CHECK(v.error.starts_with("judge_error: POST " + server.base_url() + "/chat/completions: HTTP 401"));
  CHECK(v.error.find("Incorrect API key provided") != std::string::npos);
  CHECK(server.request_count() == 1);
}

TEST_CASE("judge: replies are cached by prompt, so a second run sends no request") {
  test::temp_dir dir;
  const std::string cache = (dir.path() / "judge-cache.sqlite").string();
  fake_openai_server server(replies::deterministic_handler());
  const core::component_spec spec =
      test::openai_spec("sql_adherence", server).with("cache", cache).with("votes", std::int64_t{3});

  const judge_verdict first = make_judge(spec)->evaluate(example());
  REQUIRE_MESSAGE(first.ok, first.error);
  CHECK(server.request_count() == 3);
  CHECK(std::get<std::int64_t>(*extra(first, "cached_votes")) == 0);

  // Another instance over the same file (max_in_flight does not shape replies, so it is not in the key).
  const auto again = make_judge(core::component_spec(spec).with("max_in_flight", std::int64_t{2}));
  const judge_verdict second = again->evaluate(example());
  REQUIRE_MESSAGE(second.ok, second.error);
  CHECK(server.request_count() == 3);  // zero new requests
  CHECK(second.votes == first.votes);
  CHECK(second.rationales == first.rationales);
  CHECK(second.label == first.label);
  CHECK(second.confidence == first.confidence);
  CHECK(second.prompt_tokens == 0);
  CHECK(std::get<std::int64_t>(*extra(second, "cached_votes")) == 3);
  CHECK(std::get<std::int64_t>(*extra(second, "requests")) == 0);

  // What shapes the reply is in the key: another prompt, temperature, model or more votes ask again.
  CHECK(again->evaluate(example("q2")).ok);
  CHECK(server.request_count() == 6);
  CHECK(make_judge(core::component_spec(spec).with("temperature", 0.9))->evaluate(example()).ok);
  CHECK(server.request_count() == 9);
  CHECK(make_judge(core::component_spec(spec).with("model", std::string("other")))->evaluate(example()).ok);
  CHECK(server.request_count() == 12);
  CHECK(make_judge(core::component_spec(spec).with("votes", std::int64_t{4}))->evaluate(example()).ok);
  CHECK(server.request_count() == 13);  // votes 1-3 cached, vote 4 asked
}

TEST_CASE("judge: never more than max_in_flight requests reach the server at once, across threads") {
  const struct { std::int64_t limit; } cases[] = {{1}, {2}, {6}};
  for (const auto& c : cases) {
    CAPTURE(c.limit);
    fake_openai_server server([](const test::recorded_request& r) {
      scripted_reply reply = replies::deterministic_handler()(r);
      reply.delay = std::chrono::milliseconds(60);
      return reply;
    });
    const auto j = make_judge(test::openai_spec("sql_adherence", server)
                                  .with("max_in_flight", c.limit)
                                  .with("votes", std::int64_t{2}));
    std::atomic<int> ok{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < 6; ++t) {
      workers.emplace_back([&, t] {
        if (j->evaluate(example("thread " + std::to_string(t))).ok) ++ok;
      });
    }
    for (std::thread& w : workers) w.join();
    CHECK(ok == 6);
    CHECK(server.request_count() == 12);
    CHECK(server.max_in_flight() <= static_cast<std::size_t>(c.limit));
    // Six workers do overlap: the limit, not a lack of concurrency, is what held them back.
    CHECK(server.max_in_flight() == static_cast<std::size_t>(c.limit));
  }
}

TEST_CASE("judge: the prompt template file is filled in, and empty sections leave no trace") {
  test::temp_dir dir;
  const std::filesystem::path file = dir.path() / "prompt.txt";
  write_file(file,
             "Q: {{question}}\n"
             "{{#hints}}\n"
             "Hints: {{hints}}\n"
             "{{/hints}}\n"
             "{{^hints}}\n"
             "(no hints)\n"
             "{{/hints}}\n"
             "{{#schema}}\n"
             "Schema:\n{{schema}}\n"
             "{{/schema}}\n"
             "SQL ({{ dialect }}): {{sql}}\n");
  fake_openai_server server([](const test::recorded_request&) { return verdict_reply(1); });
  const auto j = make_judge(test::openai_spec("sql_adherence", server)
                                .with("prompt_template", file.string())
                                .with("votes", std::int64_t{1}));

  judge_request r = example();
  r.question = "Which {{sql}} is this?";  // values are inserted, never read as template text
  r.hints = "singer means a row of singer";
  REQUIRE(j->evaluate(r).ok);
  CHECK(prompt_of(server.requests().back()) ==
        "Q: Which {{sql}} is this?\n"
        "Hints: singer means a row of singer\n"
        "Schema:\nCREATE TABLE singer (id INTEGER, name TEXT);\n"
        "SQL (sqlite): SELECT count(*) FROM singer\n");

  r.hints.clear();
  r.schema.clear();
  REQUIRE(j->evaluate(r).ok);
  CHECK(prompt_of(server.requests().back()) ==
        "Q: Which {{sql}} is this?\n"
        "(no hints)\n"
        "SQL (sqlite): SELECT count(*) FROM singer\n");
}

TEST_CASE("judge: a template with an unknown placeholder or an open section is refused, naming the line") {
  test::temp_dir dir;
  fake_openai_server server;
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"Q: {{question}}\nSQL: {{query}}\n", "prompt.txt:2: unknown placeholder '{{query}}'"},
      {"{{#hints}}\nHints: {{hints}}\n", "prompt.txt:1: section '{{#hints}}' is never closed"},
      {"{{#hints}}x{{/schema}}", "prompt.txt:1: '{{/schema}}' closes no open section"},
      {"Q: {{question\n", "prompt.txt:1: '{{' without '}}'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const std::filesystem::path file = dir.path() / "prompt.txt";
    write_file(file, c.text);
    const std::string error = test::usage_error_of([&] {
      make_judge(test::openai_spec("sql_adherence", server)
                     .with("prompt_template", file.string())
                     .with("model", std::string(c.text)));  // a distinct spec per case
    });
    CHECK_MESSAGE(error.find(c.message) != std::string::npos, error);
  }
  const std::string missing = test::usage_error_of([&] {
    make_judge(test::openai_spec("sql_adherence", server)
                   .with("prompt_template", (dir.path() / "nope.txt").string()));
  });
  CHECK(missing.find("cannot read the prompt template") != std::string::npos);
}

TEST_CASE("judge: the shipped prompt template is found next to the plugin and omits empty hints") {
  fake_openai_server server([](const test::recorded_request&) { return verdict_reply(1); });
  const auto j = make_judge(test::openai_spec("sql_adherence", server).with("votes", std::int64_t{1}));
  judge_request r = example();
  REQUIRE(j->evaluate(r).ok);
  const std::string prompt = prompt_of(server.requests().back());
  CHECK(prompt.find(r.question) != std::string::npos);
  CHECK(prompt.find("SQL (sqlite):\nSELECT count(*) FROM singer") != std::string::npos);
  CHECK(prompt.find(r.schema) != std::string::npos);
  CHECK(prompt.find("Hints") == std::string::npos);
  CHECK(prompt.find("{{") == std::string::npos);
  CHECK(prompt.find("\"verdict\"") != std::string::npos);

  r.hints = "a singer is a row of singer";
  REQUIRE(j->evaluate(r).ok);
  CHECK(prompt_of(server.requests().back())
            .find("Hints (domain knowledge the question relies on):\n" + r.hints) != std::string::npos);
}

TEST_CASE(
    "judge: the API key is sent as Authorization: Bearer from the named variable, a missing one is refused") {
  fake_openai_server server([](const test::recorded_request&) { return verdict_reply(1); });
  ::setenv("SQLMORPH_TEST_JUDGE_KEY", "sk-test-judge", 1);
  const auto j = make_judge(test::openai_spec("sql_adherence", server)
                                .with("api_key_env", std::string("SQLMORPH_TEST_JUDGE_KEY"))
                                .with("votes", std::int64_t{1}));
  const judge_verdict v = j->evaluate(example());
  REQUIRE_MESSAGE(v.ok, v.error);
  CHECK(server.requests().back().header("authorization") == "Bearer sk-test-judge");

  ::unsetenv("SQLMORPH_TEST_JUDGE_UNSET");
  const std::string error = test::usage_error_of([&] {
    make_judge(test::openai_spec("sql_adherence", server)
                   .with("api_key_env", std::string("SQLMORPH_TEST_JUDGE_UNSET")));
  });
  CHECK(error.find("the environment variable SQLMORPH_TEST_JUDGE_UNSET (option api_key_env) is not set") !=
        std::string::npos);
}

TEST_CASE("judge: out-of-range options are refused when it is created") {
  fake_openai_server server;
  const struct {
    const char* option;
    core::spec_value value;
    const char* message;
  } cases[] = {
      {"temperature", 0.0, "temperature must be > 0 when votes > 1"},
      {"temperature", 3.0, "temperature must be in [0, 2]"},
      {"votes", std::int64_t{0}, "votes must be in [1, 100]"},
      {"malformed_retries", std::int64_t{-1}, "malformed_retries"},
      {"cache", std::string("/nonexistent-dir/cache.sqlite"), "cannot open the judge cache"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.option);
    const std::string error = test::usage_error_of(
        [&] { make_judge(test::openai_spec("sql_adherence", server).with(c.option, c.value)); });
    CHECK_MESSAGE(error.find(c.message) != std::string::npos, error);
  }
  // One vote may be greedy.
  CHECK_NOTHROW(make_judge(
      test::openai_spec("sql_adherence", server).with("temperature", 0.0).with("votes", std::int64_t{1})));
}
