#pragma once
/// \file judge.hpp
/// The Judge interface: scores one example without (or beside) executing it — e.g. an LLM asked
/// whether the SQL answers the question, or a deterministic check that it binds to the schema.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sqlmorph/match.hpp"

namespace sqlmorph {

class connection;

/// What a judge sees of one example. Optional parts are empty when unknown.
struct judge_request {
  std::string id;
  std::string question;
  std::string sql;
  /// e.g. "sqlite", "postgresql".
  std::string dialect;
  /// The schema as DDL text.
  std::string schema;
  /// Domain hints (BIRD's `evidence`).
  std::string hints;
  /// A connection to the example's database, for judges that check SQL against the engine
  /// (may be null). The judge must not change the database.
  connection* target = nullptr;
};

/// A judge's verdict.
struct judge_verdict {
  bool ok = true;  ///< false: the judge could not decide (`error` says why)
  std::string error;
  /// 1 (adheres / correct) or 0; empty when not ok.
  std::optional<int> label;
  /// Confidence in the label, 0–100.
  double confidence = 0.0;
  /// Individual votes (for judges that ask several times).
  std::vector<int> votes;
  std::vector<std::string> rationales;
  std::uint64_t prompt_tokens = 0;
  std::uint64_t completion_tokens = 0;
  fields extra;
};

/// Judges one example. Thread-safe; may call remote services.
class judge {
 public:
  static constexpr const char* kind_name = "judge";
  using interface_type = judge;

  virtual ~judge() = default;

  /// The verdict; checks that a successful verdict has a 0/1 label and a confidence in [0, 100].
  judge_verdict evaluate(const judge_request& request) const;

  /// The exact prompt this judge sends (to a language model) for `request`, or nullopt for a
  /// judge that sends none. Sends nothing. Never throws: a problem is returned as the text.
  std::optional<std::string> prompt(const judge_request& request) const;

  /// Checks once, with one cheap request, that every remote service this judge calls answers:
  /// "" when it does (or when the judge calls none), else the problem, naming the URL. Called
  /// before a run so that an unreachable server stops it at once. Never throws.
  std::string check_reachable() const;

 protected:
  virtual judge_verdict do_evaluate_(const judge_request& request) const = 0;
  virtual std::optional<std::string> do_prompt_(const judge_request&) const { return std::nullopt; }
  virtual std::string do_check_reachable_() const { return {}; }
};

}  // namespace sqlmorph
