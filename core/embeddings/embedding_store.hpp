#pragma once
// The on-disk embedding cache: one SQLite file (WAL mode) mapping (model id, text) to a vector,
// shared by every worker of a run and by concurrent runs.

#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite_store/store_file.hpp"

namespace sqlmorph::core {

/// Keyed by the embedder's `model_id()` and the text itself (no hash, so no collisions); vectors
/// are stored as arrays of IEEE doubles in host byte order, so hits are bit-identical to what the
/// embedder returned. Thread-safe (one connection, serialized); several processes may share the
/// file (WAL, a busy timeout, INSERT OR REPLACE of identical values).
class embedding_store {
 public:
  /// Opens or creates the file (and its folder). Throws usage_error when it cannot.
  explicit embedding_store(const std::filesystem::path& file);
  embedding_store(const embedding_store&) = delete;
  embedding_store& operator=(const embedding_store&) = delete;

  /// The stored vector of each text (nullopt when absent).
  std::vector<std::optional<std::vector<double>>> get(std::string_view model,
                                                      std::span<const std::string> texts);
  /// Stores vectors (one per text) in one transaction. Failures are logged, never thrown: a cache
  /// that cannot write only costs a later re-embedding.
  void put(std::string_view model, std::span<const std::string> texts,
           std::span<const std::vector<double>> vectors);

  const std::filesystem::path& file() const noexcept { return store_.file(); }

 private:
  sqlite_store::store_file store_;
  std::mutex mutex_;
};

}  // namespace sqlmorph::core
