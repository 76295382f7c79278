#pragma once
// Logging: one spdlog logger on stderr, shared with plugins through the host services
// (plugins/host_services.hpp).

namespace sqlmorph::core {

/// Verbosity: -1 quiet (errors only), 0 normal (info), 1 verbose (debug), 2 and more (trace).
void setup_logging(int verbosity);

}  // namespace sqlmorph::core
