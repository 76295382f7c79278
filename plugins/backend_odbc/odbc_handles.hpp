#pragma once
// ODBC handles that free themselves, and the driver's diagnostic records as text.

#include <sql.h>
#include <sqlext.h>

#include <string>
#include <vector>

namespace sqlmorph::odbc {

/// One ODBC handle (environment, connection or statement), freed on destruction. A connection
/// handle is not disconnected here: its owner does that first (see odbc_connection).
class handle {
 public:
  handle() = default;
  handle(SQLSMALLINT type, SQLHANDLE h) noexcept : type_(type), h_(h) {}
  ~handle() { reset(); }
  handle(handle&& o) noexcept : type_(o.type_), h_(o.h_) { o.h_ = SQL_NULL_HANDLE; }
  handle& operator=(handle&& o) noexcept;
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;

  /// Allocates a handle of `type` under `parent` (SQL_NULL_HANDLE for an environment); an empty
  /// handle when the driver manager refuses.
  static handle allocate(SQLSMALLINT type, SQLHANDLE parent) noexcept;

  SQLHANDLE get() const noexcept { return h_; }
  SQLSMALLINT type() const noexcept { return type_; }
  explicit operator bool() const noexcept { return h_ != SQL_NULL_HANDLE; }
  void reset() noexcept;

 private:
  SQLSMALLINT type_ = 0;
  SQLHANDLE h_ = SQL_NULL_HANDLE;
};

/// One diagnostic record of SQLGetDiagRec.
struct diagnostic {
  std::string sqlstate;
  SQLINTEGER native_error = 0;
  std::string message;
};

/// Every diagnostic record attached to a handle (at most a few; the rest are dropped).
std::vector<diagnostic> read_diagnostics(SQLSMALLINT type, SQLHANDLE h);
inline std::vector<diagnostic> read_diagnostics(const handle& h) {
  return read_diagnostics(h.type(), h.get());
}

/// "SQLSTATE 42P01: message" for each record, joined by "; " (or `fallback` when there is none).
std::string describe(const std::vector<diagnostic>& records, const std::string& fallback);

/// The SQLSTATE of the first record, or "".
std::string first_sqlstate(const std::vector<diagnostic>& records);

/// True when a record says the connection failed (SQLSTATE class 08, HYT01, PostgreSQL's 57P0x).
bool connection_failed(const std::vector<diagnostic>& records);

}  // namespace sqlmorph::odbc
