#pragma once
// Opening one ODBC connection the way every query expects it: read-only access mode, the
// driver's known safety and streaming attributes, a read-only session where the driver has one,
// and autocommit off so that each query runs in a transaction that is rolled back.

#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>

#include "driver_profile.hpp"
#include "odbc_backend.hpp"

namespace sqlmorph::odbc {

struct session {
  handle dbc;  ///< connected (empty on failure)
  driver_family family = driver_family::generic;
  std::string dbms;  ///< SQLGetInfo(SQL_DBMS_NAME), lower-cased
};

/// Connects to `target` (a connection string). On failure the session's handle is empty and
/// `status` (db_missing or backend_error) and `message` say why. Never throws.
session open_session(environment& env, std::string_view target, const odbc_settings& settings,
                     query_status& status, std::string& message) noexcept;

/// Rolls back, disconnects and frees a connected handle (errors ignored: nothing is left to do).
void close_session(handle& dbc) noexcept;

}  // namespace sqlmorph::odbc
