#include "app/run_origin.hpp"

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::core {
namespace {

std::vector<std::string>& stored_command_line() {
  static std::vector<std::string> line;
  return line;
}

}  // namespace

void set_command_line(int argc, char** argv) {
  stored_command_line().assign(argv, argv + argc);
}

const std::vector<std::string>& command_line() {
  return stored_command_line();
}

nlohmann::ordered_json run_origin(const config& cfg, const component_registry& registry) {
  nlohmann::ordered_json out;
  out["command"] = command_line();
  out["configuration"] = cfg.source.empty() ? "built-in defaults" : cfg.source.string();
  out["plugins"] = nlohmann::ordered_json::array();
  for (const loaded_library& lib : registry.libraries())
    out["plugins"].push_back({{"library", lib.name}, {"version", lib.version}, {"file", lib.file.string()}});
  out["build_fingerprint"] = SQLMORPH_BUILD_FINGERPRINT;
  return out;
}

}  // namespace sqlmorph::core
