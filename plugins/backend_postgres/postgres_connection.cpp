#include "postgres_connection.hpp"

#include <poll.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <sqlmorph/plugin.hpp>

#include "postgres_session.hpp"
#include "postgres_values.hpp"

namespace sqlmorph::postgres {
namespace {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long past the time limit we wait for the server's own statement_timeout before cancelling.
constexpr milliseconds deadline_grace{500};
// A cancel request that reaches the server before it reads the query is ignored: repeat it.
constexpr milliseconds cancel_repeat{500};
// After that long without an answer to a cancel, the session is given up (closed, reset later).
constexpr milliseconds cancel_give_up{2000};
// Our own statements (BEGIN, ROLLBACK) are quick; a server silent for that long is lost.
constexpr milliseconds control_timeout{10000};
// The longest single poll(), so a cancel() from another thread is noticed for repeating.
constexpr milliseconds poll_slice{100};

enum class stop_reason { none, row_cap, byte_cap, deadline, cancelled };

double ms_between(clock::time_point a, clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// statement_timeout in milliseconds for a limit in seconds (rounded up, at least 1).
long long timeout_ms(double seconds) {
  const double ms = std::ceil(seconds * 1000.0);
  return ms >= INT_MAX ? INT_MAX : std::max(1LL, static_cast<long long>(ms));
}

// The server's primary message, with its DETAIL and HINT when present; libpq's own text for
// errors it raised itself (a lost connection).
std::string server_message(const PGresult* r) {
  const char* primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  if (primary == nullptr) {
    std::string text = one_line(PQresultErrorMessage(r));
    return text.empty() ? "unknown error (no message from libpq)" : text;
  }
  std::string out = primary;
  if (const char* detail = PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL)) {
    out += std::string("; DETAIL: ") + detail;
  }
  if (const char* hint = PQresultErrorField(r, PG_DIAG_MESSAGE_HINT)) out += std::string("; HINT: ") + hint;
  return out;
}

// SQLSTATEs that mean the session is gone rather than the statement failed: connection exceptions
// (class 08) and the server shutting down or terminating the backend (57P01..57P05).
bool is_session_failure(std::string_view sqlstate) {
  return sqlstate.substr(0, 2) == "08" || (sqlstate.size() == 5 && sqlstate.substr(0, 3) == "57P");
}

}  // namespace

struct postgres_connection::statement_run {
  row_sink* rows = nullptr;  // null when the statement is only prepared
  double elapsed_ms = 0.0;
  bool columns_set = false;
  stop_reason stop = stop_reason::none;
  bool abandoned = false;    // the server did not end the statement after our cancel
  bool not_a_query = false;  // a command without rows (the gate should have refused it)
  bool copy = false;         // a COPY (likewise)
  bool lost = false;         // the connection failed while the statement ran
  bool failed = false;
  std::string sqlstate;
  std::string error;
};

postgres_connection::postgres_connection(PGconn* conn, postgres_settings settings,
                                         std::unique_ptr<worker_slot> slot)
    : conn_(conn), settings_(std::move(settings)), slot_(std::move(slot)) {
  replace_cancel_handle_();
}

postgres_connection::~postgres_connection() {
  {
    std::lock_guard lock(cancel_mutex_);
    PQfreeCancel(cancel_);
    cancel_ = nullptr;
  }
  PQfinish(conn_);
}

void postgres_connection::replace_cancel_handle_() noexcept {
  std::lock_guard lock(cancel_mutex_);
  PQfreeCancel(cancel_);
  cancel_ = PQgetCancel(conn_);  // the cancel key changes with every new session
}

void postgres_connection::cancel() noexcept {
  cancel_requested_.store(true);
  std::lock_guard lock(cancel_mutex_);
  if (in_statement_ && cancel_ != nullptr) {
    char error[256];
    PQcancel(cancel_, error, sizeof error);
  }
}

void postgres_connection::send_cancel_() noexcept {
  std::lock_guard lock(cancel_mutex_);
  if (cancel_ != nullptr) {
    char error[256];
    PQcancel(cancel_, error, sizeof error);
  }
}

bool postgres_connection::wait_for_input_(clock::time_point until) {
  while (PQisBusy(conn_)) {
    const auto now = clock::now();
    if (now >= until) return false;
    const int socket = PQsocket(conn_);
    if (socket >= 0) {
      pollfd fd{socket, POLLIN, 0};
      const auto wait = std::chrono::ceil<milliseconds>(until - now).count();
      ::poll(&fd, 1, static_cast<int>(std::min<long long>(wait, INT_MAX)));
    }
    if (PQconsumeInput(conn_) == 0) return true;  // the connection failed: PQgetResult reports it
  }
  return true;
}

bool postgres_connection::run_control_(const char* sql, std::string& message) {
  if (PQsendQuery(conn_, sql) == 0) {
    message = one_line(PQerrorMessage(conn_));
    if (PQstatus(conn_) != CONNECTION_OK) broken_ = true;
    return false;
  }
  const auto until = clock::now() + control_timeout;
  bool ok = true;
  while (true) {
    if (!wait_for_input_(until)) {
      broken_ = true;
      message = "the server did not answer '" + std::string(sql) + "' within " +
                std::to_string(control_timeout.count() / 1000) + " s";
      return false;
    }
    PGresult* r = PQgetResult(conn_);
    if (r == nullptr) break;
    const ExecStatusType status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      if (ok) message = server_message(r);
      ok = false;
    }
    PQclear(r);
  }
  if (PQstatus(conn_) != CONNECTION_OK) broken_ = true;
  return ok;
}

bool postgres_connection::reset_(std::string& message) {
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    broken_ = true;
    message =
        "the connection to the server was lost and could not be reopened: " + one_line(PQerrorMessage(conn_));
    return false;
  }
  replace_cancel_handle_();
  std::string refusal = check_role(conn_, settings_);
  if (!refusal.empty()) {
    broken_ = true;
    message = std::move(refusal);
    return false;
  }
  broken_ = false;
  return true;
}

bool postgres_connection::session_ready_(std::string& message) {
  // Reads what the server sent while we were idle: a session it closed shows up here (or at BEGIN).
  if (!broken_ && PQstatus(conn_) == CONNECTION_OK) PQconsumeInput(conn_);
  if (!broken_ && PQstatus(conn_) == CONNECTION_OK && PQtransactionStatus(conn_) == PQTRANS_IDLE) return true;
  return reset_(message);
}

bool postgres_connection::begin_(double timeout_seconds, std::string& message) {
  std::string sql = "BEGIN READ ONLY";
  if (timeout_seconds > 0) {
    sql += "; SET LOCAL statement_timeout = " + std::to_string(timeout_ms(timeout_seconds));
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!session_ready_(message)) return false;
    if (run_control_(sql.c_str(), message) && PQtransactionStatus(conn_) == PQTRANS_INTRANS) return true;
    // A session the server closed while we were idle fails here: the next attempt reconnects.
    if (!broken_ && PQtransactionStatus(conn_) != PQTRANS_IDLE) end_transaction_();
  }
  message = "cannot start a read-only transaction: " + message;
  return false;
}

void postgres_connection::end_transaction_() {
  // Also releases session-level advisory locks, the one thing a read-only query can leave behind
  // that a rollback does not undo (another worker would wait on it).
  for (int attempt = 0; attempt < 2 && !broken_; ++attempt) {
    std::string message;
    const bool ok = run_control_("ROLLBACK; SELECT pg_advisory_unlock_all()", message);
    // A late cancel request may hit the ROLLBACK itself: then it is sent again.
    if (!broken_ && PQtransactionStatus(conn_) == PQTRANS_IDLE && (ok || attempt == 1)) return;
  }
  broken_ = true;
}

void postgres_connection::take_result_(statement_run& run, const PGresult* r) {
  const ExecStatusType status = PQresultStatus(r);
  if ((status == PGRES_SINGLE_TUPLE || status == PGRES_TUPLES_OK) && !run.columns_set) {
    const int columns = PQnfields(r);
    std::vector<std::string> names;
    std::vector<std::string> types;
    for (int c = 0; c < columns; ++c) {
      const char* name = PQfname(r, c);
      names.emplace_back(name ? name : "");
      types.emplace_back(type_name(PQftype(r, c)));
    }
    if (run.rows != nullptr) run.rows->set_columns(std::move(names), std::move(types));
    run.columns_set = true;
  }
  switch (status) {
    case PGRES_SINGLE_TUPLE:
      break;
    case PGRES_TUPLES_OK:
      return;
    case PGRES_COMMAND_OK:
    case PGRES_EMPTY_QUERY:
      run.not_a_query = true;
      return;
    case PGRES_COPY_OUT:
    case PGRES_COPY_IN:
    case PGRES_COPY_BOTH:
      run.copy = true;
      return;
    default:
      if (!run.failed) {
        const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        run.failed = true;
        run.sqlstate = state ? state : "";
        run.error = server_message(r);
        // PostgreSQL names the whole statement ("cannot execute SELECT ..." for a CTE that deletes).
        if (run.sqlstate == "25006") {
          run.error += " (the evaluation runs every query in a read-only transaction)";
        } else if (run.sqlstate == "42501") {  // insufficient_privilege
          run.error += " (refused by the privileges of the role the evaluation connects as)";
        }
      }
      return;
  }
  if (run.stop != stop_reason::none || run.rows == nullptr) return;  // draining after a cap
  row_sink& rows = *run.rows;
  if (!rows.begin_row()) {
    run.stop = stop_reason::row_cap;
    return;
  }
  const int columns = PQnfields(r);
  for (int c = 0; c < columns; ++c) {
    if (PQgetisnull(r, 0, c)) {
      rows.null();
      continue;
    }
    const std::string_view text(PQgetvalue(r, 0, c), static_cast<std::size_t>(PQgetlength(r, 0, c)));
    if (!rows.count_bytes(append_text_cell(rows.cells(), PQftype(r, c), text, scratch_))) {
      run.stop = stop_reason::byte_cap;
      return;
    }
  }
  rows.end_row();
}

void postgres_connection::fetch_(statement_run& run, const exec_limits& limits, clock::time_point start) {
  const bool has_deadline = limits.timeout_seconds > 0;
  const auto deadline = start +
                        std::chrono::duration_cast<clock::duration>(
                            std::chrono::duration<double>(std::min(limits.timeout_seconds, 1e7))) +
                        deadline_grace;
  bool cancelling = false;
  clock::time_point repeat_at{};
  clock::time_point give_up_at{};
  const auto start_cancel = [&](stop_reason why, clock::time_point now, bool send) {
    if (run.stop == stop_reason::none) run.stop = why;
    if (cancelling) return;
    cancelling = true;
    repeat_at = now + cancel_repeat;
    give_up_at = now + cancel_give_up;
    if (send) send_cancel_();
  };

  while (true) {
    // Until libpq holds a whole result: watch the deadline, cancel() and an unanswered cancel.
    while (true) {
      const auto now = clock::now();
      if (!cancelling && cancel_requested_.load()) start_cancel(stop_reason::cancelled, now, false);
      if (!cancelling && has_deadline && now >= deadline) start_cancel(stop_reason::deadline, now, true);
      if (cancelling && now >= give_up_at) {
        run.abandoned = true;
        broken_ = true;
        return;
      }
      if (cancelling && now >= repeat_at) {
        send_cancel_();
        repeat_at = now + cancel_repeat;
      }
      auto next = now + poll_slice;
      if (!cancelling && has_deadline) next = std::min(next, deadline);
      if (cancelling) next = std::min({next, repeat_at, give_up_at});
      if (wait_for_input_(next)) break;
    }
    PGresult* r = PQgetResult(conn_);
    if (r == nullptr) {
      // A cancel() whose effect arrived before we noticed the request.
      if (run.stop == stop_reason::none && cancel_requested_.load()) run.stop = stop_reason::cancelled;
      return;
    }
    take_result_(run, r);
    PQclear(r);
    if (run.copy) {  // libpq now expects COPY data: give the session up rather than feed it
      broken_ = true;
      return;
    }
    if (run.stop == stop_reason::row_cap || run.stop == stop_reason::byte_cap) {
      start_cancel(run.stop, clock::now(), true);
    }
  }
}

run_status postgres_connection::finish_(statement_run& run, const exec_limits& limits) {
  const bool lost = run.lost;
  const bool stopped = run.abandoned || (run.failed && run.sqlstate == "57014");
  switch (run.stop) {
    case stop_reason::row_cap:
    case stop_reason::byte_cap:
      return run_status::success();  // truncated; the cancel's error is expected
    case stop_reason::deadline:
      if (stopped) {
        return run_status::timed_out(run.abandoned ? "the server ignored statement_timeout and the cancel "
                                                     "request; the connection was closed"
                                                   : "the server did not stop it at statement_timeout; "
                                                     "cancelled by sqlmorph");
      }
      break;
    case stop_reason::cancelled:
      if (stopped) return run_status::cancelled();
      break;
    case stop_reason::none:
      break;
  }
  if (run.failed) {
    if (lost || is_session_failure(run.sqlstate)) {
      return run_status::backend_failure("the connection to the server was lost: " + run.error);
    }
    // Our statement_timeout, told from another session's cancel by the time it took (the client's
    // clock runs from before BEGIN, so it is never shorter than the server's).
    if (run.sqlstate == "57014" && limits.timeout_seconds > 0 &&
        run.elapsed_ms + 1.0 >= static_cast<double>(timeout_ms(limits.timeout_seconds))) {
      return run_status::timed_out("PostgreSQL's statement_timeout");
    }
    return run_status::error(run.error);
  }
  if (run.copy) return run_status::error("COPY is not evaluated: refused");
  if (lost) {
    return run_status::backend_failure("the connection to the server was lost: " +
                                       one_line(PQerrorMessage(conn_)));
  }
  if (run.rows == nullptr) return run_status::success();  // prepared: it parses and binds
  if (run.not_a_query || !run.columns_set) return run_status::not_a_query();
  return run_status::success();
}

run_status postgres_connection::run(const statement_request& statement, row_sink& rows) {
  return run_(statement, &rows);
}

run_status postgres_connection::prepare(const statement_request& statement) {
  return run_(statement, nullptr);
}

bool postgres_connection::stopped_by_another_session_(const statement_run& run,
                                                      const exec_limits& limits) const {
  if (run.abandoned || run.stop != stop_reason::none) return false;  // stopped by us: a cap, the limit
  // The session ended under the query: pg_terminate_backend() from another session, a restart.
  if (run.lost || (run.failed && is_session_failure(run.sqlstate))) return true;
  // A cancel that neither cancel() nor our statement_timeout sent: pg_cancel_backend() elsewhere.
  return run.failed && run.sqlstate == "57014" && !cancel_requested_.load() &&
         (limits.timeout_seconds <= 0 ||
          run.elapsed_ms + 1.0 < static_cast<double>(timeout_ms(limits.timeout_seconds)));
}

run_status postgres_connection::run_(const statement_request& statement, row_sink* rows) {
  cancel_requested_.store(false);
  bool stopped_by_other = false;
  run_status first = attempt_(statement, rows, stopped_by_other);
  if (!stopped_by_other) return first;
  // Another session stopped the query (pg_terminate_backend() or pg_cancel_backend() in a query
  // of another worker, an administrator): it is not the query's doing, so it runs once more, on a
  // new session if the old one is gone, within what is left of its time limit.
  const exec_limits& limits = statement.limits;
  const bool time_left = limits.timeout_seconds <= 0 ||
                         ms_between(statement.start, clock::now()) < limits.timeout_seconds * 1000.0;
  if (!time_left) return first;
  plugin::log(plugin::log_level::debug,
              "postgres: another session stopped a query (" + first.message + "); running it once more");
  if (rows != nullptr) rows->restart();
  bool stopped_again = false;
  run_status second = attempt_(statement, rows, stopped_again);
  if (!second.ok()) second.message += " (run twice: another session had stopped the first run too)";
  return second;
}

run_status postgres_connection::attempt_(const statement_request& statement, row_sink* rows,
                                         bool& stopped_by_other) {
  stopped_by_other = false;
  const exec_limits& limits = statement.limits;
  const bool prepare_only = rows == nullptr;
  try {
    std::string message;
    // The server's statement_timeout is what is left of the limit (a second run starts later).
    if (!begin_(statement.seconds_left(), message)) return run_status::backend_failure(message);
    // Extended protocol with no parameters: the server parses exactly one statement, and answers
    // in text format.
    // A check only prepares the statement (the unnamed one): the server parses and analyses it,
    // binding every name, and never runs it.
    const std::string sql(statement.sql);
    const int sent = prepare_only
                         ? PQsendPrepare(conn_, "", sql.c_str(), 0, nullptr)
                         : PQsendQueryParams(conn_, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0);
    if (sent == 0) {
      message = one_line(PQerrorMessage(conn_));
      if (PQstatus(conn_) != CONNECTION_OK) broken_ = true;
      end_transaction_();
      return run_status::backend_failure("cannot send the query: " + message);
    }
    if (!prepare_only) PQsetSingleRowMode(conn_);  // rows arrive one by one, so caps bound memory
    bool cancel_pending = false;
    {
      std::lock_guard lock(cancel_mutex_);
      in_statement_ = true;
      cancel_pending = cancel_requested_.load();
    }
    if (cancel_pending) send_cancel_();  // cancel() came before the query was sent

    statement_run run;
    run.rows = rows;
    fetch_(run, limits, statement.start);
    {
      std::lock_guard lock(cancel_mutex_);
      in_statement_ = false;
    }
    run.elapsed_ms = ms_between(statement.start, clock::now());
    run.lost = PQstatus(conn_) != CONNECTION_OK;
    if (run.lost) broken_ = true;
    if (!broken_) end_transaction_();
    stopped_by_other = stopped_by_another_session_(run, limits);
    return finish_(run, limits);
  } catch (const std::exception& e) {  // allocation failures: the session is in an unknown state
    broken_ = true;
    {
      std::lock_guard lock(cancel_mutex_);
      in_statement_ = false;
    }
    return run_status::backend_failure(std::string("query abandoned: ") + e.what());
  }
}

namespace {

// Every column of every table and view outside PostgreSQL's own schemas, in column order.
constexpr const char* schema_columns_sql =
    "SELECT CASE WHEN n.nspname = 'public' THEN quote_ident(c.relname) "
    "            ELSE quote_ident(n.nspname) || '.' || quote_ident(c.relname) END, "
    "       c.relkind::text, quote_ident(a.attname), format_type(a.atttypid, a.atttypmod), a.attnotnull "
    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "JOIN pg_attribute a ON a.attrelid = c.oid "
    "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' "
    "  AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped "
    "ORDER BY n.nspname = 'public' DESC, n.nspname, c.relname, a.attnum";

// Primary keys, unique constraints and foreign keys, as PostgreSQL prints them.
constexpr const char* schema_constraints_sql =
    "SELECT CASE WHEN n.nspname = 'public' THEN quote_ident(c.relname) "
    "            ELSE quote_ident(n.nspname) || '.' || quote_ident(c.relname) END, "
    "       pg_get_constraintdef(k.oid) "
    "FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = "
    "c.relnamespace "
    "WHERE k.contype IN ('p', 'u', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
    "ORDER BY k.contype = 'p' DESC, k.contype, k.conname";

std::string text_of(const value& v) {
  return std::string(v.bytes());
}

}  // namespace

run_status postgres_connection::schema_ddl(const exec_limits& limits, std::string& ddl) {
  exec_limits catalog = limits;
  catalog.max_rows = 0;
  query_outcome columns = execute(schema_columns_sql, catalog);
  if (!columns.ok()) return {columns.status, std::move(columns.message)};
  query_outcome constraints = execute(schema_constraints_sql, catalog);
  if (!constraints.ok()) return {constraints.status, std::move(constraints.message)};

  std::map<std::string, std::vector<std::string>> constraints_of;
  const result& k = constraints.rows;
  for (std::size_t r = 0; r < k.row_count(); ++r) {
    constraints_of[text_of(k.cell(r, 0))].push_back(text_of(k.cell(r, 1)));
  }
  const result& c = columns.rows;
  std::string table;
  bool first_line = true;
  const auto close_table = [&] {
    if (table.empty()) return;
    for (const std::string& def : constraints_of[table]) ddl += ",\n  " + def;
    ddl += "\n);\n";
  };
  for (std::size_t r = 0; r < c.row_count(); ++r) {
    const std::string name = text_of(c.cell(r, 0));
    if (name != table) {
      close_table();
      table = name;
      const std::string kind = text_of(c.cell(r, 1));
      ddl += (kind == "v"   ? "CREATE VIEW "
              : kind == "m" ? "CREATE MATERIALIZED VIEW "
                            : "CREATE TABLE ") +
             name + " (\n  ";
      first_line = true;
    }
    if (!first_line) ddl += ",\n  ";
    first_line = false;
    ddl += text_of(c.cell(r, 2)) + " " + text_of(c.cell(r, 3));
    if (c.cell(r, 4).kind() == value_kind::integer && c.cell(r, 4).as_integer() != 0) ddl += " NOT NULL";
  }
  close_table();
  return run_status::success();
}

}  // namespace sqlmorph::postgres
