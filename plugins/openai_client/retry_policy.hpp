#pragma once
// When to try an HTTP request again and how long to wait first: exponential backoff with jitter,
// or the delay the server asked for (Retry-After).

#include <optional>

namespace sqlmorph::openai {

struct retry_policy {
  /// Attempts in all (1 = no retry).
  int max_attempts = 5;
  /// The first backoff, in seconds; attempt n waits about base_delay * 2^(n-1), capped.
  double base_delay = 0.5;
  /// The cap of the exponential backoff, in seconds.
  double max_delay = 30.0;
  /// A Retry-After longer than this (seconds) ends the retries instead of being waited out.
  double max_retry_after = 300.0;
};

/// 408 (request timeout), 409 (OpenAI's "lock timeout"), 429 (rate limited) and every 5xx.
bool retryable_status(long status) noexcept;

/// The wait before retry number `retry` (1 = the first retry). A server-given `retry_after` is
/// honoured as given; otherwise the exponential delay is scaled by a random factor in [0.5, 1]
/// ("equal jitter": spreads clients that failed together without waiting less than half).
double retry_delay(const retry_policy& policy, int retry, std::optional<double> retry_after);

}  // namespace sqlmorph::openai
