#include "odbc_connection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace sqlmorph::odbc {
namespace {

constexpr std::size_t chunk_size = 64 * 1024;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One column attribute as text (SQL_DESC_LABEL, SQL_DESC_TYPE_NAME), however long.
std::string column_text(SQLHSTMT stmt, SQLUSMALLINT column, SQLUSMALLINT field) {
  std::string text(256, '\0');
  SQLSMALLINT length = 0;
  SQLLEN unused = 0;  // the SQLite ODBC driver fails SQL_DESC_LABEL without it
  SQLRETURN rc = SQLColAttribute(stmt, column, field, text.data(), static_cast<SQLSMALLINT>(text.size()),
                                 &length, &unused);
  if (SQL_SUCCEEDED(rc) && length >= static_cast<SQLSMALLINT>(text.size())) {
    text.assign(static_cast<std::size_t>(length) + 1, '\0');
    rc = SQLColAttribute(stmt, column, field, text.data(), static_cast<SQLSMALLINT>(text.size()), &length,
                         &unused);
  }
  if (!SQL_SUCCEEDED(rc)) return "";
  text.resize(std::min(static_cast<std::size_t>(std::max<SQLSMALLINT>(length, 0)), text.size()));
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

SQLLEN column_number(SQLHSTMT stmt, SQLUSMALLINT column, SQLUSMALLINT field) {
  SQLLEN value = 0;
  if (!SQL_SUCCEEDED(SQLColAttribute(stmt, column, field, nullptr, 0, nullptr, &value))) return 0;
  return value;
}

}  // namespace

odbc_connection::odbc_connection(std::shared_ptr<environment> env, session s, std::shared_ptr<watchdog> dog,
                                 const odbc_settings& settings, std::string target)
    : env_(std::move(env)),
      dbc_(std::move(s.dbc)),
      target_(std::move(target)),
      family_(s.family),
      watchdog_(std::move(dog)),
      settings_(settings),
      buffer_(chunk_size) {}

odbc_connection::~odbc_connection() {
  close_session(dbc_);
}

void odbc_connection::interrupt_(std::atomic<bool>& reason) noexcept {
  std::lock_guard lock(active_mutex_);
  if (active_ == SQL_NULL_HSTMT) return;
  reason.store(true);
  SQLCancel(active_);
}

void odbc_connection::cancel() noexcept {
  interrupt_(cancelled_);
}

run_status odbc_connection::run(const statement_request& statement, row_sink& rows) {
  run_status first = attempt_(statement, rows);
  if (!stopped_by_other_) return first;
  // Another session ended the query's session (pg_terminate_backend() in a query of another worker,
  // an administrator) or cancelled its statement: not the query's doing, so it runs once more, on
  // a new session if the old one is gone, within what is left of its time limit.
  const exec_limits& limits = statement.limits;
  if (limits.timeout_seconds > 0 && ms_since(statement.start) >= limits.timeout_seconds * 1000.0)
    return first;
  if (!broken_.empty()) {
    query_status status = query_status::ok;
    std::string message;
    close_session(dbc_);
    session fresh = open_session(*env_, target_, settings_, status, message);
    if (!fresh.dbc) {
      broken_ = "the session could not be opened again: " + message;
      first.message += " (" + broken_ + ")";
      return first;
    }
    dbc_ = std::move(fresh.dbc);
    broken_.clear();
  }
  rows.restart();
  run_status second = attempt_(statement, rows);
  if (!second.ok()) second.message += " (run twice: another session had stopped the first run too)";
  return second;
}

run_status odbc_connection::attempt_(const statement_request& statement, row_sink& rows) {
  stopped_by_other_ = false;
  const exec_limits& limits = statement.limits;
  try {
    if (!broken_.empty()) return run_status::backend_failure("the connection is unusable: " + broken_);
    const std::string denied = denied_function_in(profile_of(family_), statement.sql);
    if (!denied.empty()) {
      return run_status::error("not authorized: the evaluation is read-only and refuses " + denied +
                               "(), which reaches outside the database");
    }

    handle stmt = handle::allocate(SQL_HANDLE_STMT, dbc_.get());
    if (!stmt) {
      broken_ = describe(read_diagnostics(dbc_), "cannot allocate a statement");
      return run_status::backend_failure(broken_);
    }
    if (limits.timeout_seconds > 0) {
      // What is left of the limit (a second run starts later), in whole seconds for the driver
      // (rounded up); a driver that ignores it meets the watchdog.
      const double whole = std::ceil(statement.seconds_left());
      const auto seconds = static_cast<SQLULEN>(std::min(whole, 1e9));
      SQLSetStmtAttr(stmt.get(), SQL_ATTR_QUERY_TIMEOUT, reinterpret_cast<SQLPOINTER>(seconds), 0);
    }
    cancelled_.store(false);
    deadline_hit_.store(false);

    run_status out;
    {
      // While the statement runs, cancel() and the watchdog may SQLCancel it; afterwards neither
      // can touch it (disarm waits for a running callback, the mutex for a running cancel()).
      {
        std::lock_guard lock(active_mutex_);
        active_ = stmt.get();
      }
      struct deactivate {
        odbc_connection& c;
        ~deactivate() {
          std::lock_guard lock(c.active_mutex_);
          c.active_ = SQL_NULL_HSTMT;
        }
      } deactivate_guard{*this};
      std::optional<watchdog::ticket> ticket;
      struct disarm {
        watchdog& w;
        std::optional<watchdog::ticket>& t;
        ~disarm() {
          if (t) w.disarm(*t);
        }
      } disarm_guard{*watchdog_, ticket};
      if (limits.timeout_seconds > 0) {
        const auto deadline = statement.start +
                              std::chrono::duration_cast<clock::duration>(
                                  std::chrono::duration<double>(limits.timeout_seconds)) +
                              settings_.cancel_grace;
        ticket = watchdog_->arm(deadline, [this] { interrupt_(deadline_hit_); });
      }
      out = run_(stmt.get(), statement_for(profile_of(family_), statement.sql), statement, rows);
    }
    stmt.reset();  // closes the cursor

    // Every query ends here, whatever happened: nothing it did survives.
    if (!SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, dbc_.get(), SQL_ROLLBACK))) {
      broken_ =
          "the transaction could not be rolled back: " + describe(read_diagnostics(dbc_), "no diagnostics");
      if (out.status != query_status::backend_error) out = run_status::backend_failure(broken_);
    }
    if (out.status == query_status::backend_error && broken_.empty()) broken_ = out.message;
    return out;
  } catch (const std::exception& e) {  // allocation failures: the session is in an unknown state
    SQLEndTran(SQL_HANDLE_DBC, dbc_.get(), SQL_ROLLBACK);
    broken_ = e.what();
    return run_status::backend_failure(std::string("the ODBC backend failed: ") + e.what());
  }
}

run_status odbc_connection::failure_(const std::vector<diagnostic>& records,
                                     const statement_request& statement) {
  const exec_limits& limits = statement.limits;
  const std::string state = first_sqlstate(records);
  const std::string diag = describe(records, "no diagnostics");
  const double elapsed = ms_since(statement.start);
  const bool limited = limits.timeout_seconds > 0;
  if (limited && deadline_hit_.load())
    return run_status::timed_out("cancelled with SQLCancel at the deadline");
  if (limited && state == "HYT00") return run_status::timed_out("the driver's query timeout: " + diag);
  if (cancelled_.load()) return run_status::cancelled();
  // PostgreSQL's query_canceled (57014) or ODBC's "operation canceled" that nobody here asked for
  // after the limit: the server's statement timeout.
  if (limited && elapsed >= limits.timeout_seconds * 1000.0 && (state == "57014" || state == "HY008")) {
    return run_status::timed_out("the server's statement timeout: " + diag);
  }
  // Neither cancel() nor the limit: the session was ended, or the statement cancelled, elsewhere.
  stopped_by_other_ = connection_failed(records) || state == "57014";
  if (connection_failed(records)) return run_status::backend_failure(diag);
  return run_status::error(diag + refusal_reason(family_, records));
}

run_status odbc_connection::run_(SQLHSTMT stmt, std::string_view sql, const statement_request& statement,
                                 row_sink& rows) {
  const auto failure = [&] { return failure_(read_diagnostics(SQL_HANDLE_STMT, stmt), statement); };
  SQLRETURN rc = SQLExecDirect(stmt, reinterpret_cast<SQLCHAR*>(const_cast<char*>(sql.data())),
                               static_cast<SQLINTEGER>(sql.size()));
  if (rc == SQL_NEED_DATA) return run_status::error("the statement has parameter markers: refused");
  if (rc != SQL_NO_DATA && !SQL_SUCCEEDED(rc)) return failure();
  SQLSMALLINT columns = 0;
  if (rc == SQL_NO_DATA || !SQL_SUCCEEDED(SQLNumResultCols(stmt, &columns)) || columns <= 0) {
    return run_status::not_a_query();
  }

  std::vector<std::string> names;
  std::vector<std::string> types;
  std::vector<column_plan> plans;
  for (SQLUSMALLINT c = 1; c <= static_cast<SQLUSMALLINT>(columns); ++c) {
    SQLSMALLINT sql_type = SQL_UNKNOWN_TYPE;
    SQLULEN size = 0;
    SQLSMALLINT digits = 0;
    SQLSMALLINT nullable = 0;
    if (!SQL_SUCCEEDED(SQLDescribeCol(stmt, c, nullptr, 0, nullptr, &sql_type, &size, &digits, &nullable))) {
      return failure();
    }
    column_description column;
    column.sql_type = sql_type;
    column.type_name = column_text(stmt, c, SQL_DESC_TYPE_NAME);
    column.precision = column_number(stmt, c, SQL_DESC_PRECISION);
    // The label is the name as the query wrote it (the SQLite ODBC driver shortens SQL_DESC_NAME
    // at the last '.', so "1.5*2" would become "5*2").
    std::string label = column_text(stmt, c, SQL_DESC_LABEL);
    if (label.empty()) label = column_text(stmt, c, SQL_DESC_NAME);
    names.push_back(std::move(label));
    types.push_back(reported_type(family_, column));
    const cell_reading reading = reading_for(family_, column);
    plans.push_back({reading, c_type_of(reading)});
  }
  rows.set_columns(std::move(names), std::move(types));

  while (true) {
    rc = SQLFetch(stmt);
    if (rc == SQL_NO_DATA) break;
    if (!SQL_SUCCEEDED(rc)) return failure();
    // SQLCancel between two calls may be a no-op for the driver: the flags still stop the loop.
    if (deadline_hit_.load() || cancelled_.load()) return failure_({}, statement);
    if (!rows.begin_row()) break;
    for (SQLUSMALLINT c = 1; c <= static_cast<SQLUSMALLINT>(columns) && !rows.full(); ++c) {
      const column_plan& plan = plans[c - 1];
      // Past this many raw bytes the cell alone is over what the byte cap still allows.
      const std::uint64_t left = rows.bytes_left();
      const std::size_t limit = left == std::numeric_limits<std::uint64_t>::max()
                                    ? std::numeric_limits<std::size_t>::max()
                                    : raw_limit(plan.reading, left);
      bool is_null = false;
      bool over_limit = false;
      if (!read_cell_(stmt, c, plan, limit, is_null, over_limit)) return failure();
      if (over_limit) {
        rows.count_bytes(left + 1);  // over the cap: the sink drops the row
      } else if (is_null) {
        rows.null();
      } else {
        rows.count_bytes(append_cell(rows.cells(), plan.reading, cell_, scratch_));
      }
    }
    if (rows.full()) break;
    rows.end_row();
  }
  return run_status::success();
}

bool odbc_connection::read_cell_(SQLHSTMT stmt, SQLUSMALLINT column, const column_plan& plan,
                                 std::size_t raw_limit, bool& is_null, bool& over_limit) {
  cell_.clear();
  // The terminator SQLGetData writes after character data in each chunk.
  const std::size_t terminator = plan.c_type == SQL_C_CHAR    ? 1
                                 : plan.c_type == SQL_C_WCHAR ? sizeof(SQLWCHAR)
                                                              : 0;
  const std::size_t room = buffer_.size() - terminator;
  while (true) {
    SQLLEN indicator = 0;
    const SQLRETURN rc = SQLGetData(stmt, column, plan.c_type, buffer_.data(),
                                    static_cast<SQLLEN>(buffer_.size()), &indicator);
    if (rc == SQL_NO_DATA) return true;  // the previous chunk was the last
    if (!SQL_SUCCEEDED(rc)) return false;
    if (indicator == SQL_NULL_DATA) {
      is_null = true;
      return true;
    }
    // SQL_SUCCESS_WITH_INFO with more than fits (or no total): a full chunk, more to come.
    const bool more =
        rc == SQL_SUCCESS_WITH_INFO &&
        (indicator == SQL_NO_TOTAL || (indicator >= 0 && static_cast<std::size_t>(indicator) > room));
    const std::size_t got = more ? room : static_cast<std::size_t>(std::max<SQLLEN>(indicator, 0));
    cell_.append(buffer_.data(), std::min(got, room));
    if (cell_.size() > raw_limit) {
      over_limit = true;
      return true;
    }
    if (!more) return true;
  }
}

}  // namespace sqlmorph::odbc
