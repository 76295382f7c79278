#pragma once
// The Lua side of a run: the main thread's runtime with the sqlmorph module, the technique scripts
// it loaded (declaring techniques into the catalog), and experiment scripts (`sqlmorph run`).

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "lua/lua_home.hpp"
#include "lua/sqlmorph_module.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::core {

class script_host {
 public:
  /// `config`, `registry` and `catalog` must outlive the host.
  script_host(const sqlmorph::core::config& config, const component_registry& registry,
              technique_catalog& catalog);

  /// Loads every *.lua of [lua] technique_dirs (by file name; a name in an earlier folder hides the
  /// same name in later ones). Throws script_error naming the file, line and a traceback, or
  /// usage_error for a declaration the registry refuses (also with the file and line).
  void load_technique_scripts();

  /// Runs an experiment script with its arguments (`arg`, and `...`).
  /// With `preflight`, each sqlmorph.evaluate checks its judges' and embedders' servers first.
  void run_experiment(const std::filesystem::path& script, const std::vector<std::string>& args,
                      bool preflight = true);

  const std::vector<std::filesystem::path>& technique_scripts() const noexcept { return recipe_->scripts; }
  lua_runtime& runtime() noexcept { return *runtime_; }

 private:
  lua_limits limits() const;

  const sqlmorph::core::config& config_;
  const component_registry& registry_;
  technique_catalog& catalog_;
  std::shared_ptr<lua_replay_recipe> recipe_;
  std::shared_ptr<lua_runtime> runtime_;
  lua_module_context context_;
};

}  // namespace sqlmorph::core
