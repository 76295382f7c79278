#include "sqlite_store/statement.hpp"

#include <sqlite3.h>

namespace sqlmorph::sqlite_store {

statement::statement(const store_file& file, const char* sql) : file_(file) {
  if (sqlite3_prepare_v2(file.native_handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    throw file.last_error();
  }
}

statement::~statement() {
  sqlite3_finalize(stmt_);
}

void statement::check_bound(int result) const {
  if (result != SQLITE_OK) throw file_.last_error();
}

void statement::bind_text(int index, std::string_view text) {
  // A default-constructed view has no data pointer, which SQLite would bind as NULL.
  const char* data = text.data() != nullptr ? text.data() : "";
  check_bound(sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
}

void statement::bind_blob(int index, std::span<const std::byte> bytes) {
  const void* data = bytes.data() != nullptr ? static_cast<const void*>(bytes.data()) : "";
  check_bound(sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT));
}

void statement::bind_int(int index, std::int64_t value) {
  check_bound(sqlite3_bind_int64(stmt_, index, value));
}

void statement::bind_double(int index, double value) {
  check_bound(sqlite3_bind_double(stmt_, index, value));
}

void statement::bind_null(int index) {
  check_bound(sqlite3_bind_null(stmt_, index));
}

bool statement::step() {
  const int result = sqlite3_step(stmt_);
  if (result == SQLITE_ROW) return true;
  if (result == SQLITE_DONE) return false;
  throw file_.last_error();
}

void statement::reset() noexcept {
  // The code it returns is the last step's error, which step() has already thrown.
  sqlite3_reset(stmt_);
}

bool statement::column_is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::string_view statement::column_text(int column) const {
  // The pointer first, then the size: asking for the text may convert the value, and the size is
  // that of the converted text.
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (text == nullptr) return {};
  return {text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::span<const std::byte> statement::column_blob(int column) const {
  const auto* bytes = static_cast<const std::byte*>(sqlite3_column_blob(stmt_, column));
  if (bytes == nullptr) return {};
  return {bytes, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::int64_t statement::column_int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double statement::column_double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

}  // namespace sqlmorph::sqlite_store
