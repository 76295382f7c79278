#pragma once
// A backend's capabilities as JSON, for run.json and `sqlmorph plugins --json`.

#include <nlohmann/json.hpp>

#include <sqlmorph/backend.hpp>

namespace sqlmorph::core {

/// {"dialect", "statement_gate": "sdk"|"engine", "checks_without_executing", "describes_schema"}.
nlohmann::ordered_json capabilities_json(const backend_capabilities& caps);

/// One line for people: "dialect sqlite; statements checked by the engine; check without executing:
/// yes; schema: yes".
std::string capabilities_text(const backend_capabilities& caps);

}  // namespace sqlmorph::core
