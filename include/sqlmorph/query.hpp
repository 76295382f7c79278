#pragma once
/// \file query.hpp
/// What executing one SQL statement produces: a status, a message, the rows and the time taken.

#include <cstdint>
#include <string>
#include <string_view>

#include "sqlmorph/result.hpp"

namespace sqlmorph {

/// Limits applied to one execution. Backends enforce them inside the engine (interrupt, cancel),
/// never by abandoning a thread.
struct exec_limits {
  /// Wall-clock seconds; <= 0 means no limit.
  double timeout_seconds = 30.0;
  /// Rows fetched before the result is cut and marked truncated; 0 means no limit.
  std::uint64_t max_rows = 1'000'000;
  /// Text/blob payload bytes fetched before the result is cut and marked truncated; 0 means no limit.
  std::uint64_t max_bytes = 256ull * 1024 * 1024;
};

/// How one execution ended.
enum class query_status : std::uint8_t {
  ok,             ///< rows fetched (possibly truncated: see result::truncated())
  error,          ///< the engine refused or failed the statement (syntax, missing table, denied write, ...)
  timeout,        ///< interrupted by the engine after exec_limits::timeout_seconds
  db_missing,     ///< the database does not exist
  backend_error,  ///< the connection or server failed (not the statement's fault)
};

/// "ok", "error", "timeout", "db_missing", "backend_error".
std::string_view query_status_name(query_status s) noexcept;

/// The outcome of executing one statement.
struct query_outcome {
  query_status status = query_status::ok;
  /// The engine's own message for a failure (empty when ok).
  std::string message;
  /// The rows (empty unless status is ok).
  sqlmorph::result rows;
  /// Wall-clock milliseconds spent executing and fetching.
  double elapsed_ms = 0.0;

  bool ok() const noexcept { return status == query_status::ok; }

  static query_outcome failure(query_status s, std::string msg, double elapsed_ms = 0.0) {
    query_outcome out;
    out.status = s;
    out.message = std::move(msg);
    out.elapsed_ms = elapsed_ms;
    return out;
  }
};

}  // namespace sqlmorph
