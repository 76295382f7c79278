#pragma once
// One ODBC connection: the statement checks, execution under a time limit, fetching under the
// caps, and the rollback that ends every query.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sqlmorph/backend.hpp>

#include "odbc_backend.hpp"
#include "odbc_session.hpp"
#include "odbc_values.hpp"

namespace sqlmorph::odbc {

class odbc_connection final : public connection {
 public:
  /// Takes an open session (see open_session()) of `target`, which it opens again should another
  /// session end it; keeps the environment and watchdog alive.
  odbc_connection(std::shared_ptr<environment> env, session s, std::shared_ptr<watchdog> dog,
                  const odbc_settings& settings, std::string target);
  ~odbc_connection() override;

  void cancel() noexcept override;

 protected:
  run_status run(const statement_request& statement, row_sink& rows) override;

 private:
  using clock = std::chrono::steady_clock;
  struct column_plan {
    cell_reading reading;
    SQLSMALLINT c_type;
  };

  /// One run of the statement; sets stopped_by_other_ when another session ended it.
  run_status attempt_(const statement_request& statement, row_sink& rows);
  run_status run_(SQLHSTMT stmt, std::string_view sql, const statement_request& statement, row_sink& rows);
  run_status failure_(const std::vector<diagnostic>& records, const statement_request& statement);
  /// Reads one cell into cell_ in chunks; stops early once it has more than `raw_limit` bytes.
  /// Returns false on a driver error.
  bool read_cell_(SQLHSTMT stmt, SQLUSMALLINT column, const column_plan& plan, std::size_t raw_limit,
                  bool& is_null, bool& over_limit);
  /// SQLCancel on the statement executing now, if any.
  void interrupt_(std::atomic<bool>& reason) noexcept;

  std::shared_ptr<environment> env_;  // declared first: destroyed after the connection handle
  handle dbc_;
  std::string target_;
  driver_family family_;
  std::shared_ptr<watchdog> watchdog_;
  odbc_settings settings_;

  std::mutex active_mutex_;  // guards active_ against SQLCancel racing SQLFreeHandle
  SQLHSTMT active_ = SQL_NULL_HSTMT;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> deadline_hit_{false};
  std::string broken_;             // why the connection is unusable (a failed rollback, a lost server)
  bool stopped_by_other_ = false;  // the last run was ended by another session

  std::vector<char> buffer_;
  std::string cell_;
  std::string scratch_;
};

}  // namespace sqlmorph::odbc
