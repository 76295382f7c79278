#pragma once
// Before a command executes anything: one cheap request to every remote service it is about to
// rely on (LLM judges, embedders on a server), so that an unreachable server stops the command at
// once — naming the URL — instead of turning a long run into judge_error and technique_error.

#include <vector>

#include "judges/judge_set.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {

/// Checks the judges and the embedders the techniques are built with, each instance once. Throws
/// usage_error listing each service that does not answer, with the advice to fix it or pass
/// --no-preflight.
void check_remote_services(const std::vector<std::shared_ptr<const technique>>& techniques,
                           const std::vector<configured_judge>& judges, const component_registry& registry);

}  // namespace sqlmorph::core
