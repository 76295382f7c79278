#pragma once
// The judge's on-disk cache of model replies (one SQLite file), so that a second run over the same
// examples sends no request. A reply is stored per vote under everything that shaped it: model,
// endpoint, temperature, request options, the SHA-256 of the full prompt, and the vote's index.

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "sqlite_store/store_file.hpp"

namespace sqlmorph::openai {

struct vote_key {
  std::string model;
  std::string base_url;
  std::string temperature;  ///< as text, e.g. "0.7"
  std::string options;      ///< other request options that change the reply (logprobs, max_tokens)
  std::string prompt_sha256;
  int vote = 0;
};

struct cached_reply {
  std::string content;  ///< the model's message, as received
  std::optional<double> p_yes;
};

/// Thread-safe (one connection behind a mutex); several processes may share the file (WAL, busy
/// timeout).
class reply_cache {
 public:
  /// Opens or creates the file; throws std::invalid_argument naming it when that fails.
  explicit reply_cache(const std::filesystem::path& file);
  reply_cache(const reply_cache&) = delete;
  reply_cache& operator=(const reply_cache&) = delete;

  std::optional<cached_reply> find(const vote_key& key) const;
  /// Stores (or replaces) a reply; a failure is logged, not thrown (the verdict stands).
  void store(const vote_key& key, const cached_reply& reply) const;

 private:
  sqlite_store::store_file store_;
  mutable std::mutex mutex_;
};

}  // namespace sqlmorph::openai
