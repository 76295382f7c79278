#pragma once
// The ODBC backend: any data source unixODBC can reach, queried read-only (read-only access mode,
// per-driver read-only session, every transaction rolled back, statement gate) with a query
// timeout backed by SQLCancel, and row/byte caps.

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/options.hpp>

#include "odbc_handles.hpp"
#include "watchdog.hpp"

namespace sqlmorph::odbc {

struct odbc_settings {
  /// SQL_ATTR_LOGIN_TIMEOUT in seconds (0: the driver's default, usually none).
  int login_timeout = 10;
  /// capabilities().dialect; empty: the DBMS name the driver reports, once a connection exists.
  std::string dialect;
  /// How long after the time limit SQLCancel is called, leaving the driver's own query timeout
  /// the first chance.
  std::chrono::milliseconds cancel_grace{250};
};

/// The backend's ODBC environment (ODBC 3), shared by its connections, which keep it alive.
struct environment {
  handle env;
  /// The driver manager's enumerations (SQLDrivers, SQLDataSources) keep their position in the
  /// environment: one at a time.
  std::mutex lookup_mutex;
};

class odbc_backend final : public backend {
 public:
  explicit odbc_backend(const option_values& o);
  backend_capabilities capabilities() const override;

 protected:
  connect_outcome open(std::string_view target) const override;

 private:
  odbc_settings settings_;
  std::shared_ptr<environment> env_;
  std::shared_ptr<watchdog> watchdog_;
  mutable std::mutex dialect_mutex_;
  mutable std::string learned_dialect_;  // the first connection's DBMS name, lower-cased
};

}  // namespace sqlmorph::odbc
