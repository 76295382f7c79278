#pragma once
// The SQLite file a cache keeps its entries in (the embedding cache, the judge's reply cache):
// opened or created in WAL mode, so readers never wait for a writer and several processes can
// share the file, with a busy timeout, so a writer waits its turn instead of failing, and with the
// cache's schema. Statements (statement.hpp) and transactions (write_transaction.hpp) run on it.

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>

struct sqlite3;

namespace sqlmorph::sqlite_store {

/// How a cache's file is opened.
struct store_options {
  /// What the file is, for messages: "judge cache" gives "cannot open the judge cache FILE: ...",
  /// and "judge cache: REASON" for a statement that fails later.
  std::string label;
  /// SQL run (one sqlite3_exec) once the file is in WAL mode: `CREATE TABLE IF NOT EXISTS ...` and
  /// per-connection pragmas. It must leave an existing file's entries as they are.
  std::string schema;
  /// How long a statement waits for another connection's lock before it fails with SQLITE_BUSY.
  std::chrono::milliseconds busy_timeout{30'000};
  /// Create the file's missing parent folders first (SQLite creates the file, never a folder).
  bool create_folders = false;
};

/// The file could not be opened or set up. An invalid_argument, like a bad option value: the path,
/// or what is at it, is what is wrong.
class open_error : public std::invalid_argument {
 public:
  /// `open`: SQLite could not open or create the file. `setup`: it opened, but switching to WAL or
  /// running the schema failed (not a database, read-only, locked ...).
  enum class stage { open, setup };

  open_error(stage failed_at, std::filesystem::path file, std::string reason, const std::string& message);

  stage failed_at() const noexcept { return failed_at_; }
  const std::filesystem::path& file() const noexcept { return file_; }
  /// SQLite's own message, without the file.
  const std::string& reason() const noexcept { return reason_; }

 private:
  stage failed_at_;
  std::filesystem::path file_;
  std::string reason_;
};

/// One connection to the file, in SQLite's serialized mode. A cache still runs whole operations
/// (a lookup loop, a transaction) under its own lock: the connection's last error and an open
/// transaction belong to the connection, not to a thread.
class store_file {
 public:
  /// Opens or creates `file`. Throws open_error naming it: "cannot open the LABEL FILE: REASON"
  /// when SQLite cannot open it, "cannot use FILE as the LABEL: REASON" when WAL or the schema fails.
  store_file(const std::filesystem::path& file, const store_options& options);
  ~store_file();
  store_file(const store_file&) = delete;
  store_file& operator=(const store_file&) = delete;

  /// Runs SQL that returns no rows (BEGIN, COMMIT ...). Throws std::runtime_error "LABEL: REASON".
  void exec(const char* sql) const;
  /// std::runtime_error "LABEL: REASON" from the connection's last SQLite error, for the statements.
  std::runtime_error last_error() const;

  const std::filesystem::path& file() const noexcept { return file_; }
  const std::string& label() const noexcept { return label_; }
  sqlite3* native_handle() const noexcept { return db_; }

 private:
  std::filesystem::path file_;
  std::string label_;
  sqlite3* db_ = nullptr;
};

}  // namespace sqlmorph::sqlite_store
