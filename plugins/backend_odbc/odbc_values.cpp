#include "odbc_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>

#include <sqlmorph/number_text.hpp>
#include <sqlmorph/sql_lexer.hpp>
#include <sqlmorph/unicode.hpp>

namespace sqlmorph::odbc {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// SQLite's text of an INTEGER value: -?(0|[1-9][0-9]*), never "-0".
bool sqlite_integer_form(std::string_view s) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  if (s.empty() || !std::all_of(s.begin(), s.end(), is_digit)) return false;
  return s == "0" ? true : s.front() != '0';
}

// SQLite's text of a REAL value ("%!.15g"): 1.5, 3.0, 0.0001, 1.0e-05, 1.23456789012346e+20, Inf.
bool sqlite_real_form(std::string_view s) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  if (s == "Inf") return true;
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  const std::string_view whole = s.substr(0, dot);
  if (!std::all_of(whole.begin(), whole.end(), is_digit) || (whole.size() > 1 && whole.front() == '0'))
    return false;
  std::string_view fraction = s.substr(dot + 1);
  const std::size_t e = fraction.find('e');
  std::string_view exponent;
  if (e != std::string_view::npos) {
    exponent = fraction.substr(e + 1);
    fraction = fraction.substr(0, e);
    if (whole.size() != 1 || whole == "0") return false;  // 1.5e+20, never 15.0e+19 or 0.1e-3
    if (exponent.size() < 3 || (exponent[0] != '+' && exponent[0] != '-') ||
        !std::all_of(exponent.begin() + 1, exponent.end(), is_digit)) {
      return false;
    }
  }
  if (fraction.empty() || !std::all_of(fraction.begin(), fraction.end(), is_digit)) return false;
  return fraction == "0" || fraction.back() != '0';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The SQLite ODBC driver renders a blob as X'00FF' (upper-case hex) in its text; decodes it.
bool sqlite_blob_form(std::string_view s, std::string& bytes) {
  if (s.size() < 3 || s[0] != 'X' || s[1] != '\'' || s.back() != '\'' || (s.size() - 3) % 2 != 0)
    return false;
  const std::string_view hex = s.substr(2, s.size() - 3);
  bytes.clear();
  bytes.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]);
    const int lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes += static_cast<char>(hi * 16 + lo);
  }
  return true;
}

// SQLite's type affinity of a declared type (https://www.sqlite.org/datatype3.html, 3.1).
enum class affinity { integer, text, blob, real, numeric };
affinity sqlite_affinity(std::string_view declared) {
  std::string upper(declared);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto has = [&](const char* s) { return upper.find(s) != std::string::npos; };
  if (has("INT")) return affinity::integer;
  if (has("CHAR") || has("CLOB") || has("TEXT")) return affinity::text;
  if (has("BLOB") || upper.empty()) return affinity::blob;
  if (has("REAL") || has("FLOA") || has("DOUB")) return affinity::real;
  return affinity::numeric;
}

// The SQLite ODBC driver reports "varchar" without a precision where SQLite has no declared type
// (expressions, untyped columns); a declared varchar(n) has precision n.
bool sqlite_undeclared(const column_description& column) {
  return column.type_name == "varchar" && column.precision == 0;
}

std::size_t append_text(result& out, std::string_view bytes) {
  out.append_text(bytes);
  return bytes.size();
}

std::size_t append_blob(result& out, std::string_view bytes) {
  out.append_blob(bytes);
  return bytes.size();
}

std::size_t append_decimal(result& out, std::string_view raw) {
  std::int64_t i = 0;
  if (parse_integral_decimal(raw, i)) {
    out.append_integer(i);
    return 0;
  }
  if (const std::optional<double> d = parse_double(raw)) {
    out.append_real(*d);
    return 0;
  }
  return append_text(out, raw);
}

std::size_t append_utf16_as_utf8(result& out, std::string_view raw, std::string& scratch) {
  scratch.clear();
  const std::size_t units = raw.size() / sizeof(SQLWCHAR);
  for (std::size_t i = 0; i < units; ++i) {
    SQLWCHAR u = 0;
    std::memcpy(&u, raw.data() + i * sizeof(SQLWCHAR), sizeof u);
    std::uint32_t cp = u;
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < units) {
      SQLWCHAR low = 0;
      std::memcpy(&low, raw.data() + (i + 1) * sizeof(SQLWCHAR), sizeof low);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<std::uint32_t>(low) - 0xDC00);
        ++i;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;  // a lone surrogate
    append_utf8(scratch, cp);
  }
  return append_text(out, scratch);
}

}  // namespace

cell_reading reading_for(driver_family family, const column_description& column) {
  if (family == driver_family::sqlite) {
    // The driver keeps every cell as SQLite's text of the value and reports SQL types from the
    // declared type: read the value's own kind back, as SQLite's affinity rules allow.
    if (!sqlite_undeclared(column) && sqlite_affinity(column.type_name) == affinity::text) {
      return cell_reading::sqlite_text;
    }
    return cell_reading::sqlite_any;
  }
  switch (column.sql_type) {
    case SQL_TINYINT:
    case SQL_SMALLINT:
    case SQL_INTEGER:
    case SQL_BIGINT:
      return cell_reading::integer;
    case SQL_BIT:
      return cell_reading::bit;
    case SQL_NUMERIC:
    case SQL_DECIMAL:
      return cell_reading::decimal;
    case SQL_REAL:
    case SQL_FLOAT:
    case SQL_DOUBLE:
      return cell_reading::real;
    case SQL_WCHAR:
    case SQL_WVARCHAR:
    case SQL_WLONGVARCHAR:
      return cell_reading::wide_text;
    case SQL_BINARY:
    case SQL_VARBINARY:
    case SQL_LONGVARBINARY:
      return cell_reading::binary;
    default:
      // Character types, dates and times (ISO text as the driver writes it), intervals, GUIDs and
      // whatever else a driver invents.
      return cell_reading::text;
  }
}

std::string reported_type(driver_family family, const column_description& column) {
  if (family == driver_family::sqlite && sqlite_undeclared(column)) return "";
  return column.type_name;
}

SQLSMALLINT c_type_of(cell_reading r) noexcept {
  switch (r) {
    case cell_reading::wide_text:
      return SQL_C_WCHAR;
    case cell_reading::binary:
      return SQL_C_BINARY;
    default:
      return SQL_C_CHAR;
  }
}

std::size_t raw_limit(cell_reading r, std::uint64_t payload_left) noexcept {
  const std::uint64_t left = std::min<std::uint64_t>(payload_left, std::uint64_t{1} << 60);
  switch (r) {
    case cell_reading::text:
    case cell_reading::binary:
      return static_cast<std::size_t>(left);  // one payload byte per raw byte
    case cell_reading::wide_text:
      return static_cast<std::size_t>(2 * left + 1);  // UTF-16: each unit is at least one UTF-8 byte
    case cell_reading::sqlite_text:
    case cell_reading::sqlite_any:
      // Hex-rendered blobs take two raw bytes per byte; SQLite's numbers (no payload) fit in 64.
      return static_cast<std::size_t>(std::max<std::uint64_t>(2 * left + 3, 64));
    default:
      return std::numeric_limits<std::size_t>::max();  // numbers: short, and no payload
  }
}

std::size_t append_cell(result& out, cell_reading r, std::string_view raw, std::string& scratch) {
  std::int64_t i = 0;
  switch (r) {
    case cell_reading::integer:
      if (parse_int64(raw, i)) {
        out.append_integer(i);
        return 0;
      }
      return append_decimal(out, raw);  // e.g. an unsigned BIGINT beyond int64
    case cell_reading::bit:
      if (raw == "1" || iequals_ascii(raw, "t") || iequals_ascii(raw, "true")) {
        out.append_integer(1);
        return 0;
      }
      if (raw == "0" || iequals_ascii(raw, "f") || iequals_ascii(raw, "false")) {
        out.append_integer(0);
        return 0;
      }
      return append_decimal(out, raw);
    case cell_reading::decimal:
      return append_decimal(out, raw);
    case cell_reading::real:
      if (const std::optional<double> d = parse_double(raw)) {
        out.append_real(*d);
        return 0;
      }
      return append_text(out, raw);
    case cell_reading::text:
      return append_text(out, raw);
    case cell_reading::wide_text:
      return append_utf16_as_utf8(out, raw, scratch);
    case cell_reading::binary:
      return append_blob(out, raw);
    case cell_reading::sqlite_text:
      if (sqlite_blob_form(raw, scratch)) return append_blob(out, scratch);
      return append_text(out, raw);
    case cell_reading::sqlite_any:
      if (sqlite_blob_form(raw, scratch)) return append_blob(out, scratch);
      if (sqlite_integer_form(raw) && parse_int64(raw, i)) {
        out.append_integer(i);
        return 0;
      }
      if (sqlite_real_form(raw)) {
        if (const std::optional<double> d = parse_double(raw)) {
          out.append_real(*d);
          return 0;
        }
      }
      return append_text(out, raw);
  }
  return append_text(out, raw);
}

}  // namespace sqlmorph::odbc
