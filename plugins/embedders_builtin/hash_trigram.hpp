#pragma once
// `hash_trigram`: the deterministic, offline embedder of shared/design/EMBEDDING.md
// (hash-trigram-v1). Used for parity with the reference fixtures and as the default embedder, so
// semantic techniques work without a network or an API key.

#include <cstdint>
#include <string_view>
#include <vector>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::builtin {

inline constexpr std::size_t hash_trigram_dimensions = 256;

/// 64-bit FNV-1a of `bytes`.
constexpr std::uint64_t fnv1a64(std::string_view bytes) noexcept {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

/// The hash-trigram-v1 vector of one text: Python `str.lower()`, padded with one space each side,
/// every window of 3 code points hashed (FNV-1a of its UTF-8) into one of 256 signed buckets,
/// L2-normalised with the exact integer sum of squares (all zeros when that sum is 0).
std::vector<double> hash_trigram_vector(std::string_view text);

/// Stateless; thread-safe.
class hash_trigram_embedder final : public embedder {
 public:
  explicit hash_trigram_embedder(const option_values&) {}
  std::string model_id() const override { return "hash-trigram-v1"; }
  std::size_t max_batch() const noexcept override { return 4096; }

 protected:
  embedding_outcome do_embed_(std::span<const std::string> texts) const override;
};

}  // namespace sqlmorph::builtin
