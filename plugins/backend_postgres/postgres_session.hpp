#pragma once
// Opening a libpq session for evaluation: the connection string completed with our settings, the
// session settings every query relies on, and the refusal of roles that reach outside the database.

#include <string>
#include <string_view>

#include <libpq-fe.h>

#include <sqlmorph/query.hpp>

#include "postgres_backend.hpp"

namespace sqlmorph::postgres {

/// Opens a session on `target` (a libpq connection string or URI), as `user` when it is not empty
/// (in place of the target's user). On failure returns nullptr and sets `status` (db_missing when
/// the database does not exist, backend_error otherwise) and `message` (libpq's own). The session
/// is checked with check_role().
PGconn* open_session(std::string_view target, const postgres_settings& settings, const std::string& user,
                     query_status& status, std::string& message);

/// Why the session's role must not evaluate untrusted SQL (it is, or can become, a superuser or a
/// member of the roles that read server files or run server programs), or "" when it may — or when
/// `allow_superuser` is set. A failing check is reported as a refusal too.
std::string check_role(PGconn* conn, const postgres_settings& settings);

/// libpq's multi-line messages ("...\n\tThis probably means...\n") on one line, trimmed.
std::string one_line(std::string_view message);

}  // namespace sqlmorph::postgres
