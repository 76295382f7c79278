#pragma once
// ODBC column types to sqlmorph values: how each column's cells are fetched (the C type asked of
// SQLGetData) and how the bytes become a value. The mapping table is in README.md.

#include <sql.h>
#include <sqlext.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <sqlmorph/result.hpp>

#include "driver_profile.hpp"

namespace sqlmorph::odbc {

enum class cell_reading : std::uint8_t {
  integer,      ///< text -> integer (real beyond int64, text when not a number)
  bit,          ///< "1"/"0" (or true/false) -> integer 1/0
  decimal,      ///< text -> integer when integral and within int64, otherwise the nearest real
  real,         ///< text -> real ("NaN", "Infinity" included; text when not a number, e.g. money)
  text,         ///< SQL_C_CHAR bytes as they come -> text
  wide_text,    ///< SQL_C_WCHAR (UTF-16) -> UTF-8 text
  binary,       ///< SQL_C_BINARY -> blob
  sqlite_text,  ///< SQLite ODBC driver, TEXT affinity: text, except the driver's X'..' form of a blob
  sqlite_any,   ///< SQLite ODBC driver, other affinities and expressions: the value's own kind,
                ///< read back from the driver's text (X'..' blob, SQLite's number forms, else text)
};

/// What one result column is, as SQLDescribeCol and SQLColAttribute describe it.
struct column_description {
  SQLSMALLINT sql_type = SQL_UNKNOWN_TYPE;
  std::string type_name;  ///< SQL_DESC_TYPE_NAME ("INTEGER", "int4", ...)
  SQLLEN precision = 0;   ///< SQL_DESC_PRECISION
};

/// How cells of a column are read, for a driver family (the SQLite ODBC driver's cells are read
/// by SQLite's rules, whatever SQL type it reports).
cell_reading reading_for(driver_family family, const column_description& column);

/// The type reported in result::column_types(): the driver's type name, except "" where the SQLite
/// ODBC driver has no declared type (as the native SQLite backend reports it).
std::string reported_type(driver_family family, const column_description& column);

/// The C type to ask SQLGetData for.
SQLSMALLINT c_type_of(cell_reading r) noexcept;

/// How many raw bytes of a cell may be read while `payload_left` bytes remain under the byte cap:
/// a cell with more raw bytes is over the cap for sure, so reading it can stop there.
std::size_t raw_limit(cell_reading r, std::uint64_t payload_left) noexcept;

/// Appends one non-NULL cell given as the raw bytes SQLGetData returned for c_type_of(r). Returns
/// the payload bytes added (text and blob bytes; 0 for numbers), which is what the byte cap counts.
/// `scratch` is reused between calls.
std::size_t append_cell(result& out, cell_reading r, std::string_view raw, std::string& scratch);

}  // namespace sqlmorph::odbc
