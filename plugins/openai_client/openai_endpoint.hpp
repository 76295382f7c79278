#pragma once
// An OpenAI-compatible endpoint: POSTs JSON to base_url + path with the API key, within the
// time limit, retrying 429 / 5xx / connection failures with backoff, and bounding the requests in
// flight. Failures come back as text naming the endpoint and the status; the key never appears.

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "endpoint_settings.hpp"
#include "http_client.hpp"
#include "request_limiter.hpp"

namespace sqlmorph::openai {

/// The outcome of one logical call (all its attempts).
struct api_reply {
  bool ok = false;
  /// When not ok: "POST <url>: HTTP 429: <server's message> (gave up after 3 attempts)".
  std::string error;
  /// The parsed JSON body of a 2xx response.
  nlohmann::json body;
  int attempts = 0;
  long status = 0;  ///< the last HTTP status (0 when no response arrived)
};

/// Thread-safe.
class openai_endpoint {
 public:
  /// Reads the API key from the environment variable named by `api_key_env` (if any); throws
  /// std::invalid_argument when that variable is unset or empty.
  explicit openai_endpoint(endpoint_settings settings);

  /// POSTs `request` to base_url + `path` (e.g. "/embeddings"). Never throws for remote failures.
  api_reply post(std::string_view path, const nlohmann::json& request) const;

  /// One GET of base_url + "/models" (cheap, and it needs the API key), no retry, within the time
  /// limit (at most 10 s): "" when the server answers — any status but 401 and 403, since servers
  /// without that route still answer —, else "GET <url>: <problem>". Never throws.
  std::string check_reachable() const;

  const endpoint_settings& settings() const noexcept { return settings_; }
  std::string url(std::string_view path) const { return settings_.base_url + std::string(path); }

 private:
  endpoint_settings settings_;
  std::string authorization_;  // "Authorization: Bearer ..." or empty
  http_client http_;
  request_limiter limiter_;
};

}  // namespace sqlmorph::openai
