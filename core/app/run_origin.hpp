#pragma once
// What run.json records about how a run was made — the same for `sqlmorph eval`, a Lua experiment
// (`sqlmorph run`, `sqlmorph.evaluate`) and the Python package: the command line, the
// configuration file, the plugins loaded (library, version, file) and the build fingerprint.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "plugins/component_registry.hpp"

namespace sqlmorph::core {

/// Kept by main() for run.json (empty in a process that is not the sqlmorph program, e.g. Python).
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

/// {"command", "configuration", "plugins", "build_fingerprint"}: the fields every run's run.json
/// starts its description with.
nlohmann::ordered_json run_origin(const config& cfg, const component_registry& registry);

}  // namespace sqlmorph::core
