#include "odbc_handles.hpp"

#include <algorithm>

namespace sqlmorph::odbc {

handle& handle::operator=(handle&& o) noexcept {
  if (this != &o) {
    reset();
    type_ = o.type_;
    h_ = o.h_;
    o.h_ = SQL_NULL_HANDLE;
  }
  return *this;
}

handle handle::allocate(SQLSMALLINT type, SQLHANDLE parent) noexcept {
  SQLHANDLE h = SQL_NULL_HANDLE;
  if (!SQL_SUCCEEDED(SQLAllocHandle(type, parent, &h))) return handle();
  return handle(type, h);
}

void handle::reset() noexcept {
  if (h_ != SQL_NULL_HANDLE) SQLFreeHandle(type_, h_);
  h_ = SQL_NULL_HANDLE;
}

std::vector<diagnostic> read_diagnostics(SQLSMALLINT type, SQLHANDLE h) {
  std::vector<diagnostic> out;
  if (h == SQL_NULL_HANDLE) return out;
  constexpr SQLSMALLINT max_records = 8;
  for (SQLSMALLINT i = 1; i <= max_records; ++i) {
    SQLCHAR state[SQL_SQLSTATE_SIZE + 1] = {};
    SQLINTEGER native = 0;
    SQLSMALLINT length = 0;
    std::string message(1024, '\0');
    SQLRETURN rc = SQLGetDiagRec(type, h, i, state, &native, reinterpret_cast<SQLCHAR*>(message.data()),
                                 static_cast<SQLSMALLINT>(message.size()), &length);
    if (rc == SQL_SUCCESS_WITH_INFO && length >= static_cast<SQLSMALLINT>(message.size())) {
      // The message was longer than the buffer: ask again with room for all of it.
      message.assign(static_cast<std::size_t>(length) + 1, '\0');
      rc = SQLGetDiagRec(type, h, i, state, &native, reinterpret_cast<SQLCHAR*>(message.data()),
                         static_cast<SQLSMALLINT>(message.size()), &length);
    }
    if (!SQL_SUCCEEDED(rc)) break;
    message.resize(std::min<std::size_t>(static_cast<std::size_t>(length), message.size()));
    // Drivers end messages with newlines or ';' runs: keep the words only.
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == ' ' ||
                                message.back() == '\0')) {
      message.pop_back();
    }
    out.push_back({reinterpret_cast<const char*>(state), native, std::move(message)});
  }
  return out;
}

std::string describe(const std::vector<diagnostic>& records, const std::string& fallback) {
  if (records.empty()) return fallback;
  std::string out;
  for (const diagnostic& d : records) {
    if (!out.empty()) out += "; ";
    out += "SQLSTATE " + d.sqlstate + ": " + d.message;
  }
  return out;
}

std::string first_sqlstate(const std::vector<diagnostic>& records) {
  return records.empty() ? std::string() : records.front().sqlstate;
}

bool connection_failed(const std::vector<diagnostic>& records) {
  for (const diagnostic& d : records) {
    // Class 08, the driver manager's connection timeout, and PostgreSQL's operator intervention
    // (57P01 terminated by an administrator, 57P02 crash, 57P03 not accepting connections).
    if (d.sqlstate.rfind("08", 0) == 0 || d.sqlstate == "HYT01" || d.sqlstate.rfind("57P0", 0) == 0)
      return true;
  }
  return false;
}

}  // namespace sqlmorph::odbc
