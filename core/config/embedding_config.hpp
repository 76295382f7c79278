#pragma once
// [embedding] and [embedders.NAME] of sqlmorph.toml: which embedder the semantic techniques use
// by default, named embedder instances, and the embedding cache.

#include <toml++/toml.h>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

/// An embedder instance as [embedders.NAME] declares it: an embedder component with options,
/// usable wherever an embedder is named (`embedder = "NAME"`).
struct embedder_config {
  std::string name;
  /// The embedder component ("openai", "hash_trigram", ...); defaults to `name`.
  std::string component;
  std::map<std::string, spec_value, std::less<>> options;
  /// "FILE:LINE:COL" of the declaration.
  std::string origin;
};

struct embedding_config {
  /// The embedder of semantic components that name none: an [embedders.NAME] or a component.
  std::string embedder = "hash_trigram";
  /// The on-disk cache file. Unset: DIR/embeddings.sqlite when a gold-result cache folder is in
  /// effect ([run] cache or eval --cache), else no disk cache.
  std::optional<std::filesystem::path> cache;
  /// `cache = false`: never a disk cache.
  bool cache_disabled = false;
  /// Vectors kept in memory per embedder (least recently used dropped first); 0: none.
  std::uint64_t memory_entries = 10'000;
  /// [embedders.NAME] tables, in file order.
  std::vector<embedder_config> embedders;
};

/// Reads [embedding] into `into`. Relative paths are relative to `base` (the file's folder).
/// Throws usage_error with FILE:LINE:COL.
void read_embedding_table(const std::filesystem::path& file, const toml::node& n,
                          const std::filesystem::path& base, embedding_config& into);
/// Reads [embedders] (a table of [embedders.NAME] tables) into `into.embedders`.
void read_embedders_table(const std::filesystem::path& file, const toml::node& n, embedding_config& into);

}  // namespace sqlmorph::core
