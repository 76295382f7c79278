#include "log/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace sqlmorph::core {

void setup_logging(int verbosity) {
  static bool created = false;
  if (!created) {
    auto logger = spdlog::stderr_color_mt("sqlmorph");
    logger->set_pattern("%^%l%$: %v");
    spdlog::set_default_logger(logger);
    created = true;
  }
  spdlog::level::level_enum level = spdlog::level::info;
  if (verbosity < 0)
    level = spdlog::level::err;
  else if (verbosity == 1)
    level = spdlog::level::debug;
  else if (verbosity >= 2)
    level = spdlog::level::trace;
  spdlog::set_level(level);
}

}  // namespace sqlmorph::core
