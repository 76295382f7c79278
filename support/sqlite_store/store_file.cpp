#include "sqlite_store/store_file.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <system_error>
#include <utility>

namespace sqlmorph::sqlite_store {

open_error::open_error(stage failed_at, std::filesystem::path file, std::string reason,
                       const std::string& message)
    : std::invalid_argument(message),
      failed_at_(failed_at),
      file_(std::move(file)),
      reason_(std::move(reason)) {}

store_file::store_file(const std::filesystem::path& file, const store_options& options)
    : file_(file), label_(options.label) {
  if (options.create_folders && file.has_parent_path()) {
    // A folder that cannot be made shows up as SQLite's "unable to open database file" below.
    std::error_code ignored;
    std::filesystem::create_directories(file.parent_path(), ignored);
  }
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string reason = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw open_error(open_error::stage::open, file, reason,
                     "cannot open the " + label_ + " " + file.string() + ": " + reason);
  }
  const auto timeout = std::clamp<std::chrono::milliseconds::rep>(options.busy_timeout.count(), 0, 1 << 30);
  sqlite3_busy_timeout(db_, static_cast<int>(timeout));
  // journal_mode=WAL is stored in the file: the first opener switches it, later ones find it so.
  const std::string setup = "PRAGMA journal_mode=WAL;" + options.schema;
  char* error = nullptr;
  if (sqlite3_exec(db_, setup.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string reason = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    sqlite3_close(db_);
    db_ = nullptr;
    throw open_error(open_error::stage::setup, file, reason,
                     "cannot use " + file.string() + " as the " + label_ + ": " + reason);
  }
}

store_file::~store_file() {
  // _v2: should a statement outlive the file by mistake, the connection closes when it goes.
  sqlite3_close_v2(db_);
}

void store_file::exec(const char* sql) const {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string reason = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error(label_ + ": " + reason);
  }
}

std::runtime_error store_file::last_error() const {
  return std::runtime_error(label_ + ": " + sqlite3_errmsg(db_));
}

}  // namespace sqlmorph::sqlite_store
