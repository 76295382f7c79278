#pragma once
// The sql_correctness judge: does the SQL parse and bind against the schema of the example's
// database? Asks the backend to check the statement without executing it (connection::check).

#include <string>
#include <string_view>

#include <sqlmorph/judge.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::judges {

/// What kind of problem an engine's message names: "unknown_table", "unknown_column",
/// "unknown_function", "syntax_error", "ambiguous_column", "misuse" (an aggregate or row value where
/// the engine forbids one), "type_error", "refused" (not a read-only query, several statements),
/// "empty" or "other".
std::string_view problem_kind(std::string_view engine_message);

class sql_correctness final : public judge {
 public:
  explicit sql_correctness(const option_values& options);

 private:
  judge_verdict do_evaluate_(const judge_request& request) const override;

  double timeout_seconds_;
};

}  // namespace sqlmorph::judges
