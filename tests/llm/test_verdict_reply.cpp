// Reading the model's verdict: tolerant JSON parsing and the verdict token's probability.

#include <doctest/doctest.h>

#include <cmath>

#include "openai_replies.hpp"
#include "verdict_reply.hpp"

using namespace sqlmorph::openai;

TEST_CASE("verdict replies are parsed tolerantly, anything else is malformed") {
  const struct {
    const char* content;
    bool ok;
    int verdict;
    const char* rationale_or_error;
  } cases[] = {
      {R"({"verdict": 1, "rationale": "ok"})", true, 1, "ok"},
      {R"({"verdict": 0, "rationale": "wrong table"})", true, 0, "wrong table"},
      {"```json\n{\"verdict\": 1, \"rationale\": \"fenced\"}\n```", true, 1, "fenced"},
      {"```\n{\"verdict\": 0}\n```", true, 0, ""},
      {"Sure! Here is my answer: {\"verdict\": \"1\", \"rationale\": \"text around\"} Hope it helps.", true,
       1, "text around"},
      {R"({"verdict": true, "rationale": "bool"})", true, 1, "bool"},
      {R"({"verdict": false})", true, 0, ""},
      {R"({"verdict": 1.0})", true, 1, ""},
      {"The SQL is correct.", false, 0, "no JSON object"},
      {R"({"verdict": 1, "rationale": )", false, 0, "no JSON object"},
      {R"({"verdict": 1 "rationale": "x"})", false, 0, "not valid JSON"},
      {R"({"answer": 1})", false, 0, "has no \"verdict\""},
      {R"({"verdict": 2})", false, 0, "not 0 or 1"},
      {R"({"verdict": "yes"})", false, 0, "not 0 or 1"},
      {"", false, 0, "no JSON object"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.content);
    const parsed_verdict p = parse_verdict(c.content);
    CHECK(p.ok == c.ok);
    if (c.ok) {
      CHECK(p.verdict == c.verdict);
      CHECK(p.rationale == c.rationale_or_error);
    } else {
      CHECK_MESSAGE(p.error.find(c.rationale_or_error) != std::string::npos, p.error);
    }
  }
}

TEST_CASE("the verdict token's probability is read from logprobs") {
  const std::string content = R"({"verdict": 1, "rationale": "ok"})";
  auto token = [](const std::string& t, double p, nlohmann::json top = nlohmann::json::array()) {
    return nlohmann::json{{"token", t}, {"logprob", std::log(p)}, {"top_logprobs", top}};
  };
  auto alt = [](const std::string& t, double p) {
    return nlohmann::json{{"token", t}, {"logprob", std::log(p)}};
  };

  SUBCASE("P1 / (P0 + P1) over the alternatives, the digit as its own token") {
    const nlohmann::json lp = {
        {"content",
         {token("{\"verdict\": ", 0.99), token("1", 0.7, {alt("1", 0.7), alt("0", 0.2), alt("2", 0.1)}),
          token(", \"rationale\": \"ok\"}", 0.9)}}};
    CHECK(verdict_probability(content, lp) == doctest::Approx(0.7 / 0.9));
  }
  SUBCASE("the digit glued to a blank, alternatives with and without blanks add up") {
    const nlohmann::json lp = {
        {"content",
         {token("{\"verdict\":", 0.99), token(" 1", 0.6, {alt(" 1", 0.6), alt("1", 0.1), alt(" 0", 0.3)}),
          token(", \"rationale\": \"ok\"}", 0.9)}}};
    CHECK(verdict_probability(content, lp) == doctest::Approx(0.7));
  }
  SUBCASE("no alternatives: the chosen token's probability, the rest to the other verdict") {
    const nlohmann::json lp = {
        {"content",
         {token("{\"verdict\": ", 0.99), token("1", 0.8), token(", \"rationale\": \"ok\"}", 0.9)}}};
    CHECK(verdict_probability(content, lp) == doctest::Approx(0.8));
    const std::string zero = R"({"verdict": 0, "rationale": "ok"})";
    const nlohmann::json lp0 = {
        {"content",
         {token("{\"verdict\": ", 0.99), token("0", 0.8), token(", \"rationale\": \"ok\"}", 0.9)}}};
    CHECK(verdict_probability(zero, lp0) == doctest::Approx(0.2));
  }
  SUBCASE("logprobs that do not spell the content, or no logprobs, give nothing") {
    const nlohmann::json other = {{"content", {token("{\"verdict\": 0}", 0.9)}}};
    CHECK_FALSE(verdict_probability(content, other).has_value());
    CHECK_FALSE(verdict_probability(content, nullptr).has_value());
    CHECK_FALSE(
        verdict_probability("no verdict here", {{"content", {token("no verdict here", 0.9)}}}).has_value());
  }
  SUBCASE("what the fake server sends") {
    const nlohmann::json reply = nlohmann::json::parse(sqlmorph::test::openai_replies::chat_completion(
        {{content, sqlmorph::test::openai_replies::verdict_probabilities{0.8, 0.2}}}));
    CHECK(verdict_probability(content, reply["choices"][0]["logprobs"]) == doctest::Approx(0.8));
  }
}
