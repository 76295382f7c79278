#pragma once
// Everything a command needs before it can evaluate: the configuration, the loaded plugins, the
// known techniques.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <sqlmorph/backend.hpp>

#include "backends/backend_routes.hpp"
#include "config/config.hpp"
#include "embeddings/caching_embedder.hpp"
#include "lua/script_host.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::core {

class environment {
 public:
  /// Reads the configuration (see resolve_config), loads the plugin directories, runs the technique
  /// scripts and adds the techniques of sqlmorph.toml. Throws usage_error for a bad configuration
  /// or declaration, script_error for a failing script.
  static std::unique_ptr<environment> load(const std::optional<std::filesystem::path>& config_file);

  const sqlmorph::core::config& config() const noexcept { return config_; }
  const component_registry& registry() const noexcept { return registry_; }
  component_registry& registry() noexcept { return registry_; }
  const technique_catalog& techniques() const noexcept { return catalog_; }
  script_host& scripts() noexcept { return *scripts_; }

  /// The embedding cache every embedder of the registry is wrapped in. Its disk file starts as
  /// sqlmorph.toml says ([embedding] cache, or [run] cache/embeddings.sqlite) and may be changed
  /// (use_embedding_cache) until something is embedded.
  embedding_cache_settings& embedding_cache() noexcept { return *embedding_cache_; }
  /// Applies --embedding-cache FILE / --no-embedding-cache and the run's gold cache folder.
  void use_embedding_cache(const std::optional<std::string>& flag_file, bool no_cache_flag,
                           const std::optional<std::filesystem::path>& gold_cache_dir);

  /// Which backend runs which query: sqlmorph.toml under `choice`, with the backends `also` names
  /// set up too. Throws usage_error for an unknown backend.
  std::shared_ptr<const backend_routes> routes(const route_choice& choice = {},
                                               const std::vector<std::string>& also = {}) const;

 private:
  sqlmorph::core::config config_;
  component_registry registry_;
  technique_catalog catalog_;
  std::unique_ptr<script_host> scripts_;
  std::shared_ptr<embedding_cache_settings> embedding_cache_;
};

}  // namespace sqlmorph::core
