#include "duckdb_connection.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "duckdb_values.hpp"

namespace sqlmorph::duckdb_backend {

using namespace duckdb_api;

// Interrupts the connection's statement from its own thread at the deadline, or when cancel() was
// called, and again every 20 ms until the statement has ended (an interrupt that comes before
// DuckDB started the statement would otherwise be lost). Stopped and joined by its destructor.
class duckdb_connection::watchdog {
 public:
  using clock = std::chrono::steady_clock;
  watchdog(duckdb_connection& c, const exec_limits& limits, clock::time_point start)
      : c_(c), has_deadline_(limits.timeout_seconds > 0) {
    if (has_deadline_) {
      deadline_ = start + std::chrono::duration_cast<clock::duration>(
                              std::chrono::duration<double>(limits.timeout_seconds));
    }
    thread_ = std::thread([this] { loop_(); });
  }
  ~watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;

 private:
  void loop_() noexcept {
    std::unique_lock lock(mutex_);
    while (!done_) {
      auto until = clock::now() + std::chrono::milliseconds(20);
      if (has_deadline_ && !c_.deadline_hit_.load() && deadline_ < until) until = deadline_;
      wake_.wait_until(lock, until, [this] { return done_; });
      if (done_) break;
      const bool late = has_deadline_ && clock::now() >= deadline_;
      if (late) c_.deadline_hit_.store(true);
      if (late || c_.cancelled_.load()) c_.f_.interrupt(c_.conn_);
    }
  }

  duckdb_connection& c_;
  bool has_deadline_;
  clock::time_point deadline_{};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: started once the rest is set
};

namespace {

template <typename T, typename F>
struct guard {
  T& handle;
  F release;
  ~guard() {
    if (handle != nullptr) release(&handle);
  }
};
template <typename T, typename F>
guard(T&, F) -> guard<T, F>;

}  // namespace

duckdb_connection::duckdb_connection(std::shared_ptr<const library> lib, database db,
                                     duckdb_api::connection conn)
    : lib_(std::move(lib)), f_(lib_->api()), db_(db), conn_(conn) {}

duckdb_connection::~duckdb_connection() {
  f_.disconnect(&conn_);
  f_.close(&db_);
}

void duckdb_connection::cancel() noexcept {
  cancelled_.store(true);
  if (running_.load()) f_.interrupt(conn_);
}

run_status duckdb_connection::failure_(std::string_view message) const {
  if (deadline_hit_.load()) return run_status::timed_out("interrupted by DuckDB");
  if (cancelled_.load()) return run_status::cancelled();
  return run_status::error(std::string(message));
}

run_status duckdb_connection::prepare_query_(const std::string& sql, prepared_statement& stmt) {
  if (f_.prepare(conn_, sql.c_str(), &stmt) != state::success) {
    const char* err = stmt != nullptr ? f_.prepare_error(stmt) : nullptr;
    return failure_(err != nullptr ? err : "DuckDB could not prepare the statement");
  }
  // The SDK's gate let only SELECT, WITH, VALUES and TABLE through; DuckDB's own statement type
  // is checked too (the database is read-only whatever it is).
  if (f_.prepared_statement_type(stmt) != statement_type_select) return run_status::not_a_query();
  return run_status::success();
}

run_status duckdb_connection::execute_(const std::string& sql, row_sink& rows) {
  prepared_statement stmt = nullptr;
  guard stmt_guard{stmt, f_.destroy_prepare};
  if (run_status st = prepare_query_(sql, stmt); !st.ok()) return st;
  pending_result pending = nullptr;
  guard pending_guard{pending, f_.destroy_pending};
  if (f_.pending_prepared_streaming(stmt, &pending) != state::success) {
    const char* err = pending != nullptr ? f_.pending_error(pending) : nullptr;
    return failure_(err != nullptr ? err : "DuckDB could not start the statement");
  }
  query_result res{};
  struct result_guard {
    const functions& f;
    query_result& r;
    ~result_guard() { f.destroy_result(&r); }
  } res_guard{f_, res};
  if (f_.execute_pending(pending, &res) != state::success) {
    const char* err = f_.result_error(&res);
    return failure_(err != nullptr ? err : "DuckDB could not execute the statement");
  }

  const idx_t columns = f_.column_count(&res);
  std::vector<std::string> names;
  std::vector<std::string> type_names;
  std::vector<column_type> types;
  for (idx_t c = 0; c < columns; ++c) {
    const char* name = f_.column_name(&res, c);
    names.emplace_back(name != nullptr ? name : "");
    logical_type t = f_.column_logical_type(&res, c);
    types.push_back(describe_type(f_, t));
    f_.destroy_logical_type(&t);
    if (!types.back().unsupported.empty()) {
      const column_type& t = types.back();
      const std::string inner =
          t.unsupported == t.name ? "" : " (because of the " + t.unsupported + " inside)";
      return run_status::error("column '" + names.back() + "' is of DuckDB type " + t.name +
                               ", which the DuckDB backend does not read" + inner +
                               ": cast it in the query, e.g. CAST(" + names.back() + " AS VARCHAR)");
    }
    type_names.push_back(types.back().name);
  }
  rows.set_columns(std::move(names), std::move(type_names));

  std::string scratch;
  std::vector<duckdb_api::vector> vectors(columns);
  while (!rows.full()) {
    data_chunk chunk = f_.fetch_chunk(res);
    if (chunk == nullptr) break;
    guard chunk_guard{chunk, f_.destroy_data_chunk};
    const idx_t size = f_.data_chunk_get_size(chunk);
    if (size == 0) break;
    for (idx_t c = 0; c < columns; ++c) vectors[c] = f_.data_chunk_get_vector(chunk, c);
    for (idx_t r = 0; r < size; ++r) {
      if (!rows.begin_row()) break;
      for (idx_t c = 0; c < columns; ++c)
        if (!append_cell(f_, types[c], vectors[c], r, rows, scratch)) break;
      if (rows.full()) break;
      rows.end_row();
    }
    if (cancelled_.load() || deadline_hit_.load()) break;
  }
  if (!rows.full()) {
    const char* err = f_.result_error(&res);
    if ((err != nullptr && *err != '\0') || cancelled_.load() || deadline_hit_.load()) {
      return failure_(err != nullptr ? err : "interrupted");
    }
  }
  return run_status::success();
}

run_status duckdb_connection::run(const statement_request& statement, row_sink& rows) {
  cancelled_.store(false);  // a cancel() while nothing ran does not stop this statement
  deadline_hit_.store(false);
  running_.store(true);
  watchdog dog(*this, statement.limits, statement.start);
  run_status st = execute_(std::string(statement.sql), rows);
  running_.store(false);
  return st;
}

run_status duckdb_connection::prepare(const statement_request& statement) {
  cancelled_.store(false);
  deadline_hit_.store(false);
  running_.store(true);
  watchdog dog(*this, statement.limits, statement.start);
  prepared_statement stmt = nullptr;
  guard stmt_guard{stmt, f_.destroy_prepare};
  run_status st = prepare_query_(std::string(statement.sql), stmt);  // never executed
  running_.store(false);
  return st;
}

run_status duckdb_connection::schema_ddl(const exec_limits& limits, std::string& ddl) {
  static const std::string sql =
      "SELECT sql FROM (SELECT 0 AS k, schema_name AS s, table_name AS n, sql FROM duckdb_tables() WHERE NOT "
      "internal UNION ALL SELECT 1, schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal) "
      "ORDER BY k, s, n";
  sqlmorph::result texts;
  exec_limits unlimited = limits;
  unlimited.max_rows = 0;
  unlimited.max_bytes = 0;
  row_sink sink(texts, unlimited);
  cancelled_.store(false);
  deadline_hit_.store(false);
  running_.store(true);
  run_status st;
  {
    watchdog dog(*this, limits, std::chrono::steady_clock::now());
    st = execute_(sql, sink);
  }
  running_.store(false);
  if (!st.ok()) return st;
  for (std::size_t r = 0; r < texts.row_count(); ++r) {
    const value& v = texts.cell(r, 0);
    if (v.kind() != value_kind::text) continue;
    std::string_view text = v.bytes();
    while (!text.empty() && (text.back() == ';' || text.back() == '\n' || text.back() == ' '))
      text.remove_suffix(1);
    ddl.append(text);
    ddl += ";\n";
  }
  return run_status::success();
}

}  // namespace sqlmorph::duckdb_backend
