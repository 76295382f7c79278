#pragma once
// The `sql_adherence` judge: asks an OpenAI-compatible chat model, k times, whether the SQL
// answers the question, and reports the majority with a confidence.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sqlmorph/judge.hpp>
#include <sqlmorph/options.hpp>

#include "openai_endpoint.hpp"
#include "prompt_template.hpp"
#include "reply_cache.hpp"

namespace sqlmorph::openai {

/// Thread-safe: nothing changes after construction except the cache (locked) and the endpoint's
/// connection pool and in-flight limit (locked).
class sql_adherence_judge final : public judge {
 public:
  explicit sql_adherence_judge(const option_values& options);

 protected:
  /// Never throws: failures become a verdict with ok = false and error "judge_error: ...".
  judge_verdict do_evaluate_(const judge_request& request) const override;
  /// The text of the one user message every vote sends.
  std::optional<std::string> do_prompt_(const judge_request& request) const override {
    return template_.render(request);
  }
  std::string do_check_reachable_() const override { return endpoint_.check_reachable(); }

 private:
  struct vote {
    bool done = false;
    int verdict = 0;
    std::string rationale;
    std::optional<double> p_yes;
    bool cached = false;
    int malformed = 0;  // malformed replies received for this vote
    std::string last_problem;
  };
  struct usage {
    std::uint64_t prompt_tokens = 0;
    std::uint64_t completion_tokens = 0;
    int requests = 0;
  };

  judge_verdict evaluate_(const judge_request& request) const;
  /// Sends one request for the votes in `indexes` (n = their count when use_n, else one), fills
  /// them in; returns "" or the transport error. Sets `n_ignored` when the server sent fewer
  /// choices than asked for.
  std::string request_votes_(const nlohmann::json& messages, const std::string& prompt_hash,
                             const std::vector<int>& indexes, std::vector<vote>& votes, usage& used,
                             bool& n_ignored) const;
  vote_key key_(const std::string& prompt_hash, int index) const;

  std::string model_;
  int votes_;
  double temperature_;
  bool use_n_;
  bool logprobs_;
  int top_logprobs_;
  int max_tokens_;
  bool json_mode_;
  int malformed_retries_;
  prompt_template template_;
  std::unique_ptr<reply_cache> cache_;
  openai_endpoint endpoint_;
};

}  // namespace sqlmorph::openai
