#pragma once
// What the host offers plugins (sqlmorph_host_v1): its logger, and SQLite's heap counted per
// thread (app/sqlite_memory.hpp).

#include <sqlmorph/plugin.hpp>

namespace sqlmorph::core {

/// The host services handed to every plugin library's manifest function.
const sqlmorph_host_v1* host_services() noexcept;

}  // namespace sqlmorph::core
