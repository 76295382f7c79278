// The manifest of the built-in embedders.

#include <sqlmorph/plugin.hpp>

#include "hash_trigram.hpp"

SQLMORPH_PLUGIN_LIBRARY("embedders_builtin", "1.0.0",
                        sqlmorph::plugin::component<sqlmorph::builtin::hash_trigram_embedder>(
                            "hash_trigram", "1.0.0",
                            "offline, deterministic hash-trigram-v1 vectors (256 signed FNV-1a buckets of "
                            "lower-cased character trigrams); the default embedder"))
