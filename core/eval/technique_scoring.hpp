#pragma once
// Scoring one example with one technique, with a failing component or Lua hook turned into the
// example's failure instead of an exception.

#include <functional>
#include <string>
#include <variant>

#include "eval/query_failure.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// What `score` (normalizing the results and scoring them with `t`) returns, or its failure
/// (script_error with the Lua traceback, technique_error otherwise), logged as a warning naming
/// the example.
std::variant<scores, query_failure> score_technique(const technique& t, const std::string& example_id,
                                                    const std::function<scores()>& score);

}  // namespace sqlmorph::core
