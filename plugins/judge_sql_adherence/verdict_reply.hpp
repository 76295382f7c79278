#pragma once
// Reading a model's answer: the strict JSON verdict `{"verdict": 0|1, "rationale": "..."}`, found
// tolerantly (inside code fences or around other text), and the probability of the verdict token
// from the choice's logprobs.

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sqlmorph::openai {

struct parsed_verdict {
  bool ok = false;
  std::string error;  ///< why the reply is malformed
  int verdict = 0;
  std::string rationale;
};

/// Parses the message content. Accepts the object alone, inside ``` / ```json fences, or with
/// text around it (the outermost {...} is used). `verdict` may be 0/1, true/false or "0"/"1";
/// `rationale` may be missing (empty).
parsed_verdict parse_verdict(const std::string& content);

/// P(verdict = 1) from a choice's `logprobs` (the OpenAI chat format: `content` is a list of
/// {token, logprob, top_logprobs: [{token, logprob}]}):
///  - the tokens are laid end to end over `content` to find the one holding the verdict digit
///    (the first 0/1 after `"verdict"` and its colon);
///  - that token, stripped of blanks, quotes and colons, must read "0" or "1";
///  - P1 and P0 are the summed probabilities (exp(logprob)) of the top_logprobs entries that read
///    "1" and "0" (the chosen token counts if it is missing there); the result is P1 / (P0 + P1);
///  - without top_logprobs, the chosen token's probability p gives P1 = p (chosen "1") or 1 - p.
/// nullopt when the choice has no logprobs or they do not line up with the content.
std::optional<double> verdict_probability(const std::string& content, const nlohmann::json& logprobs);

}  // namespace sqlmorph::openai
