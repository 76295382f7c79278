#pragma once
// One evaluation session on MySQL/MariaDB: each query in `START TRANSACTION READ ONLY`, always
// rolled back, with the server's statement time limit, rows streamed (mysql_use_result) into the
// capped sink, and a watchdog thread that sends `KILL QUERY` from a second session of the same
// account when the deadline passes, on cancel() and when a cap stops fetching.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include <mysql.h>

#include <sqlmorph/backend.hpp>

#include "mysql_backend.hpp"
#include "mysql_target.hpp"

namespace sqlmorph::mysql {

class mysql_connection final : public connection {
 public:
  /// Takes ownership of `conn`, a session opened by open_session() on `target`.
  mysql_connection(MYSQL* conn, mysql_target target, mysql_settings settings);
  ~mysql_connection() override;
  mysql_connection(const mysql_connection&) = delete;
  mysql_connection& operator=(const mysql_connection&) = delete;

  void cancel() noexcept override;

 protected:
  run_status run(const statement_request& statement, row_sink& rows) override;
  /// mysql_stmt_prepare: the server parses the statement and binds its tables and columns, and
  /// never runs it.
  run_status prepare(const statement_request& statement) override;
  /// SHOW CREATE TABLE of every table, and the definitions of the views.
  run_status schema_ddl(const exec_limits& limits, std::string& ddl) override;

 private:
  using clock = std::chrono::steady_clock;
  enum class kill_reason { none, deadline, cancel, cap };

  bool session_ready_(std::string& message);
  bool control_(const std::string& sql, std::string& message);
  bool set_time_limit_(double seconds, std::string& message);
  void begin_statement_(clock::time_point deadline);
  kill_reason end_statement_();
  void request_kill_(kill_reason why);
  void watch_();
  void send_kill_locked_() noexcept;
  run_status failure_(const char* what, kill_reason killed);

  MYSQL* conn_;
  mysql_target target_;
  mysql_settings settings_;
  bool mariadb_;
  bool broken_ = false;         // the session is in an unknown state: reopen it first
  double time_limit_set_ = -1;  // the session's statement time limit, as last set

  // Shared with the watchdog and cancel(): guarded by mutex_.
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool in_statement_ = false;
  unsigned long thread_id_ = 0;   // the server's id of conn_'s session
  clock::time_point deadline_{};  // kill after this (max() when there is no limit)
  kill_reason kill_ = kill_reason::none;
  clock::time_point next_kill_{};  // a kill is repeated until the statement ends
  MYSQL* killer_ = nullptr;        // the second session, opened on the first kill
  std::thread watchdog_;
};

}  // namespace sqlmorph::mysql
