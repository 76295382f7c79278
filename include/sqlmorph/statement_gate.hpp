#pragma once
/// \file statement_gate.hpp
/// The check a server backend applies before sending SQL it did not write: one statement, and one
/// that only reads.
///
/// Server backends (PostgreSQL, ODBC) run each query in a read-only transaction that is rolled back,
/// as a role that may only read; this gate is the first of those layers, and the one that gives the
/// clearest message. It is deliberately conservative: text whose statement boundaries dialects read
/// differently (a `#` comment holding a `;`, an `E'...'` string with a backslash) is refused.

#include <string>
#include <string_view>

namespace sqlmorph {

struct statement_check {
  bool ok = false;
  /// Why the SQL is refused (empty when ok).
  std::string error;
  /// The statement without trailing semicolons, whitespace and comments (when ok).
  std::string_view statement;
};

/// Accepts exactly one statement (a trailing `;`, whitespace and comments after it are fine) whose
/// first keyword is SELECT, WITH, VALUES or TABLE, possibly inside parentheses.
statement_check check_read_only_statement(std::string_view sql);

}  // namespace sqlmorph
