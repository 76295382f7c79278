#pragma once
// Creating the OpenAI-compatible components against the fake server, for the llm tests.

#include <chrono>
#include <memory>
#include <string>

#include "fake_openai_server.hpp"
#include "test_support.hpp"

namespace sqlmorph::test {

/// A component spec pointed at `server`, with no API key, short delays and a short timeout.
inline core::component_spec openai_spec(const std::string& name, const fake_openai_server& server) {
  return core::component_spec(name)
      .with("base_url", server.base_url())
      .with("api_key_env", std::string())
      .with("timeout", 5.0)
      .with("retry_base_delay", 0.01);
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace sqlmorph::test
