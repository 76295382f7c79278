#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <spdlog/spdlog.h>

#include "log/log.hpp"

// The tests provoke refusals and failures on purpose; their log lines would only be noise.
int main(int argc, char** argv) {
  sqlmorph::core::setup_logging(-1);
  spdlog::set_level(spdlog::level::off);
  doctest::Context context(argc, argv);
  return context.run();
}
