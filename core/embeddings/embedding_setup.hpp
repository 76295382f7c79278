#pragma once
// Wires the embedding configuration into a component registry: `[embedders.NAME]` and the name
// `default` become aliases of embedder specs, and every embedder created is wrapped in the cache.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/embedding_config.hpp"
#include "embeddings/caching_embedder.hpp"
#include "plugins/component_registry.hpp"

namespace sqlmorph::core {

/// The name semantic components use for "the configured embedder".
inline constexpr const char* default_embedder_name = "default";

/// Installs the embedder hooks on `registry` (before any embedder is created) and returns the
/// cache settings the wrapped embedders share. `cache_file`: the disk cache (none when empty);
/// with `wrap = false` embedders are not wrapped (aliases only).
std::shared_ptr<embedding_cache_settings> install_embeddings(component_registry& registry,
                                                             const embedding_config& config,
                                                             std::optional<std::filesystem::path> cache_file,
                                                             bool wrap = true);

/// The disk cache a run uses: `--no-embedding-cache` → none; `--embedding-cache FILE` → FILE;
/// [embedding] cache (or `cache = false`); else `gold_cache_dir`/embeddings.sqlite if there is a
/// gold-result cache folder; else none.
std::optional<std::filesystem::path> embedding_cache_file(
    const embedding_config& config, const std::optional<std::string>& flag_file, bool no_cache_flag,
    const std::optional<std::filesystem::path>& gold_cache_dir);

}  // namespace sqlmorph::core
