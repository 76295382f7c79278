#include "sql_adherence_judge.hpp"

#include <dlfcn.h>

#include <charconv>
#include <stdexcept>

#include "sha256.hpp"
#include "verdict_reply.hpp"

namespace sqlmorph::openai {

namespace {

// The template shipped with the plugin: copied next to the library by the build and the install.
std::filesystem::path shipped_template() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&shipped_template), &info) == 0 || info.dli_fname == nullptr) {
    throw std::invalid_argument(
        "cannot locate the judge plugin's library to find its prompt template; "
        "set the option prompt_template");
  }
  return std::filesystem::path(info.dli_fname).parent_path() / "sql_adherence_prompt.txt";
}

prompt_template read_template(const option_values& options) {
  const std::string& file = options.get_string("prompt_template");
  return prompt_template::load(file.empty() ? shipped_template() : std::filesystem::path(file));
}

std::string shortest(double d) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
  return std::string(buffer, ec == std::errc() ? end : buffer);
}

std::uint64_t usage_field(const nlohmann::json& body, const char* name) {
  if (!body.contains("usage") || !body["usage"].is_object()) return 0;
  const nlohmann::json& u = body["usage"];
  return u.contains(name) && u[name].is_number_unsigned() ? u[name].get<std::uint64_t>() : 0;
}

judge_verdict failure(std::string message) {
  judge_verdict v;
  v.ok = false;
  v.error = "judge_error: " + std::move(message);
  return v;
}

}  // namespace

sql_adherence_judge::sql_adherence_judge(const option_values& options)
    : model_(options.get_string("model")),
      votes_(static_cast<int>(options.get_int_in("votes", 1, 100))),
      temperature_(options.get_double("temperature")),
      use_n_(options.get_bool("use_n")),
      logprobs_(options.get_bool("logprobs")),
      top_logprobs_(static_cast<int>(options.get_int_in("top_logprobs", 0, 20))),
      max_tokens_(static_cast<int>(options.get_int_in("max_tokens", 1, 100000))),
      json_mode_(options.get_bool("json_mode")),
      malformed_retries_(static_cast<int>(options.get_int_in("malformed_retries", 0, 20))),
      template_(read_template(options)),
      endpoint_(read_endpoint_settings(options)) {
  if (model_.empty()) throw std::invalid_argument("option model must name the chat model");
  if (!(temperature_ >= 0.0 && temperature_ <= 2.0))
    throw std::invalid_argument("option temperature must be in [0, 2]");
  if (votes_ > 1 && temperature_ == 0.0) {
    throw std::invalid_argument(
        "option temperature must be > 0 when votes > 1 (at 0 every vote is the same answer)");
  }
  const std::string& cache_file = options.get_string("cache");
  if (!cache_file.empty()) cache_ = std::make_unique<reply_cache>(cache_file);
}

vote_key sql_adherence_judge::key_(const std::string& prompt_hash, int index) const {
  std::string request_options = "max_tokens=" + std::to_string(max_tokens_);
  if (logprobs_) request_options += ";logprobs=" + std::to_string(top_logprobs_);
  if (json_mode_) request_options += ";json_mode";
  return vote_key{model_, endpoint_.settings().base_url, shortest(temperature_), request_options, prompt_hash,
                  index};
}

judge_verdict sql_adherence_judge::do_evaluate_(const judge_request& request) const {
  try {
    return evaluate_(request);
  } catch (const std::exception& e) {
    return failure(e.what());
  }
}

std::string sql_adherence_judge::request_votes_(const nlohmann::json& messages,
                                                const std::string& prompt_hash,
                                                const std::vector<int>& indexes, std::vector<vote>& votes,
                                                usage& used, bool& n_ignored) const {
  nlohmann::json body = {
      {"model", model_}, {"messages", messages}, {"temperature", temperature_}, {"max_tokens", max_tokens_}};
  if (indexes.size() > 1) body["n"] = indexes.size();
  if (logprobs_) {
    body["logprobs"] = true;
    if (top_logprobs_ > 0) body["top_logprobs"] = top_logprobs_;
  }
  if (json_mode_) body["response_format"] = {{"type", "json_object"}};

  const api_reply reply = endpoint_.post("/chat/completions", body);
  ++used.requests;
  if (!reply.ok) return reply.error;
  used.prompt_tokens += usage_field(reply.body, "prompt_tokens");
  used.completion_tokens += usage_field(reply.body, "completion_tokens");

  const nlohmann::json* choices =
      reply.body.is_object() && reply.body.contains("choices") ? &reply.body["choices"] : nullptr;
  if (choices == nullptr || !choices->is_array() || choices->empty()) {
    return "POST " + endpoint_.url("/chat/completions") + ": the reply has no choices";
  }
  if (choices->size() < indexes.size()) n_ignored = true;
  for (std::size_t c = 0; c < choices->size() && c < indexes.size(); ++c) {
    const nlohmann::json& choice = (*choices)[c];
    vote& v = votes[static_cast<std::size_t>(indexes[c])];
    std::string content;
    if (choice.contains("message") && choice["message"].is_object() &&
        choice["message"].contains("content") && choice["message"]["content"].is_string()) {
      content = choice["message"]["content"].get<std::string>();
    }
    const parsed_verdict parsed = parse_verdict(content);
    if (!parsed.ok) {
      ++v.malformed;
      v.last_problem = parsed.error;
      continue;
    }
    v.done = true;
    v.verdict = parsed.verdict;
    v.rationale = parsed.rationale;
    if (logprobs_ && choice.contains("logprobs")) v.p_yes = verdict_probability(content, choice["logprobs"]);
    if (cache_) cache_->store(key_(prompt_hash, indexes[c]), cached_reply{content, v.p_yes});
  }
  return "";
}

judge_verdict sql_adherence_judge::evaluate_(const judge_request& request) const {
  const nlohmann::json messages =
      nlohmann::json::array({{{"role", "user"}, {"content", *do_prompt_(request)}}});
  const std::string prompt_hash = sha256_hex(messages.dump());

  std::vector<vote> votes(static_cast<std::size_t>(votes_));
  if (cache_) {
    for (int i = 0; i < votes_; ++i) {
      const std::optional<cached_reply> hit = cache_->find(key_(prompt_hash, i));
      if (!hit) continue;
      const parsed_verdict parsed = parse_verdict(hit->content);
      if (!parsed.ok) continue;  // cannot happen for replies this judge stored; asked again otherwise
      vote& v = votes[static_cast<std::size_t>(i)];
      v = vote{true, parsed.verdict, parsed.rationale, hit->p_yes, true, 0, {}};
    }
  }

  usage used;
  bool n_ignored = false;
  for (;;) {
    std::vector<int> missing;
    for (int i = 0; i < votes_; ++i) {
      const vote& v = votes[static_cast<std::size_t>(i)];
      if (v.done) continue;
      if (v.malformed > malformed_retries_) {
        return failure("vote " + std::to_string(i + 1) + " of " + std::to_string(votes_) +
                       ": malformed reply after " + std::to_string(v.malformed) + " attempt" +
                       (v.malformed == 1 ? "" : "s") + " from " + endpoint_.url("/chat/completions") +
                       " (model " + model_ + "): " + v.last_problem);
      }
      missing.push_back(i);
    }
    if (missing.empty()) break;
    // With n: every missing vote in one request. Without: the first missing vote only, so that a
    // vote that stays malformed ends the verdict before the others are asked.
    const std::vector<int> asked = use_n_ && !n_ignored ? missing : std::vector<int>{missing.front()};
    const std::string error = request_votes_(messages, prompt_hash, asked, votes, used, n_ignored);
    if (!error.empty()) return failure(error);
  }

  judge_verdict out;
  int yes = 0, cached = 0;
  bool every_p = true;
  double p_sum = 0.0;
  for (const vote& v : votes) {
    out.votes.push_back(v.verdict);
    out.rationales.push_back(v.rationale);
    yes += v.verdict;
    cached += v.cached ? 1 : 0;
    every_p = every_p && v.p_yes.has_value();
    if (v.p_yes) p_sum += *v.p_yes;
  }
  const int no = votes_ - yes;
  out.label = yes > no ? 1 : 0;  // a tie is 0: adherence has to win a majority
  const bool from_logprobs = logprobs_ && every_p;
  if (from_logprobs) {
    const double p_yes = p_sum / votes_;
    out.confidence = 100.0 * (*out.label == 1 ? p_yes : 1.0 - p_yes);
    out.extra.emplace_back("p_yes", p_yes);
  } else {
    out.confidence = 100.0 * (*out.label == 1 ? yes : no) / votes_;
  }
  out.prompt_tokens = used.prompt_tokens;
  out.completion_tokens = used.completion_tokens;
  out.extra.emplace_back("confidence_source", std::string(from_logprobs ? "logprobs" : "votes"));
  out.extra.emplace_back("votes_for_1", std::int64_t{yes});
  out.extra.emplace_back("cached_votes", std::int64_t{cached});
  out.extra.emplace_back("requests", std::int64_t{used.requests});
  out.extra.emplace_back("model", model_);
  return out;
}

}  // namespace sqlmorph::openai
