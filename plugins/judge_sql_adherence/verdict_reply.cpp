#include "verdict_reply.hpp"

#include <cmath>

namespace sqlmorph::openai {

namespace {

std::string excerpt(const std::string& s) {
  std::string out = s.substr(0, 120);
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s.size() > 120 ? out + "..." : out;
}

std::optional<int> read_verdict(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number_integer()) {
    const auto n = v.get<long long>();
    if (n == 0 || n == 1) return static_cast<int>(n);
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == 0.0 || d == 1.0) return static_cast<int>(d);
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "0" || s == "1") return s == "1" ? 1 : 0;
  }
  return std::nullopt;
}

// The token's text without what surrounds a JSON number: blanks, quotes, colons.
std::string bare(const std::string& token) {
  const char* strip = " \t\r\n\":";
  const std::size_t b = token.find_first_not_of(strip);
  if (b == std::string::npos) return "";
  return token.substr(b, token.find_last_not_of(strip) - b + 1);
}

// Offset of the verdict digit in `content`: the first 0/1 after "verdict" and a colon.
std::optional<std::size_t> verdict_digit_offset(const std::string& content) {
  const std::size_t key = content.find("\"verdict\"");
  if (key == std::string::npos) return std::nullopt;
  std::size_t p = content.find(':', key + 9);
  if (p == std::string::npos) return std::nullopt;
  ++p;
  while (p < content.size() &&
         (content[p] == ' ' || content[p] == '\t' || content[p] == '\n' || content[p] == '"'))
    ++p;
  if (p < content.size() && (content[p] == '0' || content[p] == '1')) return p;
  return std::nullopt;
}

}  // namespace

parsed_verdict parse_verdict(const std::string& content) {
  parsed_verdict out;
  // The outermost braces: skips code fences, "Here is my answer:" and the like.
  const std::size_t open = content.find('{');
  const std::size_t close = content.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    out.error = "no JSON object in the reply: '" + excerpt(content) + "'";
    return out;
  }
  const nlohmann::json j = nlohmann::json::parse(content.substr(open, close - open + 1), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    out.error = "the reply is not valid JSON: '" + excerpt(content) + "'";
    return out;
  }
  if (!j.contains("verdict")) {
    out.error = "the reply has no \"verdict\": '" + excerpt(content) + "'";
    return out;
  }
  const std::optional<int> v = read_verdict(j["verdict"]);
  if (!v) {
    out.error = "\"verdict\" is not 0 or 1: '" + excerpt(content) + "'";
    return out;
  }
  out.ok = true;
  out.verdict = *v;
  if (j.contains("rationale") && j["rationale"].is_string())
    out.rationale = j["rationale"].get<std::string>();
  return out;
}

std::optional<double> verdict_probability(const std::string& content, const nlohmann::json& logprobs) {
  if (!logprobs.is_object() || !logprobs.contains("content") || !logprobs["content"].is_array())
    return std::nullopt;
  const std::optional<std::size_t> digit = verdict_digit_offset(content);
  if (!digit) return std::nullopt;

  std::size_t offset = 0;
  for (const nlohmann::json& t : logprobs["content"]) {
    if (!t.is_object() || !t.contains("token") || !t["token"].is_string()) return std::nullopt;
    const std::string token = t["token"].get<std::string>();
    if (content.compare(offset, token.size(), token) != 0)
      return std::nullopt;  // tokens do not spell the content
    if (*digit >= offset + token.size()) {
      offset += token.size();
      continue;
    }
    const std::string chosen = bare(token);
    if ((chosen != "0" && chosen != "1") || !t.contains("logprob") || !t["logprob"].is_number())
      return std::nullopt;
    const double p_chosen = std::exp(t["logprob"].get<double>());
    double p1 = 0.0, p0 = 0.0;
    bool chosen_listed = false;
    if (t.contains("top_logprobs") && t["top_logprobs"].is_array()) {
      for (const nlohmann::json& alt : t["top_logprobs"]) {
        if (!alt.is_object() || !alt.contains("token") || !alt.contains("logprob") ||
            !alt["token"].is_string() || !alt["logprob"].is_number()) {
          continue;
        }
        const std::string text = alt["token"].get<std::string>();
        const std::string b = bare(text);
        const double p = std::exp(alt["logprob"].get<double>());
        if (b == "1") p1 += p;
        if (b == "0") p0 += p;
        if (text == token) chosen_listed = true;
      }
    }
    if (p0 + p1 == 0.0) {  // no alternatives listed: what the chosen token leaves goes to the other
      return chosen == "1" ? p_chosen : 1.0 - p_chosen;
    }
    if (!chosen_listed) (chosen == "1" ? p1 : p0) += p_chosen;
    return p1 / (p0 + p1);
  }
  return std::nullopt;
}

}  // namespace sqlmorph::openai
