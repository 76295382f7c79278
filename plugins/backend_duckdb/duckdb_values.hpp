#pragma once
// DuckDB's result vectors to sqlmorph values (the mapping table is in README.md): numbers as
// integers or reals, text and blobs as themselves, temporal values and UUIDs as ISO text, LIST,
// ARRAY, STRUCT and MAP as JSON text.

#include <string>
#include <vector>

#include <sqlmorph/row_sink.hpp>

#include "duckdb_c_api.hpp"

namespace sqlmorph::duckdb_backend {

/// A column's type, read once per result from its logical type.
struct column_type {
  duckdb_api::type_id id = duckdb_api::type_invalid;
  /// How DECIMAL and ENUM values are stored (an integer type).
  duckdb_api::type_id storage = duckdb_api::type_invalid;
  /// DuckDB's name of the type ("INTEGER", "DECIMAL(10,2)", "VARCHAR[]", "STRUCT(a INTEGER)", ...),
  /// or its alias ("JSON", a user type's name).
  std::string name;
  /// Not empty when this type, or a type inside it, is one the backend does not read (BIT, UNION,
  /// TIME WITH TIME ZONE, BIGNUM, ...): its name.
  std::string unsupported;
  int scale = 0;                         // DECIMAL
  duckdb_api::idx_t array_size = 0;      // ARRAY
  std::vector<std::string> enum_values;  // ENUM's dictionary
  std::vector<std::string> field_names;  // STRUCT
  std::vector<column_type> children;     // LIST, ARRAY: the element; MAP: key, value; STRUCT: fields
};

/// Reads `t` (which stays owned by the caller).
column_type describe_type(const duckdb_api::functions& f, duckdb_api::logical_type t);

/// Appends the cell of `row` in vector `v` (of type `t`, which must be supported) to `sink`. False
/// when the sink refused it (a cap): the row is dropped and fetching must stop.
bool append_cell(const duckdb_api::functions& f, const column_type& t, duckdb_api::vector v,
                 duckdb_api::idx_t row, row_sink& sink, std::string& scratch);

// The text forms, exposed for the tests.
/// Days since 1970-01-01 as "YYYY-MM-DD" (years before 1 as "YYYY-MM-DD (BC)", as DuckDB prints them).
std::string date_text(std::int64_t days);
/// Microseconds since midnight as "HH:MM:SS[.ffffff]" (trailing zeros of the fraction dropped).
std::string time_text(std::int64_t micros);
/// An ISO 8601 duration: "P1Y2M3DT4H5M6.5S", "PT0S" for zero.
std::string interval_text(const duckdb_api::interval& i);

}  // namespace sqlmorph::duckdb_backend
