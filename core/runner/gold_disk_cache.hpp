#pragma once
// The on-disk cache of gold results (`--cache DIR`): a re-run skips executing gold queries whose
// result it already has. An entry is keyed by the backend, the database's *content* (XXH3-128 of
// all the file's bytes, computed once per run per database: content_hash.hpp — no size or mtime is
// trusted, so a changed database never serves results of its old content), the SQL and the limits.
// Only backends whose targets are database files are cached: a server database has no content
// hash, so its results could go stale unnoticed.
// Entries are files written atomically (temporary file, then rename): several processes may share
// a cache folder.

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>

#include "backends/backend_routes.hpp"
#include "runner/content_hash.hpp"

namespace sqlmorph::core {

/// An entry's bytes: the length of its key (8 bytes), the key — so that a hash collision can never
/// return another query's result — then the outcome (outcome_serialization.hpp).
std::string cache_entry_bytes(std::string_view key, const query_outcome& outcome);

/// An entry read back: the outcome stored under `key`, or (no outcome) what is wrong with the bytes —
/// cut short, damaged, or another key's.
struct cache_entry_reading {
  std::optional<query_outcome> outcome;
  std::string problem;
};
cache_entry_reading read_cache_entry(std::string_view bytes, std::string_view key);

class gold_disk_cache {
 public:
  /// A cache in `dir`, hashing databases through `hashes` (shared with the run's fingerprint).
  gold_disk_cache(std::filesystem::path dir, std::shared_ptr<content_hash_memo> hashes);

  /// True when results of `where` can be cached (its backend's targets are files).
  static bool cacheable(const query_target& where) noexcept { return where.backend->file_targets(); }

  /// The stored outcome, if any. An entry that cannot be read (cut short, damaged) is a miss, with
  /// a warning naming its file; the outcome executed then replaces it.
  std::optional<query_outcome> load(const query_target& where, std::string_view sql,
                                    const exec_limits& limits);
  /// Stores a deterministic outcome (ok, error, timeout); connection failures are not stored.
  void store(const query_target& where, std::string_view sql, const exec_limits& limits,
             const query_outcome& outcome);

  std::uint64_t hits() const noexcept { return hits_; }
  std::uint64_t stores() const noexcept { return stores_; }
  const std::filesystem::path& dir() const noexcept { return dir_; }
  /// Databases hashed so far in this run.
  std::size_t databases_hashed() const { return hashes_->files_hashed(); }

 private:
  /// The content hash of a database file; empty when it cannot be read (nothing is cached then).
  std::string database_hash(const std::string& db);
  std::string key_text(const query_target& where, const std::string& db_hash, std::string_view sql,
                       const exec_limits& limits) const;
  std::filesystem::path entry_path(const std::string& key) const;

  std::filesystem::path dir_;
  std::shared_ptr<content_hash_memo> hashes_;
  std::atomic<std::uint64_t> hits_{0};
  std::atomic<std::uint64_t> stores_{0};
};

}  // namespace sqlmorph::core
