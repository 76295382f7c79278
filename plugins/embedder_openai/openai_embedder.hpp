#pragma once
// The `openai` embedder: texts -> vectors through any OpenAI-compatible /v1/embeddings endpoint
// (OpenAI, vLLM, llama.cpp's server, Ollama, ...).

#include <cstddef>
#include <string>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/options.hpp>

#include "openai_endpoint.hpp"

namespace sqlmorph::openai {

/// Thread-safe: the endpoint is, and nothing else changes after construction.
class openai_embedder final : public embedder {
 public:
  explicit openai_embedder(const option_values& options);

  /// "openai:<base_url>|<model>" (plus "|dim=<n>" when `dimensions` is set).
  std::string model_id() const override;
  std::size_t max_batch() const noexcept override { return max_batch_; }

 protected:
  /// One request per max_batch texts, sent one after another; vectors placed by the reply's
  /// `index`. Any failed request fails the whole call.
  embedding_outcome do_embed_(std::span<const std::string> texts) const override;
  std::string do_check_reachable_() const override { return endpoint_.check_reachable(); }

 private:
  embedding_outcome embed_batch_(std::span<const std::string> texts) const;

  std::string model_;
  std::size_t max_batch_;
  std::int64_t dimensions_;
  openai_endpoint endpoint_;
};

}  // namespace sqlmorph::openai
