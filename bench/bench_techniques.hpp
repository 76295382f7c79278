#pragma once
// The techniques as sqlmorph declares them, for the benchmarks that evaluate in process: the
// build's plugins, the embedders as sqlmorph's environment installs them (the semantic techniques
// name the configured embedder, "default"), the project's technique scripts (scripts/techniques,
// scripts/lib), and routes to the default backends.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend_routes.hpp"
#include "config/config.hpp"
#include "embeddings/embedding_setup.hpp"
#include "lua/script_host.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::bench {

class lua_techniques {
 public:
  explicit lua_techniques(const std::filesystem::path& plugin_dir = SQLMORPH_BENCH_PLUGIN_DIR) {
    registry.load_directories({plugin_dir});
    const std::filesystem::path scripts_dir = std::filesystem::path(SQLMORPH_BENCH_SOURCE_DIR) / "scripts";
    config.lua.technique_dirs = {scripts_dir / "techniques"};
    config.lua.lib_dirs = {scripts_dir / "lib"};
    core::install_embeddings(registry, config.embedding, std::nullopt);
    scripts_ = std::make_unique<core::script_host>(config, registry, catalog);
    scripts_->load_technique_scripts();
    routes = core::backend_routes::make(core::default_config(), registry);
  }
  lua_techniques(const lua_techniques&) = delete;
  lua_techniques& operator=(const lua_techniques&) = delete;

  /// The named techniques, each with penalize_extra_pred_cols as `penalize` asks.
  std::vector<std::shared_ptr<const core::technique>> assemble(const std::vector<std::string>& names,
                                                               core::penalize_choice penalize,
                                                               bool plug_value = false) const {
    return catalog.assemble(names, penalize, registry, plug_value);
  }

  core::component_registry registry;
  core::config config = core::default_config();
  core::technique_catalog catalog;
  std::shared_ptr<const core::backend_routes> routes;

 private:
  std::unique_ptr<core::script_host> scripts_;  // declared last: it refers to the members above
};

}  // namespace sqlmorph::bench
