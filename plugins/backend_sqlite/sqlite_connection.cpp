#include "sqlite_connection.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cstring>
#include <thread>

namespace sqlmorph::sqlite {
namespace {

// Every refusal of the backend starts so, and goes on with what was refused.
constexpr const char* refusal_prefix = "not authorized: the evaluation is read-only and refuses ";

// After the first statement SQLite hands back the rest of the text; only blanks, comments and
// semicolons may follow (a trailing `;` or comment is fine, a second statement is not).
std::string_view meaningful_rest(std::string_view rest) {
  std::size_t i = 0;
  while (i < rest.size()) {
    const char c = rest[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ';') {
      ++i;
    } else if (rest.substr(i, 2) == "--") {
      while (i < rest.size() && rest[i] != '\n') ++i;
    } else if (rest.substr(i, 2) == "/*") {
      const std::size_t end = rest.find("*/", i + 2);
      i = end == std::string_view::npos ? rest.size() : end + 2;
    } else {
      return rest.substr(i);
    }
  }
  return {};
}

// The first three words of a statement, e.g. "DROP TABLE items".
std::string statement_head(std::string_view sql) {
  std::string out;
  int words = 0;
  std::size_t i = 0;
  while (i < sql.size() && words < 3) {
    while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
    const std::size_t start = i;
    while (i < sql.size() && !std::isspace(static_cast<unsigned char>(sql[i])) && sql[i] != ';') ++i;
    if (i == start) break;
    if (!out.empty()) out += ' ';
    out.append(sql.substr(start, std::min<std::size_t>(i - start, 40)));
    ++words;
  }
  return out;
}

// A schema statement up to the name of what it changes: "DROP TABLE items", "CREATE TEMP TABLE t",
// "CREATE VIRTUAL TABLE v", "CREATE INDEX IF NOT EXISTS i".
std::string schema_statement(std::string_view sql) {
  std::string out;
  bool object_next = false;
  std::size_t i = 0;
  for (int words = 0; i < sql.size() && words < 8; ++words) {
    while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
    const std::size_t start = i;
    while (i < sql.size() && !std::isspace(static_cast<unsigned char>(sql[i])) && sql[i] != ';' &&
           sql[i] != '(')
      ++i;
    if (i == start) break;
    std::string word(sql.substr(start, std::min<std::size_t>(i - start, 40)));
    out += (out.empty() ? "" : " ") + word;
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const bool keyword = word == "IF" || word == "NOT" || word == "EXISTS";
    if (object_next && !keyword) break;
    if (word == "TABLE" || word == "INDEX" || word == "VIEW" || word == "TRIGGER") object_next = true;
  }
  return out;
}

std::string excerpt(std::string_view s, std::size_t n = 40) {
  return s.size() <= n ? std::string(s) : std::string(s.substr(0, n)) + "...";
}

// A URI that opens `path` read-only: the path is percent-encoded so that nothing in it can be read
// as a URI parameter (the library is built to interpret file: names as URIs).
std::string read_only_uri(const std::string& path, bool immutable) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '%' || c == '?' || c == '#' || c <= 0x20 || c >= 0x7f) {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 0xf];
    } else {
      uri += ch;
    }
  }
  uri += "?mode=ro";
  if (immutable) uri += "&immutable=1";
  return uri;
}

}  // namespace

sqlite3* open_read_only(const std::string& path, const sqlite_settings& settings, query_status& status,
                        std::string& message) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    status = query_status::db_missing;
    message = "database not found: " + path;
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    status = query_status::backend_error;
    message = "not a database file: " + path;
    return nullptr;
  }
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(read_only_uri(path, settings.immutable).c_str(), &db,
                                 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    status = query_status::backend_error;
    message = "cannot open " + path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  // Bounds every value a query builds: a string doubled in a recursive CTE, zeroblob(1e9),
  // printf('%.*c', 1e9, 'x') end with "string or blob too big" instead of taking gigabytes.
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, static_cast<int>(settings.max_value_bytes));
  sqlite3_busy_timeout(db, settings.busy_timeout_ms);
  // Read the header and schema now, so a file that is not a database fails here, not as a query.
  char* err = nullptr;
  if (sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, &err) != SQLITE_OK) {
    status = query_status::backend_error;
    message = "cannot read " + path + ": " + (err ? err : sqlite3_errmsg(db));
    sqlite3_free(err);
    sqlite3_close(db);
    return nullptr;
  }
  status = query_status::ok;
  return db;
}

sqlite_connection::sqlite_connection(sqlite3* db, sqlite_settings settings)
    : db_(db), settings_(settings), heap_budget_(settings.heap_limit_bytes) {
  install_authorizer(db_, this);
  sqlite3_progress_handler(db_, settings_.progress_interval, &sqlite_connection::on_progress, this);
}

sqlite_connection::~sqlite_connection() {
  sqlite3_close(db_);
}

void sqlite_connection::cancel() noexcept {
  cancelled_.store(true);
  sqlite3_interrupt(db_);
}

int sqlite_connection::on_progress(void* self) noexcept {
  auto* c = static_cast<sqlite_connection*>(self);
  if (c->cancelled_.load(std::memory_order_relaxed)) return 1;
  if (c->has_deadline_ && std::chrono::steady_clock::now() >= c->deadline_) {
    c->deadline_hit_ = true;
    return 1;
  }
  return 0;
}

void sqlite_connection::begin_(const exec_limits& limits, std::chrono::steady_clock::time_point start) {
  has_deadline_ = limits.timeout_seconds > 0;
  if (has_deadline_) {
    deadline_ = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limits.timeout_seconds));
  }
  deadline_hit_ = false;
  cancelled_.store(false);
  denial_.clear();
  heap_budget_.apply();
}

run_status sqlite_connection::engine_failure_(int rc, std::string_view sql) const {
  if ((rc & 0xff) == SQLITE_INTERRUPT && deadline_hit_) return run_status::timed_out("interrupted by SQLite");
  if ((rc & 0xff) == SQLITE_INTERRUPT && cancelled_.load()) return run_status::cancelled();
  if (!denial_.empty()) {
    // The authorizer refused something: that is the cause, whatever SQLite made of it ("not
    // authorized", "vtable constructor failed: ..."). SQLite checks its own schema bookkeeping
    // first (a DROP TABLE is refused as a DELETE on sqlite_master): then the statement is named.
    return run_status::error(
        std::string(refusal_prefix) +
        (denial_is_bookkeeping_ ? "a schema change (" + schema_statement(sql) + ")" : denial_));
  }
  std::string msg = sqlite3_errmsg(db_);
  if ((rc & 0xff) == SQLITE_TOOBIG) {
    msg += ": a value would be longer than " + std::to_string(settings_.max_value_bytes >> 20) +
           " MiB, the longest string or blob a query may make (max_value_mb)";
  } else if ((rc & 0xff) == SQLITE_NOMEM && heap_budget_.limited()) {
    msg += ": the query reached SQLite's heap limit (heap_limit_mb: " +
           std::to_string(settings_.heap_limit_bytes >> 20) + " MiB per worker)";
  }
  return run_status::error(std::move(msg));
}

std::optional<run_status> sqlite_connection::prepare_query_(std::string_view sql, sqlite3_stmt*& stmt) {
  stmt = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, &tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    stmt = nullptr;
    return engine_failure_(rc, sql);
  }
  if (stmt == nullptr) return run_status::error("empty query: the SQL holds no statement");
  std::optional<run_status> refusal;
  const std::string_view rest = meaningful_rest(sql.substr(static_cast<std::size_t>(tail - sql.data())));
  if (!rest.empty()) {
    refusal = run_status::error("more than one statement: only a single statement is evaluated (found '" +
                                excerpt(rest) + "' after the first)");
  } else if (!sqlite3_stmt_readonly(stmt)) {
    refusal = run_status::error(std::string(refusal_prefix) + statement_head(sql) +
                                ", which is not a read-only statement");
  } else if (sqlite3_column_count(stmt) == 0) {
    refusal = run_status::not_a_query();
  }
  if (refusal) {
    sqlite3_finalize(stmt);
    stmt = nullptr;
  }
  return refusal;
}

run_status sqlite_connection::prepare(const statement_request& statement) {
  begin_(statement.limits, statement.start);
  sqlite3_stmt* stmt = nullptr;
  if (auto refused = prepare_query_(statement.sql, stmt)) return std::move(*refused);
  sqlite3_finalize(stmt);  // prepared, never stepped: nothing was executed
  return run_status::success();
}

run_status sqlite_connection::schema_ddl(const exec_limits& limits, std::string& ddl) {
  begin_(limits, std::chrono::steady_clock::now());
  static constexpr std::string_view sql =
      "SELECT sql FROM sqlite_schema WHERE type IN ('table', 'view') AND sql IS NOT NULL "
      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid";
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return engine_failure_(rc, sql);
  struct finalizer {
    sqlite3_stmt* s;
    ~finalizer() { sqlite3_finalize(s); }
  } guard{stmt};
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    if (text == nullptr) continue;
    ddl += text;
    ddl += ";\n";
  }
  if (rc != SQLITE_DONE) return engine_failure_(rc, sql);
  return run_status::success();
}

run_status sqlite_connection::run(const statement_request& statement, row_sink& rows) {
  bool out_of_memory = false;
  run_status st = run_once_(statement, rows, out_of_memory);
  // SQLite's process-wide heap limit is shared by the workers: a statement of another worker may
  // have taken this one's share at the moment it needed memory. Once the memory is back, it runs
  // again (a statement that needs more than the limit fails the same way twice). A limit per thread
  // is this worker's alone.
  if (out_of_memory && heap_budget_.shared_with_other_threads() && wait_for_heap_()) {
    rows.restart();
    st = run_once_(statement, rows, out_of_memory);
    if (out_of_memory) st.message += " (tried twice)";
  }
  return st;
}

bool sqlite_connection::wait_for_heap_() const {
  const auto until = has_deadline_ ? deadline_ : std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (true) {
    const std::int64_t limit = process_heap_limit();
    // This statement's memory is freed by now: the rest is other workers' (and idle connections').
    if (limit <= 0 || sqlite3_memory_used() + heap_budget_.bytes() / 2 <= limit) return true;
    if (std::chrono::steady_clock::now() >= until || cancelled_.load()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

run_status sqlite_connection::run_once_(const statement_request& statement, row_sink& rows,
                                        bool& out_of_memory) {
  begin_(statement.limits, statement.start);
  out_of_memory = false;
  sqlite3_stmt* stmt = nullptr;
  if (auto refused = prepare_query_(statement.sql, stmt)) return std::move(*refused);
  struct finalizer {
    sqlite3_stmt* s;
    ~finalizer() { sqlite3_finalize(s); }
  } guard{stmt};
  const auto engine_failure = [&](int code) {
    out_of_memory = (code & 0xff) == SQLITE_NOMEM;
    return engine_failure_(code, statement.sql);
  };
  const int columns = sqlite3_column_count(stmt);
  std::vector<std::string> names;
  std::vector<std::string> types;
  names.reserve(static_cast<std::size_t>(columns));
  for (int c = 0; c < columns; ++c) {
    const char* name = sqlite3_column_name(stmt, c);
    const char* type = sqlite3_column_decltype(stmt, c);
    names.emplace_back(name ? name : "");
    types.emplace_back(type ? type : "");
  }
  rows.set_columns(std::move(names), std::move(types));

  while (true) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return engine_failure(rc);
    if (!rows.begin_row()) break;
    for (int c = 0; c < columns; ++c) {
      const int type = sqlite3_column_type(stmt, c);
      if (type == SQLITE_TEXT) {
        // The size first (in the sink): a cell that goes over the cap is never copied.
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
        if (!rows.text({p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))})) break;
      } else if (type == SQLITE_BLOB) {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, c));
        if (!rows.blob({p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))})) break;
      } else if (type == SQLITE_INTEGER) {
        rows.integer(sqlite3_column_int64(stmt, c));
      } else if (type == SQLITE_FLOAT) {
        rows.real(sqlite3_column_double(stmt, c));
      } else {
        rows.null();
      }
    }
    if (rows.full()) break;
    rows.end_row();
  }
  return run_status::success();
}

}  // namespace sqlmorph::sqlite
