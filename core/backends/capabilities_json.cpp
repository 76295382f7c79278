#include "backends/capabilities_json.hpp"

namespace sqlmorph::core {

nlohmann::ordered_json capabilities_json(const backend_capabilities& caps) {
  return {{"dialect", caps.dialect},
          {"statement_gate", std::string(statement_gate_name(caps.gate))},
          {"checks_without_executing", caps.checks_without_executing},
          {"describes_schema", caps.describes_schema}};
}

std::string capabilities_text(const backend_capabilities& caps) {
  return "dialect " + caps.dialect + "; statements checked by " +
         (caps.gate == statement_gate::engine ? "the engine" : "the SDK's gate") +
         "; check without executing: " + (caps.checks_without_executing ? "yes" : "no") +
         "; schema description: " + (caps.describes_schema ? "yes" : "no");
}

}  // namespace sqlmorph::core
