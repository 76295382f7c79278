// The `openai` embedder against the loopback fake server: batching and order, retries and giving
// up, time limits, malformed replies, the API key.

#include <doctest/doctest.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>

#include <sqlmorph/embedder.hpp>

#include "openai_replies.hpp"
#include "openai_test_helpers.hpp"

using namespace sqlmorph;
using test::fake_openai_server;
using test::scripted_reply;
namespace replies = test::openai_replies;

namespace {

std::shared_ptr<const embedder> make_embedder(const core::component_spec& spec) {
  return test::registry().create<embedder>(spec);
}

std::vector<std::string> numbered_texts(int n) {
  std::vector<std::string> texts;
  for (int i = 0; i < n; ++i) texts.push_back("text number " + std::to_string(i));
  return texts;
}

fake_openai_server::handler embeddings_handler(bool reversed = false) {
  return [reversed](const test::recorded_request& r) {
    return scripted_reply::json(replies::embeddings(r.body, 8, reversed));
  };
}

}  // namespace

TEST_CASE("embedder: N texts with max_batch B take ceil(N/B) requests and keep the input order") {
  const struct {
    int texts;
    int batch;
    std::size_t requests;
  } cases[] = {{10, 4, 3}, {8, 4, 2}, {1, 4, 1}, {5, 1, 5}, {7, 100, 1}};
  for (const auto& c : cases) {
    CAPTURE(c.texts);
    CAPTURE(c.batch);
    // The server lists each batch's vectors last first: only `index` tells which input they are for.
    fake_openai_server server(embeddings_handler(/*reversed=*/true));
    const auto e =
        make_embedder(test::openai_spec("openai", server).with("max_batch", std::int64_t{c.batch}));
    CHECK(e->max_batch() == static_cast<std::size_t>(c.batch));
    const std::vector<std::string> texts = numbered_texts(c.texts);
    const embedding_outcome out = e->embed(texts);
    REQUIRE_MESSAGE(out.ok, out.error);
    REQUIRE(out.vectors.size() == texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) CHECK(out.vectors[i] == replies::vector_for(texts[i], 8));
    CHECK(server.request_count() == c.requests);

    std::size_t sent = 0;
    for (const test::recorded_request& r : server.requests()) {
      CHECK(r.method == "POST");
      CHECK(r.path == "/v1/embeddings");
      const nlohmann::json body = nlohmann::json::parse(r.body);
      CHECK(body["model"] == "text-embedding-3-small");
      CHECK(body["input"].size() <= static_cast<std::size_t>(c.batch));
      for (const auto& t : body["input"]) CHECK(t.get<std::string>() == texts[sent++]);
    }
    CHECK(sent == texts.size());
  }
}

TEST_CASE("embedder: 429 and 5xx replies are retried until one succeeds") {
  fake_openai_server server(embeddings_handler());
  server.enqueue(scripted_reply::rate_limited(0));
  server.enqueue(scripted_reply::server_error(503));
  server.enqueue(scripted_reply::server_error(500));
  const auto e = make_embedder(test::openai_spec("openai", server).with("max_retries", std::int64_t{3}));
  const embedding_outcome out = e->embed(numbered_texts(2));
  REQUIRE_MESSAGE(out.ok, out.error);
  CHECK(out.vectors.size() == 2);
  CHECK(server.request_count() == 4);
}

TEST_CASE("embedder: a dropped connection is retried") {
  fake_openai_server server(embeddings_handler());
  scripted_reply drop;
  drop.drop = true;
  server.enqueue(drop);
  const auto e = make_embedder(test::openai_spec("openai", server).with("max_retries", std::int64_t{1}));
  const embedding_outcome out = e->embed(numbered_texts(1));
  REQUIRE_MESSAGE(out.ok, out.error);
  CHECK(server.request_count() == 2);
}

TEST_CASE("embedder: the delay a 429 asks for is waited out (Retry-After and retry-after-ms)") {
  SUBCASE("Retry-After: 1") {
    fake_openai_server server(embeddings_handler());
    server.enqueue(scripted_reply::rate_limited(1));
    const auto e = make_embedder(test::openai_spec("openai", server).with("retry_base_delay", 0.0));
    const auto start = std::chrono::steady_clock::now();
    const embedding_outcome out = e->embed(numbered_texts(1));
    REQUIRE_MESSAGE(out.ok, out.error);
    CHECK(test::seconds_since(start) >= 0.95);
    CHECK(server.request_count() == 2);
  }
  SUBCASE("retry-after-ms: 400") {
    fake_openai_server server(embeddings_handler());
    server.enqueue(scripted_reply::rate_limited_ms(400));
    const auto e = make_embedder(test::openai_spec("openai", server).with("retry_base_delay", 0.0));
    const auto start = std::chrono::steady_clock::now();
    const embedding_outcome out = e->embed(numbered_texts(1));
    REQUIRE_MESSAGE(out.ok, out.error);
    CHECK(test::seconds_since(start) >= 0.38);
    CHECK(server.request_count() == 2);
  }
}

TEST_CASE("embedder: gives up after max_retries with the endpoint, the status and the server's message") {
  fake_openai_server server([](const test::recorded_request&) { return scripted_reply::server_error(503); });
  const auto e = make_embedder(test::openai_spec("openai", server).with("max_retries", std::int64_t{2}));
  const embedding_outcome out = e->embed(numbered_texts(3));
  CHECK_FALSE(out.ok);
  CHECK(out.vectors.empty());
  CHECK(server.request_count() == 3);
  CHECK(out.error.find("POST " + server.base_url() + "/embeddings") != std::string::npos);
  CHECK(out.error.find("HTTP 503") != std::string::npos);
  CHECK(out.error.find("The server had an error") != std::string::npos);
  CHECK(out.error.find("gave up after 3 attempts") != std::string::npos);
}

TEST_CASE("embedder: a client error (400, 401, 404) is not retried") {
  for (const int status : {400, 401, 404}) {
    CAPTURE(status);
    fake_openai_server server([status](const test::recorded_request&) {
      return scripted_reply::json(R"({"error":{"message":"no such model"}})", status);
    });
    const auto e = make_embedder(test::openai_spec("openai", server));
    const embedding_outcome out = e->embed(numbered_texts(1));
    CHECK_FALSE(out.ok);
    CHECK(out.error.find("HTTP " + std::to_string(status) + ": no such model") != std::string::npos);
    CHECK(server.request_count() == 1);
  }
}

TEST_CASE("embedder: a slow reply ends at the timeout") {
  fake_openai_server server([](const test::recorded_request& r) {
    scripted_reply slow = scripted_reply::json(replies::embeddings(r.body));
    slow.delay = std::chrono::milliseconds(60000);  // far past the bound below (cut short at teardown)
    return slow;
  });
  const auto e = make_embedder(
      test::openai_spec("openai", server).with("timeout", 0.3).with("max_retries", std::int64_t{1}));
  const auto start = std::chrono::steady_clock::now();
  const embedding_outcome out = e->embed(numbered_texts(1));
  const double elapsed = test::seconds_since(start);
  CHECK_FALSE(out.ok);
  CHECK(out.error.find("no response within 0.3 s (option timeout)") != std::string::npos);
  CHECK(out.error.find("gave up after 2 attempts") != std::string::npos);
  CHECK(server.request_count() == 2);
  CHECK(elapsed >= 0.55);
  CHECK(elapsed < 20.0);  // generous: proves it stopped, not how fast
}

TEST_CASE("embedder: malformed replies are errors") {
  const struct {
    const char* body;
    const char* message;
  } cases[] = {
      {"{\"data\": [", "the reply is not JSON"},
      {"<html>bad gateway</html>", "the reply is not JSON"},
      {R"({"object":"list"})", "the reply has no 'data' array"},
      {R"({"data":[{"index":0,"embedding":[1,0]}]})", "asked for 2 embeddings, got 1"},
      {R"({"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[0,1]}]})", "index 0, given twice"},
      {R"({"data":[{"index":0,"embedding":[1,0]},{"index":5,"embedding":[0,1]}]})", "outside the batch"},
      {R"({"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":"AAAA"}]})", "no 'embedding' array"},
      {R"({"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,1,2]}]})", "different lengths"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    fake_openai_server server;
    server.enqueue(scripted_reply::json(c.body));
    const auto e = make_embedder(test::openai_spec("openai", server));
    const embedding_outcome out = e->embed(numbered_texts(2));
    CHECK_FALSE(out.ok);
    CHECK_MESSAGE(out.error.find(c.message) != std::string::npos, out.error);
    CHECK(server.request_count() == 1);  // a malformed 200 is not retried
  }
}

TEST_CASE("embedder: model_id names the endpoint and the model") {
  fake_openai_server server(embeddings_handler());
  const auto a = make_embedder(test::openai_spec("openai", server).with("model", std::string("m1")));
  const auto b = make_embedder(test::openai_spec("openai", server).with("model", std::string("m2")));
  const auto c = make_embedder(test::openai_spec("openai", server)
                                   .with("model", std::string("m1"))
                                   .with("dimensions", std::int64_t{4}));
  CHECK(a->model_id() == "openai:" + server.base_url() + "|m1");
  CHECK(b->model_id() == "openai:" + server.base_url() + "|m2");
  CHECK(c->model_id() == "openai:" + server.base_url() + "|m1|dim=4");
  CHECK(c->embed(numbered_texts(1)).ok);
  CHECK(nlohmann::json::parse(server.requests().back().body)["dimensions"] == 4);
}

TEST_CASE("embedder: the API key comes from the environment variable api_key_env names") {
  fake_openai_server server(embeddings_handler());
  ::setenv("SQLMORPH_TEST_EMBEDDER_KEY", "sk-test-embedder", 1);
  const auto keyed = make_embedder(
      test::openai_spec("openai", server).with("api_key_env", std::string("SQLMORPH_TEST_EMBEDDER_KEY")));
  REQUIRE(keyed->embed(numbered_texts(1)).ok);
  CHECK(server.requests().back().header("authorization") == "Bearer sk-test-embedder");
  // The key names the variable, never its value: it is not in the model id either.
  CHECK(keyed->model_id().find("sk-test") == std::string::npos);

  const auto keyless = make_embedder(test::openai_spec("openai", server).with("max_batch", std::int64_t{3}));
  REQUIRE(keyless->embed(numbered_texts(1)).ok);
  CHECK(server.requests().back().header("authorization").empty());

  ::unsetenv("SQLMORPH_TEST_UNSET_KEY");
  const std::string error = test::usage_error_of([&] {
    make_embedder(
        test::openai_spec("openai", server).with("api_key_env", std::string("SQLMORPH_TEST_UNSET_KEY")));
  });
  CHECK(error.find("SQLMORPH_TEST_UNSET_KEY") != std::string::npos);
  CHECK(error.find("is not set") != std::string::npos);
}

TEST_CASE("embedder: out-of-range options are refused when it is created") {
  fake_openai_server server;
  const struct {
    const char* option;
    core::spec_value value;
    const char* message;
  } cases[] = {
      {"max_batch", std::int64_t{0}, "max_batch"},
      {"timeout", 0.0, "timeout"},
      {"max_retries", std::int64_t{-1}, "max_retries"},
      {"max_in_flight", std::int64_t{0}, "max_in_flight"},
      {"base_url", std::string("localhost:8000/v1"), "base_url must start with http"},
      {"model", std::string(""), "model"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.option);
    const std::string error = test::usage_error_of(
        [&] { make_embedder(test::openai_spec("openai", server).with(c.option, c.value)); });
    CHECK_MESSAGE(error.find(c.message) != std::string::npos, error);
  }
}
