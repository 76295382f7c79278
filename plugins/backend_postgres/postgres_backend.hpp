#pragma once
// The PostgreSQL backend: a libpq session per database, each query in a read-only transaction that
// is always rolled back, under a statement gate, a time limit enforced by the server (and by a
// cancel from here if the server does not stop), and row/byte caps.

#include <string>

#include <sqlmorph/backend.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::postgres {

struct postgres_settings {
  /// Connect even as a role that is (or can become) a superuser or may read server files / run programs.
  bool allow_superuser = false;
  /// Seconds to wait for a connection, unless the target sets its own `connect_timeout` (0: no limit).
  int connect_timeout = 10;
  /// `application_name` shown in pg_stat_activity, unless the target sets its own.
  std::string application_name = "sqlmorph";
  /// A login role per worker, `{n}` standing for the worker's number (worker_slot): sessions of one
  /// role may cancel and terminate each other, sessions of distinct roles may not. "" connects as
  /// the target's user.
  std::string user_per_worker;
};

class postgres_backend final : public backend {
 public:
  explicit postgres_backend(const option_values& o);
  backend_capabilities capabilities() const override;

 protected:
  connect_outcome open(std::string_view target) const override;

 private:
  postgres_settings settings_;
};

}  // namespace sqlmorph::postgres
