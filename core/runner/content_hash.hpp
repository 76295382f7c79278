#pragma once
// What a database file holds, as a hash of all its bytes: XXH3-128 (libxxhash), read in 1 MiB
// chunks — a few GB/s, so hashing a 1 GB BIRD database costs well under a second. The gold cache
// keys its entries by it, computed once per run per database (content_hash_memo): neither the
// size nor the modification time is trusted, so a database changed in place — even to the same
// size, with its mtime restored — never serves results of its old content.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace sqlmorph::core {

/// XXH3-128 of bytes in memory, as 32 hex digits.
std::string text_content_hash(std::string_view bytes);
/// XXH3-128 of bytes in memory, as its two 64-bit halves (low, high): a key kept in memory only.
std::pair<std::uint64_t, std::uint64_t> content_hash_128(std::string_view bytes);

/// XXH3-128 of a file's bytes, as 32 hex digits; empty if the file cannot be read.
std::string file_content_hash(const std::filesystem::path& file);

/// XXH3-128 of a sequence of fields, each preceded by its length (so that "ab","c" and "a","bc"
/// differ), as 32 hex digits: the persisted digests of a run (its fingerprint in run.json, the keys
/// of each unit for merge, the gold cache's keys).
class field_digest {
 public:
  field_digest();
  ~field_digest();
  field_digest(const field_digest&) = delete;
  field_digest& operator=(const field_digest&) = delete;
  void add(std::string_view field);
  std::string hex() const;

 private:
  void* state_;  // XXH3_state_t
};

/// Each file hashed at most once (per object: one run), whatever the number of threads asking;
/// threads asking for the same file while it is hashed wait for that one result.
class content_hash_memo {
 public:
  std::string hash_of(const std::filesystem::path& file);
  /// How many files were hashed (for the run's statistics and tests).
  std::size_t files_hashed() const;

 private:
  struct entry {
    std::once_flag once;
    std::string hash;
  };
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<entry>> entries_;
};

}  // namespace sqlmorph::core
