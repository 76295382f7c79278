#include "log/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace sqlmorph::core {
namespace {

void log_from_plugin(void*, int level, const char* message, std::size_t length) {
  const auto lvl = static_cast<spdlog::level::level_enum>(level < 0 ? 0 : (level > 5 ? 5 : level));
  spdlog::log(lvl, "{}", std::string_view(message, length));
}

const sqlmorph_host_v1 services = {SQLMORPH_PLUGIN_ABI_VERSION, sizeof(sqlmorph_host_v1), nullptr,
                                   &log_from_plugin};

}  // namespace

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

const sqlmorph_host_v1* host_services() noexcept {
  return &services;
}

}  // namespace sqlmorph::core
