#pragma once
// The options every OpenAI-compatible component shares (where the server is, how to authenticate,
// time limit, retries, concurrency), read from a component's validated option values.

#include <chrono>
#include <cstddef>
#include <string>

#include <sqlmorph/options.hpp>

#include "retry_policy.hpp"

namespace sqlmorph::openai {

struct endpoint_settings {
  /// e.g. "https://api.openai.com/v1" (no trailing slash); request paths are appended to it.
  std::string base_url;
  /// The NAME of the environment variable holding the API key; "" sends no Authorization header.
  std::string api_key_env;
  std::chrono::milliseconds timeout{60000};
  retry_policy retry;
  /// Requests in flight at once through one component instance.
  std::size_t max_in_flight = 4;
};

/// Reads base_url, api_key_env, timeout (seconds), max_retries, retry_base_delay (seconds) and
/// max_in_flight. Throws std::invalid_argument naming the option when a value is out of range.
endpoint_settings read_endpoint_settings(const option_values& options);

}  // namespace sqlmorph::openai
