#include "openai_replies.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace sqlmorph::test::openai_replies {

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The tokens of `content` as a tokenizer might cut it: the verdict digit is its own token.
nlohmann::json logprob_tokens(const std::string& content, const verdict_probabilities& p) {
  nlohmann::json tokens = nlohmann::json::array();
  const std::size_t key = content.find("\"verdict\"");
  std::size_t digit = std::string::npos;
  if (key != std::string::npos) digit = content.find_first_of("01", key + 9);
  auto plain = [](const std::string& text) {
    return nlohmann::json{{"token", text}, {"logprob", -0.01}, {"top_logprobs", nlohmann::json::array()}};
  };
  if (digit == std::string::npos) {
    tokens.push_back(plain(content));
    return tokens;
  }
  const std::string chosen(1, content[digit]);
  const double p_chosen = chosen == "1" ? p.p1 : p.p0;
  if (digit > 0) tokens.push_back(plain(content.substr(0, digit)));
  tokens.push_back(
      {{"token", chosen},
       {"logprob", std::log(p_chosen)},
       {"top_logprobs",
        {{{"token", "1"}, {"logprob", std::log(p.p1)}}, {{"token", "0"}, {"logprob", std::log(p.p0)}}}}});
  if (digit + 1 < content.size()) tokens.push_back(plain(content.substr(digit + 1)));
  return tokens;
}

}  // namespace

std::vector<double> vector_for(const std::string& text, int dimensions) {
  std::vector<double> v(static_cast<std::size_t>(dimensions));
  std::uint64_t h = fnv1a(text);
  double norm = 0;
  for (double& x : v) {
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<double>(h >> 11) / 9007199254740992.0 - 0.5;
    norm += x * x;
  }
  norm = std::sqrt(norm);
  for (double& x : v) x = norm > 0 ? x / norm : 0.0;
  return v;
}

std::string embeddings(const std::string& request_body, int dimensions, bool reversed) {
  const nlohmann::json request = nlohmann::json::parse(request_body);
  std::vector<std::string> inputs;
  if (request["input"].is_string()) {
    inputs.push_back(request["input"].get<std::string>());
  } else {
    for (const auto& t : request["input"]) inputs.push_back(t.get<std::string>());
  }
  nlohmann::json data = nlohmann::json::array();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::size_t k = reversed ? inputs.size() - 1 - i : i;
    data.push_back({{"object", "embedding"}, {"index", k}, {"embedding", vector_for(inputs[k], dimensions)}});
  }
  return nlohmann::json{{"object", "list"},
                        {"data", data},
                        {"model", request.value("model", "")},
                        {"usage", {{"prompt_tokens", inputs.size()}, {"total_tokens", inputs.size()}}}}
      .dump();
}

std::string chat_completion(const std::vector<choice>& choices, std::uint64_t prompt_tokens,
                            std::uint64_t completion_tokens) {
  nlohmann::json out = {{"id", "chatcmpl-fake"}, {"object", "chat.completion"}, {"model", "fake"}};
  out["choices"] = nlohmann::json::array();
  for (std::size_t i = 0; i < choices.size(); ++i) {
    nlohmann::json c = {{"index", i},
                        {"message", {{"role", "assistant"}, {"content", choices[i].content}}},
                        {"finish_reason", "stop"}};
    c["logprobs"] =
        choices[i].logprobs
            ? nlohmann::json{{"content", logprob_tokens(choices[i].content, *choices[i].logprobs)}}
            : nlohmann::json(nullptr);
    out["choices"].push_back(c);
  }
  out["usage"] = {{"prompt_tokens", prompt_tokens},
                  {"completion_tokens", completion_tokens},
                  {"total_tokens", prompt_tokens + completion_tokens}};
  return out.dump();
}

std::string verdict_json(int verdict, const std::string& rationale) {
  return nlohmann::json{{"verdict", verdict}, {"rationale", rationale}}.dump();
}

fake_openai_server::handler deterministic_handler(int dimensions) {
  return [dimensions](const recorded_request& r) {
    if (r.path == "/v1/embeddings") return scripted_reply::json(embeddings(r.body, dimensions));
    if (r.path != "/v1/chat/completions") {
      return scripted_reply::json(R"({"error":{"message":"fake_openai: unknown path"}})", 404);
    }
    const nlohmann::json request = nlohmann::json::parse(r.body, nullptr, false);
    if (!request.is_object() || !request.contains("messages")) {
      return scripted_reply::json(R"({"error":{"message":"fake_openai: expected messages"}})", 400);
    }
    const std::string prompt = request["messages"].dump();
    const int n = request.value("n", 1);
    const bool logprobs = request.value("logprobs", false);
    // The verdict follows the prompt (a fixed answer per prompt and vote), so a demo gives the same
    // figures every run; about three votes in four say 1.
    std::vector<choice> choices;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t h = fnv1a(prompt + "#" + std::to_string(i));
      const int verdict = (h % 4) != 0 ? 1 : 0;
      choice c{verdict_json(verdict, "fake_openai: deterministic verdict"), std::nullopt};
      if (logprobs)
        c.logprobs = verdict == 1 ? verdict_probabilities{0.9, 0.1} : verdict_probabilities{0.2, 0.8};
      choices.push_back(std::move(c));
    }
    return scripted_reply::json(chat_completion(choices, 20, 12 * static_cast<std::uint64_t>(n)));
  };
}

}  // namespace sqlmorph::test::openai_replies
