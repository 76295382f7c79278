#include "postgres_backend.hpp"

#include <stdexcept>

#include <sqlmorph/plugin.hpp>

#include "postgres_connection.hpp"
#include "postgres_session.hpp"

namespace sqlmorph::postgres {

postgres_backend::postgres_backend(const option_values& o) {
  settings_.allow_superuser = o.get_bool("allow_superuser");
  settings_.connect_timeout = static_cast<int>(o.get_int_in("connect_timeout", 0, 86400, "seconds"));
  settings_.application_name = o.get_string("application_name");
  settings_.user_per_worker = o.get_string("user_per_worker");
  if (!settings_.user_per_worker.empty() && settings_.user_per_worker.find("{n}") == std::string::npos) {
    throw std::invalid_argument(
        "user_per_worker must hold {n}, the worker's number (e.g. sqlmorph_reader_{n})");
  }
  if (PQisthreadsafe() == 0) throw std::runtime_error("the libpq library is not thread-safe");
}

backend_capabilities postgres_backend::capabilities() const {
  backend_capabilities c;
  c.dialect = "postgresql";
  c.gate = statement_gate::sdk;
  c.checks_without_executing = true;
  c.describes_schema = true;
  return c;
}

connect_outcome postgres_backend::open(std::string_view target) const {
  connect_outcome out;
  PGconn* conn = nullptr;
  try {
    // The worker's own role: the connection keeps the worker's number while it lives.
    std::unique_ptr<worker_slot> slot;
    std::string user;
    if (!settings_.user_per_worker.empty()) {
      slot = std::make_unique<worker_slot>();
      user = settings_.user_per_worker;
      user.replace(user.find("{n}"), 3, std::to_string(slot->number()));
    }
    conn = open_session(target, settings_, user, out.status, out.message);
    if (conn != nullptr) out.conn = std::make_unique<postgres_connection>(conn, settings_, std::move(slot));
  } catch (const std::exception& e) {  // allocation failures: connect never throws
    if (conn != nullptr && out.conn == nullptr) PQfinish(conn);
    out.status = query_status::backend_error;
    out.message = std::string("cannot connect to PostgreSQL: ") + e.what();
  }
  return out;
}

}  // namespace sqlmorph::postgres

namespace {
const sqlmorph_option_v1 postgres_options[] = {
    {"allow_superuser", "bool", "false",
     "connect even as a superuser, or a role that can become one or is a member of pg_read_server_files, "
     "pg_write_server_files, pg_execute_server_program or pg_signal_backend; refused by default: such a role "
     "could run COPY ... TO PROGRAM, read the server's files or stop other roles' sessions"},
    {"connect_timeout", "int", "10",
     "seconds to wait for a connection (0: no limit), unless the connection string sets connect_timeout"},
    {"application_name", "string", "sqlmorph",
     "application_name shown in pg_stat_activity, unless the connection string sets one"},
    {"user_per_worker", "string", "",
     "a login role per worker, {n} standing for 1, 2, ... (e.g. sqlmorph_reader_{n}, as sqlmorph-load "
     "--grant sqlmorph_reader --worker-roles N makes them): sessions of one role may cancel and terminate "
     "each other, so with one role a query "
     "could stop another worker's; replaces the connection string's user"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "backend_postgres", "1.0.0",
    sqlmorph::plugin::component<sqlmorph::postgres::postgres_backend>(
        "postgres", "1.0.0",
        "PostgreSQL through libpq: read-only transactions always rolled back, statement gate, "
        "server-enforced timeout with cancel, row and byte caps",
        postgres_options))
