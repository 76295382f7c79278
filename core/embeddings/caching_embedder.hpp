#pragma once
// The cache every embedder is wrapped in: texts are de-duplicated within a call, served from a
// bounded in-memory LRU, then from the on-disk store, and only the rest is sent to the embedder,
// in batches of its max_batch().

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <sqlmorph/embedder.hpp>

#include "embeddings/embedding_store.hpp"

namespace sqlmorph::core {

/// Counts of where the vectors of a caching embedder came from.
struct embedding_cache_stats {
  std::atomic<std::uint64_t> memory_hits{0};
  std::atomic<std::uint64_t> disk_hits{0};
  std::atomic<std::uint64_t> embedded{0};
  std::atomic<std::uint64_t> calls{0};  ///< calls to the wrapped embedder (one per batch)
};

/// Where the caching embedders of a registry keep their vectors: the memory budget and the disk
/// store, opened on first use (so command-line flags can still change the file after techniques
/// are assembled, as long as nothing was embedded yet). Thread-safe.
class embedding_cache_settings {
 public:
  embedding_cache_settings(std::optional<std::filesystem::path> file, std::uint64_t memory_entries)
      : file_(std::move(file)), memory_entries_(memory_entries) {}

  /// Changes the disk file (nullopt: none). Only effective before the store is first used.
  void set_file(std::optional<std::filesystem::path> file);
  const std::optional<std::filesystem::path>& file() const noexcept { return file_; }
  std::uint64_t memory_entries() const noexcept { return memory_entries_; }
  /// The store, opened on first call; null when there is no disk cache. Throws usage_error when
  /// the file cannot be opened.
  std::shared_ptr<embedding_store> store();

  embedding_cache_stats& stats() noexcept { return stats_; }

 private:
  std::mutex mutex_;
  std::optional<std::filesystem::path> file_;
  std::uint64_t memory_entries_;
  bool opened_ = false;
  std::shared_ptr<embedding_store> store_;
  embedding_cache_stats stats_;
};

/// An embedder behind the cache. Same model_id() and max_batch() as the embedder it wraps.
class caching_embedder final : public embedder {
 public:
  caching_embedder(std::shared_ptr<const embedder> inner, std::shared_ptr<embedding_cache_settings> settings);

  std::string model_id() const override { return model_; }
  std::size_t max_batch() const noexcept override { return inner_->max_batch(); }
  const embedder& inner() const noexcept { return *inner_; }

 protected:
  embedding_outcome do_embed_(std::span<const std::string> texts) const override;
  std::string do_check_reachable_() const override { return inner_->check_reachable(); }

 private:
  bool from_memory_(const std::string& text, std::vector<double>& out) const;
  void to_memory_(const std::string& text, const std::vector<double>& v) const;

  std::shared_ptr<const embedder> inner_;
  std::shared_ptr<embedding_cache_settings> settings_;
  std::string model_;
  mutable std::mutex memory_mutex_;
  // Least recently used first.
  mutable std::list<std::pair<std::string, std::vector<double>>> lru_;
  mutable std::unordered_map<std::string_view, decltype(lru_)::iterator> index_;
};

}  // namespace sqlmorph::core
