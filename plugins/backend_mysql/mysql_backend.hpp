#pragma once
// The MySQL/MariaDB backend (MariaDB Connector/C, which speaks to both servers): a session per
// database, each query in a read-only transaction that is always rolled back, under the SDK's
// statement gate, a time limit enforced by the server (max_statement_time on MariaDB,
// max_execution_time on MySQL) and by KILL QUERY from a second session, row and byte caps, and an
// account that may only read (checked when connecting).

#include <string>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::mysql {

struct mysql_settings {
  /// Connect even with an account that may write, read server files, or act on other sessions.
  bool allow_privileged = false;
  /// Seconds to wait for a connection, unless the target sets its own (0: no limit).
  int connect_timeout = 10;
};

class mysql_backend final : public backend {
 public:
  explicit mysql_backend(const option_values& o);
  backend_capabilities capabilities() const override;

 protected:
  connect_outcome open(std::string_view target) const override;

 private:
  mysql_settings settings_;
};

}  // namespace sqlmorph::mysql
