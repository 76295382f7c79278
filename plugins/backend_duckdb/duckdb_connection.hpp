#pragma once
// One read-only DuckDB connection (its own database instance): execution, fetching, the time limit.

#include <atomic>
#include <memory>
#include <string>

#include <sqlmorph/backend.hpp>

#include "duckdb_library.hpp"

namespace sqlmorph::duckdb_backend {

class duckdb_connection final : public connection {
 public:
  /// Takes ownership of `db` and `conn`, opened read-only (see duckdb_backend::open).
  duckdb_connection(std::shared_ptr<const duckdb_api::library> lib, duckdb_api::database db,
                    duckdb_api::connection conn);
  ~duckdb_connection() override;

  void cancel() noexcept override;

 protected:
  run_status run(const statement_request& statement, row_sink& rows) override;
  /// duckdb_prepare: parsed, bound and planned against the schema, never executed.
  run_status prepare(const statement_request& statement) override;
  /// CREATE statements from duckdb_tables() and duckdb_views().
  run_status schema_ddl(const exec_limits& limits, std::string& ddl) override;

 private:
  class watchdog;
  /// The status of a failure with DuckDB's `message`: a timeout or cancellation when the watchdog
  /// or cancel() interrupted the statement.
  run_status failure_(std::string_view message) const;
  /// Prepares `sql` as a query (one SELECT), or says why not.
  run_status prepare_query_(const std::string& sql, duckdb_api::prepared_statement& stmt);
  /// Prepares, executes (streaming) and fetches into `rows` until the end or a cap.
  run_status execute_(const std::string& sql, row_sink& rows);

  std::shared_ptr<const duckdb_api::library> lib_;
  const duckdb_api::functions& f_;
  duckdb_api::database db_;
  duckdb_api::connection conn_;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> deadline_hit_{false};
  std::atomic<bool> running_{false};
};

}  // namespace sqlmorph::duckdb_backend
