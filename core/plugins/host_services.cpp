#include "plugins/host_services.hpp"

#include <spdlog/spdlog.h>

#include "app/sqlite_memory.hpp"

namespace sqlmorph::core {
namespace {

void log_from_plugin(void*, int level, const char* message, std::size_t length) {
  const auto lvl = static_cast<spdlog::level::level_enum>(level < 0 ? 0 : (level > 5 ? 5 : level));
  spdlog::log(lvl, "{}", std::string_view(message, length));
}

int limit_sqlite_heap(void*, std::int64_t bytes) {
  return limit_sqlite_heap_of_thread(bytes) ? 1 : 0;
}

const sqlmorph_host_v1 services = {SQLMORPH_PLUGIN_ABI_VERSION, sizeof(sqlmorph_host_v1), nullptr,
                                   &log_from_plugin, &limit_sqlite_heap};

}  // namespace

const sqlmorph_host_v1* host_services() noexcept {
  return &services;
}

}  // namespace sqlmorph::core
