#include "retry_policy.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace sqlmorph::openai {

bool retryable_status(long status) noexcept {
  return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599);
}

double retry_delay(const retry_policy& policy, int retry, std::optional<double> retry_after) {
  if (retry_after) return std::max(0.0, *retry_after);
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const double exponential = policy.base_delay * std::pow(2.0, std::max(0, retry - 1));
  const double capped = std::min(policy.max_delay, exponential);
  return capped * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
}

}  // namespace sqlmorph::openai
