#include "endpoint_settings.hpp"

#include <cmath>
#include <stdexcept>

namespace sqlmorph::openai {

endpoint_settings read_endpoint_settings(const option_values& options) {
  endpoint_settings s;
  s.base_url = options.get_string("base_url");
  while (!s.base_url.empty() && s.base_url.back() == '/') s.base_url.pop_back();
  if (!s.base_url.starts_with("http://") && !s.base_url.starts_with("https://")) {
    throw std::invalid_argument("option base_url must start with http:// or https:// (got '" + s.base_url +
                                "')");
  }
  s.api_key_env = options.get_string("api_key_env");

  const double timeout = options.get_double("timeout");
  if (!(timeout > 0.0) || timeout > 86400.0) {
    throw std::invalid_argument("option timeout must be in (0, 86400] seconds");
  }
  s.timeout = std::chrono::milliseconds(static_cast<long long>(std::ceil(timeout * 1000.0)));

  s.retry.max_attempts = static_cast<int>(options.get_int_in("max_retries", 0, 100)) + 1;

  const double base_delay = options.get_double("retry_base_delay");
  if (!(base_delay >= 0.0) || base_delay > 3600.0) {
    throw std::invalid_argument("option retry_base_delay must be in [0, 3600] seconds");
  }
  s.retry.base_delay = base_delay;

  s.max_in_flight = static_cast<std::size_t>(options.get_int_in("max_in_flight", 1, 1024));
  return s;
}

}  // namespace sqlmorph::openai
