#pragma once
// One output line: an example scored by one technique variant.

#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/match.hpp>

namespace sqlmorph::core {

/// How an example ended for a technique.
enum class example_status {
  ok,
  pred_error,       ///< the predicted query failed (syntax, missing table, refused write, several statements ...)
  gold_error,       ///< the gold query failed
  timeout,          ///< a query exceeded its time limit (the message says which)
  db_missing,       ///< the database does not exist; metrics are null
  truncated,        ///< a result exceeded the row or byte cap (the message says which)
  backend_error,    ///< the backend failed (connection lost, server down)
  technique_error,  ///< a component of the technique failed on this example
  script_error,     ///< a Lua hook of the technique failed on this example (message with file, line, traceback)
  pred_missing,     ///< the prediction file has no prediction for this example
};
/// How many statuses there are (the last one's value + 1).
constexpr std::size_t example_status_count = static_cast<std::size_t>(example_status::pred_missing) + 1;

std::string_view example_status_name(example_status s) noexcept;
/// The status named `name`; false for an unknown name.
bool parse_example_status(std::string_view name, example_status& out) noexcept;

struct record {
  std::string id;
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
};

}  // namespace sqlmorph::core
