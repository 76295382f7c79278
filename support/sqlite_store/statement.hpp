#pragma once
// A prepared statement on a cache's file, finalized when it goes out of scope.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sqlite_store/store_file.hpp"

struct sqlite3_stmt;

namespace sqlmorph::sqlite_store {

/// Binds copy their values (SQLITE_TRANSIENT), so arguments need not outlive the call. Not
/// thread-safe: use it under the lock that guards its file, and let it go before the file does.
/// Errors throw std::runtime_error "LABEL: REASON" (store_file::last_error).
class statement {
 public:
  /// Prepares one SQL statement; throws when SQLite refuses it (syntax, unknown table ...).
  statement(const store_file& file, const char* sql);
  ~statement();
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  // Parameters are numbered from 1 (?1, ?2 ...), as in SQLite.
  void bind_text(int index, std::string_view text);
  /// Empty bytes bind an empty blob, never NULL (SQLite reads a null pointer as NULL).
  void bind_blob(int index, std::span<const std::byte> bytes);
  void bind_int(int index, std::int64_t value);
  void bind_double(int index, double value);
  void bind_null(int index);

  /// Runs to the next row: true when one is ready for the column accessors, false when the
  /// statement is done. Throws on an error (a lock held past the busy timeout, a constraint ...).
  bool step();
  /// Back to the start, to run again; the bindings stay (rebind the ones that change).
  void reset() noexcept;

  // Columns of the current row, numbered from 0; views are valid until the next step or reset.
  bool column_is_null(int column) const;
  std::string_view column_text(int column) const;
  std::span<const std::byte> column_blob(int column) const;
  std::int64_t column_int(int column) const;
  double column_double(int column) const;

 private:
  void check_bound(int result) const;

  const store_file& file_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace sqlmorph::sqlite_store
