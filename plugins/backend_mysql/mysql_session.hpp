#pragma once
// Opening a MySQL/MariaDB session for evaluation: the target's settings, the session settings every
// query relies on (utf8mb4, UTC), and the refusal of accounts that can do more than read.

#include <string>
#include <string_view>
#include <vector>

#include <mysql.h>

#include <sqlmorph/query.hpp>

#include "mysql_backend.hpp"
#include "mysql_target.hpp"

namespace sqlmorph::mysql {

/// Opens a session. On failure returns nullptr and sets `status` (db_missing when the database
/// does not exist, backend_error otherwise) and `message` (the client library's own).
MYSQL* open_session(const mysql_target& target, const mysql_settings& settings, query_status& status,
                    std::string& message);

/// Why the session's account must not evaluate untrusted SQL (a privilege other than SELECT, SHOW
/// VIEW and USAGE, or a granted role), or "" when it may — or when `allow_privileged` is set.
std::string check_account(MYSQL* conn, const mysql_settings& settings);

/// Runs a statement whose result is small (our own queries) and returns its rows as text (NULL as
/// an empty string); false with `message` on failure.
bool query_text_rows(MYSQL* conn, const std::string& sql, std::vector<std::vector<std::string>>& rows,
                     std::string& message);

/// Whether the server is MariaDB (else MySQL).
bool is_mariadb(MYSQL* conn);

/// Error codes that mean the session is gone rather than that the statement failed.
bool is_session_failure(unsigned error);

}  // namespace sqlmorph::mysql
