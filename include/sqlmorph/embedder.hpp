#pragma once
/// \file embedder.hpp
/// The Embedder interface: turns texts into vectors (for semantic column and row matching).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace sqlmorph {

/// Vectors for a batch of texts, in the order given, or an error.
struct embedding_outcome {
  bool ok = true;
  std::string error;
  std::vector<std::vector<double>> vectors;
};

/// Texts → vectors. Implementations may call remote services; they must be safe to call from
/// several workers at once. The host batches, de-duplicates and caches on disk around them,
/// keyed by `model_id()`.
class embedder {
 public:
  static constexpr const char* kind_name = "embedder";
  using interface_type = embedder;

  virtual ~embedder() = default;

  /// Identifies the vector space (embedder + model + version): texts embedded under the same id
  /// are interchangeable, so it is the cache key's prefix.
  virtual std::string model_id() const = 0;

  /// The most texts one call should carry.
  virtual std::size_t max_batch() const noexcept { return 256; }

  /// One vector per text. Checks the implementation returned one vector per text.
  embedding_outcome embed(std::span<const std::string> texts) const;

  /// Checks once, with one cheap request, that the remote service this embedder calls answers: ""
  /// when it does (or when it calls none), else the problem, naming the URL. Never throws.
  std::string check_reachable() const;

 protected:
  virtual embedding_outcome do_embed_(std::span<const std::string> texts) const = 0;
  virtual std::string do_check_reachable_() const { return {}; }
};

}  // namespace sqlmorph
