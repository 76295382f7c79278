#pragma once
// Embeds the texts of one example, failing loudly: a technique cannot score without its vectors.

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <sqlmorph/embedder.hpp>

namespace sqlmorph::semantic {

/// One vector per text; throws std::runtime_error with the embedder's message when it fails (the
/// example is then reported as failed, not scored).
inline std::vector<std::vector<double>> embed_or_throw(const embedder& e,
                                                       std::span<const std::string> texts) {
  if (texts.empty()) return {};
  embedding_outcome out = e.embed(texts);
  if (!out.ok) throw std::runtime_error("embedder " + e.model_id() + " failed: " + out.error);
  return std::move(out.vectors);
}

}  // namespace sqlmorph::semantic
