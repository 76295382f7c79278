// Lua technique declarations: the input is a technique script, run as sqlmorph runs the scripts of
// [lua] technique_dirs (sandboxed, with small limits), and every technique it declares is
// assembled. It may only end in a script_error or usage_error.

#include <cstddef>
#include <cstdint>

#include "config/config.hpp"
#include "errors.hpp"
#include "fuzz_support.hpp"
#include "log/log.hpp"
#include "lua/script_host.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace {

const sqlmorph::core::component_registry& registry() {
  static const auto* r = [] {
    auto* reg = new sqlmorph::core::component_registry();
    reg->load_directories({SQLMORPH_FUZZ_PLUGIN_DIR});
    if (reg->list("column_matcher").empty())
      sqlmorph::fuzz::fail("the plugins of the fuzz build did not load");
    return reg;
  }();
  return *r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  // A technique script may call the experiment API (sqlmorph.evaluate, write_file): whatever it
  // writes with a relative path lands in the scratch folder.
  static const bool ready =
      (core::setup_logging(-1), std::filesystem::current_path(fuzz::scratch_dir()), true);
  (void)ready;
  const std::string_view code(reinterpret_cast<const char*>(data), size);
  const auto dir = fuzz::scratch_dir() / "techniques";
  std::filesystem::create_directories(dir);
  fuzz::scratch_file("techniques/fuzz.lua", code);
  core::config config = core::default_config();
  config.lua.technique_dirs = {dir};
  config.lua.lib_dirs = {SQLMORPH_FUZZ_SOURCE_DIR "/scripts/lib"};
  config.lua.memory_limit_mb = 64;
  config.lua.instruction_limit = 1000000;
  try {
    core::technique_catalog catalog;
    core::script_host host(config, registry(), catalog);
    host.load_technique_scripts();
    for (const std::string& name : catalog.names()) {
      try {
        catalog.assemble({name}, core::penalize_choice::both, registry());
      } catch (const core::usage_error&) {
      }
    }
  } catch (const core::script_error&) {
  } catch (const core::usage_error&) {
  }
  return 0;
}
