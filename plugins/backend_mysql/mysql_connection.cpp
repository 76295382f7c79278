#include "mysql_connection.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include <sqlmorph/plugin.hpp>

#include "mysql_session.hpp"
#include "mysql_values.hpp"

namespace sqlmorph::mysql {
namespace {

using std::chrono::milliseconds;

// How long past the time limit we wait for the server's own limit before killing the statement.
constexpr milliseconds deadline_grace{500};
// A kill that reaches the server before the statement starts is lost: repeat it while it runs.
constexpr milliseconds kill_repeat{500};
// MySQL's error for max_execution_time (MariaDB's is ER_STATEMENT_TIMEOUT, 1969).
constexpr unsigned mysql_query_timeout = 3024;

std::string quoted_identifier(std::string_view name) {
  std::string out = "`";
  for (const char c : name) {
    out += c;
    if (c == '`') out += '`';
  }
  return out + "`";
}

}  // namespace

mysql_connection::mysql_connection(MYSQL* conn, mysql_target target, mysql_settings settings)
    : conn_(conn), target_(std::move(target)), settings_(settings), mariadb_(is_mariadb(conn)) {
  watchdog_ = std::thread([this] { watch_(); });
}

mysql_connection::~mysql_connection() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  watchdog_.join();
  if (killer_ != nullptr) mysql_close(killer_);
  if (conn_ != nullptr) mysql_close(conn_);
}

void mysql_connection::cancel() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (!in_statement_ || kill_ != kill_reason::none) return;  // nothing runs: no effect on what follows
    kill_ = kill_reason::cancel;
    next_kill_ = clock::now();
  }
  wake_.notify_all();
}

void mysql_connection::watch_() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!in_statement_) {
      wake_.wait(lock);
      continue;
    }
    const auto now = clock::now();
    if (kill_ == kill_reason::none && now >= deadline_) {
      kill_ = kill_reason::deadline;
      next_kill_ = now;
    }
    if (kill_ != kill_reason::none) {
      if (now >= next_kill_) {
        send_kill_locked_();
        next_kill_ = clock::now() + kill_repeat;
      }
      wake_.wait_until(lock, next_kill_);
    } else if (deadline_ == clock::time_point::max()) {
      wake_.wait(lock);
    } else {
      wake_.wait_until(lock, deadline_);
    }
  }
}

void mysql_connection::send_kill_locked_() noexcept {
  try {
    if (killer_ == nullptr) {
      query_status status = query_status::ok;
      std::string message;
      killer_ = open_session(target_, settings_, status, message);
      if (killer_ == nullptr) {
        plugin::log(plugin::log_level::warn,
                    "mysql: cannot open the session that stops statements: " + message);
        return;
      }
    }
    const std::string sql = "KILL QUERY " + std::to_string(thread_id_);
    if (mysql_real_query(killer_, sql.data(), sql.size()) != 0) {
      if (is_session_failure(mysql_errno(killer_))) {
        mysql_close(killer_);
        killer_ = nullptr;
      }
      return;
    }
    if (MYSQL_RES* r = mysql_store_result(killer_)) mysql_free_result(r);
  } catch (...) {  // allocation failure: the server's own limit still applies
  }
}

void mysql_connection::begin_statement_(clock::time_point deadline) {
  {
    std::lock_guard lock(mutex_);
    in_statement_ = true;
    kill_ = kill_reason::none;
    deadline_ = deadline;
    thread_id_ = mysql_thread_id(conn_);
  }
  wake_.notify_all();
}

mysql_connection::kill_reason mysql_connection::end_statement_() {
  std::lock_guard lock(mutex_);
  in_statement_ = false;
  const kill_reason k = kill_;
  kill_ = kill_reason::none;
  return k;
}

void mysql_connection::request_kill_(kill_reason why) {
  std::lock_guard lock(mutex_);
  if (kill_ == kill_reason::none) kill_ = why;
  send_kill_locked_();
  next_kill_ = clock::now() + kill_repeat;
}

bool mysql_connection::control_(const std::string& sql, std::string& message) {
  if (mysql_real_query(conn_, sql.data(), sql.size()) != 0) {
    message = mysql_error(conn_);
    if (is_session_failure(mysql_errno(conn_))) broken_ = true;
    return false;
  }
  if (MYSQL_RES* r = mysql_store_result(conn_)) mysql_free_result(r);
  return true;
}

bool mysql_connection::session_ready_(std::string& message) {
  if (!broken_ && conn_ != nullptr) return true;
  if (conn_ != nullptr) mysql_close(conn_);
  conn_ = nullptr;
  query_status status = query_status::ok;
  std::string why;
  conn_ = open_session(target_, settings_, status, why);
  if (conn_ == nullptr) {
    message = "the connection to the server was lost and could not be reopened: " + why;
    return false;
  }
  broken_ = false;
  time_limit_set_ = -1;
  return true;
}

bool mysql_connection::set_time_limit_(double seconds, std::string& message) {
  // Whole milliseconds, rounded up (at least 1 when there is a limit); 0: none.
  const double ms = seconds > 0 ? std::max(1.0, std::ceil(seconds * 1000.0)) : 0.0;
  if (ms == time_limit_set_) return true;
  char sql[96];
  if (mariadb_) {
    std::snprintf(sql, sizeof sql, "SET SESSION max_statement_time = %.3f", ms / 1000.0);
  } else {
    std::snprintf(sql, sizeof sql, "SET SESSION max_execution_time = %.0f", ms);
  }
  if (!control_(sql, message)) return false;
  time_limit_set_ = ms;
  return true;
}

run_status mysql_connection::failure_(const char* what, kill_reason killed) {
  const unsigned error = mysql_errno(conn_);
  const std::string message = mysql_error(conn_);
  if (error == ER_STATEMENT_TIMEOUT) return run_status::timed_out("MariaDB's max_statement_time");
  if (error == mysql_query_timeout) return run_status::timed_out("MySQL's max_execution_time");
  if (is_session_failure(error)) broken_ = true;
  if (error == ER_QUERY_INTERRUPTED || is_session_failure(error)) {
    if (killed == kill_reason::cancel) return run_status::cancelled();
    if (killed == kill_reason::deadline) return run_status::timed_out("stopped by KILL QUERY");
  }
  if (is_session_failure(error)) {
    return run_status::backend_failure(std::string("the connection was lost while ") + what + ": " + message);
  }
  return run_status::error(message);
}

run_status mysql_connection::run(const statement_request& statement, row_sink& rows) {
  std::string message;
  const double limit = statement.seconds_left();
  bool begun = false;
  for (int attempt = 0; attempt < 2 && !begun; ++attempt) {
    // A session the server closed while we were idle fails here: the next attempt reopens it.
    if (!session_ready_(message)) return run_status::backend_failure(message);
    begun = set_time_limit_(limit, message) && control_("START TRANSACTION READ ONLY", message);
    if (!begun && !broken_)
      return run_status::backend_failure("cannot start a read-only transaction: " + message);
  }
  if (!begun) return run_status::backend_failure(message);

  const auto deadline = limit > 0 ? statement.start +
                                        std::chrono::duration_cast<clock::duration>(
                                            std::chrono::duration<double>(statement.limits.timeout_seconds)) +
                                        deadline_grace
                                  : clock::time_point::max();
  begin_statement_(deadline);
  run_status out;
  bool failed = false;
  bool capped = false;
  const char* stage = "running the statement";
  if (mysql_real_query(conn_, statement.sql.data(), statement.sql.size()) != 0) {
    failed = true;
  } else if (MYSQL_RES* res = mysql_use_result(conn_)) {
    stage = "fetching rows";
    const unsigned columns = mysql_num_fields(res);
    const MYSQL_FIELD* fields = mysql_fetch_fields(res);
    std::vector<std::string> names;
    std::vector<std::string> types;
    for (unsigned c = 0; c < columns; ++c) {
      names.emplace_back(fields[c].name, fields[c].name_length);
      types.push_back(type_name(fields[c]));
    }
    rows.set_columns(std::move(names), std::move(types));
    while (true) {
      MYSQL_ROW row = mysql_fetch_row(res);
      if (row == nullptr) {
        failed = mysql_errno(conn_) != 0;
        break;
      }
      if (!rows.begin_row()) {
        capped = true;
        break;
      }
      const unsigned long* lengths = mysql_fetch_lengths(res);
      bool fits = true;
      for (unsigned c = 0; c < columns && fits; ++c) {
        if (row[c] == nullptr) {
          rows.null();
        } else {
          fits = append_cell(rows, fields[c], std::string_view(row[c], lengths[c]));
        }
      }
      if (!fits) {
        capped = true;
        break;
      }
      rows.end_row();
    }
    // Stops the statement on the server, then reads what it still sends until it ends.
    if (capped) request_kill_(kill_reason::cap);
    mysql_free_result(res);
  } else if (mysql_field_count(conn_) == 0) {
    out = run_status::not_a_query();
  } else {
    failed = true;
  }
  const kill_reason killed = end_statement_();
  if (failed && !(capped && killed == kill_reason::cap)) out = failure_(stage, killed);
  if (!failed && out.ok() && !capped) {
    // SLEEP() and BENCHMARK() return a value when they are interrupted: a statement stopped by us,
    // or still running when its time was up, did not give its result.
    const double took = std::chrono::duration<double>(clock::now() - statement.start).count();
    if (killed == kill_reason::cancel) {
      out = run_status::cancelled();
    } else if (killed == kill_reason::deadline) {
      out = run_status::timed_out("stopped by KILL QUERY");
    } else if (limit > 0 && took >= statement.limits.timeout_seconds) {
      out = run_status::timed_out(mariadb_ ? "MariaDB's max_statement_time" : "MySQL's max_execution_time");
    }
  }

  // Always rolled back, and the named locks a query took with GET_LOCK() (which outlive
  // transactions) released, so that no other worker waits on them. A kill that arrived after the
  // statement ended may stop one of these: repeat.
  if (!broken_) {
    bool rolled_back = false;
    for (int attempt = 0; attempt < 3 && !rolled_back && !broken_; ++attempt) {
      rolled_back = control_("ROLLBACK", message) && control_("DO RELEASE_ALL_LOCKS()", message);
    }
    if (!rolled_back) broken_ = true;  // reopened before the next statement
  }
  return out;
}

run_status mysql_connection::prepare(const statement_request& statement) {
  std::string message;
  if (!session_ready_(message)) return run_status::backend_failure(message);
  const double limit = statement.seconds_left();
  const auto deadline =
      limit > 0
          ? clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(limit))
          : clock::time_point::max();
  MYSQL_STMT* stmt = mysql_stmt_init(conn_);
  if (stmt == nullptr) return run_status::backend_failure("cannot prepare: out of memory");
  begin_statement_(deadline);
  const int rc = mysql_stmt_prepare(stmt, statement.sql.data(), statement.sql.size());
  const kill_reason killed = end_statement_();
  run_status out;
  if (rc != 0) {
    const unsigned error = mysql_stmt_errno(stmt);
    const std::string text = mysql_stmt_error(stmt);
    if (is_session_failure(error)) broken_ = true;
    if (killed == kill_reason::deadline) {
      out = run_status::timed_out("stopped by KILL QUERY");
    } else if (killed == kill_reason::cancel) {
      out = run_status::cancelled();
    } else if (is_session_failure(error)) {
      out = run_status::backend_failure("the connection was lost while preparing: " + text);
    } else {
      out = run_status::error(text);
    }
  }
  mysql_stmt_close(stmt);
  return out;
}

run_status mysql_connection::schema_ddl(const exec_limits&, std::string& ddl) {
  std::string message;
  if (!session_ready_(message)) return run_status::backend_failure(message);
  std::vector<std::vector<std::string>> tables;
  if (!query_text_rows(conn_,
                       "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
                       "DATABASE() ORDER BY TABLE_NAME",
                       tables, message)) {
    return run_status::backend_failure("cannot list the tables: " + message);
  }
  ddl.clear();
  for (const auto& t : tables) {
    const std::string& name = t[0];
    std::vector<std::vector<std::string>> rows;
    if (t[1] == "VIEW") {
      std::string escaped(name.size() * 2 + 1, '\0');
      escaped.resize(mysql_real_escape_string(conn_, escaped.data(), name.data(), name.size()));
      if (!query_text_rows(
              conn_,
              "SELECT VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() "
              "AND TABLE_NAME = '" +
                  escaped + "'",
              rows, message)) {
        return run_status::backend_failure("cannot read the view " + name + ": " + message);
      }
      const std::string definition = rows.empty() ? std::string() : rows[0][0];
      ddl += "CREATE VIEW " + quoted_identifier(name) + " AS " +
             (definition.empty() ? "/* definition not visible to this account */" : definition) + ";\n";
    } else {
      if (!query_text_rows(conn_, "SHOW CREATE TABLE " + quoted_identifier(name), rows, message) ||
          rows.empty() || rows[0].size() < 2) {
        return run_status::backend_failure("cannot describe the table " + name + ": " + message);
      }
      ddl += rows[0][1] + ";\n";
    }
  }
  return run_status::success();
}

}  // namespace sqlmorph::mysql
