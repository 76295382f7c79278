#pragma once
// Logging: one spdlog logger on stderr, shared with plugins through the host services.

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::core {

/// Verbosity: -1 quiet (errors only), 0 normal (info), 1 verbose (debug), 2 and more (trace).
void setup_logging(int verbosity);

/// The host services handed to plugins (logging into the same logger).
const sqlmorph_host_v1* host_services() noexcept;

}  // namespace sqlmorph::core
