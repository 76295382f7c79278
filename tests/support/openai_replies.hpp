#pragma once
// Bodies an OpenAI-compatible server sends, built for the fake server: embeddings, chat
// completions (with usage and logprobs), and the deterministic answers of tests/servers/fake_openai.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fake_openai_server.hpp"

namespace sqlmorph::test::openai_replies {

/// The deterministic vector the fake server gives `text` (unit length, `dimensions` components).
std::vector<double> vector_for(const std::string& text, int dimensions);

/// An /embeddings reply for the request's `input` (a string or an array of strings), one
/// `vector_for` per input; `reversed` lists the items last first (only `index` tells the order).
std::string embeddings(const std::string& request_body, int dimensions = 8, bool reversed = false);

/// Verdict-token probabilities attached to a choice: P("1") and P("0") in its top_logprobs.
struct verdict_probabilities {
  double p1 = 0.5;
  double p0 = 0.5;
};

/// One choice of a chat completion.
struct choice {
  std::string content;
  std::optional<verdict_probabilities> logprobs;
};

/// A /chat/completions reply carrying `choices` and `usage`.
std::string chat_completion(const std::vector<choice>& choices, std::uint64_t prompt_tokens = 10,
                            std::uint64_t completion_tokens = 5);

/// `{"verdict": v, "rationale": "..."}` as a model would write it.
std::string verdict_json(int verdict, const std::string& rationale = "because");

/// The handler of tests/servers/fake_openai: deterministic embeddings on /v1/embeddings and
/// deterministic verdicts on /v1/chat/completions (honouring `n` and `logprobs`), 404 elsewhere.
fake_openai_server::handler deterministic_handler(int dimensions = 8);

}  // namespace sqlmorph::test::openai_replies
