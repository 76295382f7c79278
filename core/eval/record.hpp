#pragma once
// One output line: an example scored by one technique variant.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sqlmorph/match.hpp>

#include "eval/example.hpp"

namespace sqlmorph::core {

/// How an example ended for a technique.
enum class example_status {
  ok,
  pred_error,  ///< the predicted query failed (syntax, missing table, refused write, several statements ...)
  gold_error,  ///< the gold query failed
  timeout,     ///< a query exceeded its time limit (the message says which)
  db_missing,  ///< the database does not exist; metrics are null
  truncated,   ///< a result exceeded the row or byte cap (the message says which)
  backend_error,    ///< the backend failed (connection lost, server down)
  technique_error,  ///< a component of the technique failed on this example
  script_error,  ///< a Lua hook of the technique failed on this example (message with file, line, traceback)
  pred_missing,  ///< the prediction file has no prediction for this example
  judge_error,   ///< a judge could not decide (records of judges only; the message says why)
};
/// How many statuses there are (the last one's value + 1).
constexpr std::size_t example_status_count = static_cast<std::size_t>(example_status::judge_error) + 1;

/// The technique name of a judge's records: "judge:" + the judge's name.
inline constexpr std::string_view judge_technique_prefix = "judge:";
inline bool is_judge_technique(std::string_view technique) noexcept {
  return technique.substr(0, judge_technique_prefix.size()) == judge_technique_prefix;
}

/// What a judge said about an example (the records of technique "judge:NAME").
struct judge_fields {
  /// 1 or 0; empty when the judge could not decide.
  std::optional<int> label;
  /// 0–100; empty when the judge could not decide.
  std::optional<double> confidence;
  std::vector<int> votes;
  std::vector<std::string> rationales;
  std::uint64_t prompt_tokens = 0;
  std::uint64_t completion_tokens = 0;
  /// Wall time of the judge's call (the schema read excluded).
  std::optional<double> judge_ms;
};

std::string_view example_status_name(example_status s) noexcept;
/// The status named `name`; false for an unknown name.
bool parse_example_status(std::string_view name, example_status& out) noexcept;

struct record {
  std::string id;
  /// Written as a JSON integer (the example's id was one in its cases file).
  bool id_is_number = false;
  std::string db_id;
  std::string system;
  std::string difficulty;
  std::string technique;
  std::optional<bool> penalize_extra_pred_cols;
  example_status status = example_status::ok;
  sqlmorph::scores scores;
  /// Empty when there was no error.
  std::string error;
  std::optional<double> gold_ms;
  std::optional<double> pred_ms;
  /// Wall time of the technique's own work on the example, in milliseconds: normalizing the results,
  /// matching and scoring them (summed over the database variants and candidates a suite technique
  /// tries; parsing and scoring for spider_exact_match) — not executing the queries (gold_ms,
  /// pred_ms). Empty when the technique did not get to score (a query failed, a database is
  /// missing, no prediction) and on judge records (judge_ms).
  std::optional<double> technique_ms;
  /// Set on judge records only.
  std::optional<judge_fields> judgement;
};

/// Milliseconds since it was made, on the steady clock: a record's technique_ms.
class stopwatch {
 public:
  stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

/// A record of `ex` for `technique`, labelled with the example's id, database, system and difficulty.
record record_of(const example& ex, std::string technique);
/// Gives `r` the labels of `ex` (a record computed once for several examples with the same answer);
/// a difficulty `ex` lacks stays as `r` has it.
void relabel(record& r, const example& ex);

}  // namespace sqlmorph::core
