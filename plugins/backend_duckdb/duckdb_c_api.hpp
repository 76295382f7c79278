#pragma once
// The part of DuckDB's C API this backend uses, declared from DuckDB's C API documentation
// (duckdb.org/docs/stable/clients/c): the library is loaded at run time (duckdb_library.hpp), so no
// DuckDB header is needed to build. Only what is used is declared; the layouts below are the C
// API's, which DuckDB keeps stable across 1.x releases.

#include <cstdint>

namespace sqlmorph::duckdb_api {

using idx_t = std::uint64_t;

// Opaque handles: DuckDB's are pointers to structs holding one internal pointer.
struct opaque;
using database = opaque*;
using connection = opaque*;
using config = opaque*;
using prepared_statement = opaque*;
using pending_result = opaque*;
using data_chunk = opaque*;
using vector = opaque*;
using logical_type = opaque*;

enum state : int { success = 0, failure = 1 };

enum pending_state : int {
  pending_ready = 0,
  pending_not_ready = 1,
  pending_error = 2,
  pending_no_tasks = 3
};

/// duckdb_result: filled by the library, destroyed with destroy_result. Only internal_data matters;
/// the leading fields are deprecated but part of the layout.
struct query_result {
  idx_t deprecated_column_count;
  idx_t deprecated_row_count;
  idx_t deprecated_rows_changed;
  void* deprecated_columns;
  char* deprecated_error_message;
  void* internal_data;
};

/// DUCKDB_TYPE.
enum type_id : int {
  type_invalid = 0,
  type_boolean = 1,
  type_tinyint = 2,
  type_smallint = 3,
  type_integer = 4,
  type_bigint = 5,
  type_utinyint = 6,
  type_usmallint = 7,
  type_uinteger = 8,
  type_ubigint = 9,
  type_float = 10,
  type_double = 11,
  type_timestamp = 12,
  type_date = 13,
  type_time = 14,
  type_interval = 15,
  type_hugeint = 16,
  type_varchar = 17,
  type_blob = 18,
  type_decimal = 19,
  type_timestamp_s = 20,
  type_timestamp_ms = 21,
  type_timestamp_ns = 22,
  type_enum = 23,
  type_list = 24,
  type_struct = 25,
  type_map = 26,
  type_uuid = 27,
  type_union = 28,
  type_bit = 29,
  type_time_tz = 30,
  type_timestamp_tz = 31,
  type_uhugeint = 32,
  type_array = 33,
  type_any = 34,
  type_bignum = 35,
  type_sqlnull = 36,
};

/// duckdb_statement_type: only SELECT is let through.
constexpr int statement_type_select = 1;

/// A 128-bit integer: upper * 2^64 + lower (HUGEINT, UUID, wide DECIMAL).
struct hugeint {
  std::uint64_t lower;
  std::int64_t upper;
};
struct uhugeint {
  std::uint64_t lower;
  std::uint64_t upper;
};
struct interval {
  std::int32_t months;
  std::int32_t days;
  std::int64_t micros;
};
struct list_entry {
  std::uint64_t offset;
  std::uint64_t length;
};
/// duckdb_string_t (VARCHAR, BLOB, BIT cells): 16 bytes, the length first; up to 12 bytes inline
/// after it, else a 4-byte prefix and a pointer to the bytes.
struct string_t {
  std::uint32_t length;
  char prefix_or_inline[4];
  union {
    char inlined_rest[8];
    const char* ptr;
  } rest;
};
static_assert(sizeof(string_t) == 16);
static_assert(sizeof(query_result) == 48);

/// The functions, resolved by name from the loaded library.
struct functions {
  const char* (*library_version)();
  state (*create_config)(config*);
  state (*set_config)(config, const char*, const char*);
  void (*destroy_config)(config*);
  state (*open_ext)(const char*, database*, config, char**);
  void (*close)(database*);
  state (*connect)(database, connection*);
  void (*disconnect)(connection*);
  void (*interrupt)(connection);
  void (*free)(void*);

  state (*prepare)(connection, const char*, prepared_statement*);
  const char* (*prepare_error)(prepared_statement);
  void (*destroy_prepare)(prepared_statement*);
  int (*prepared_statement_type)(prepared_statement);
  state (*pending_prepared_streaming)(prepared_statement, pending_result*);
  const char* (*pending_error)(pending_result);
  void (*destroy_pending)(pending_result*);
  state (*execute_pending)(pending_result, query_result*);

  /// Runs statements, the result materialized (the tests use it to write their databases).
  state (*query)(connection, const char*, query_result*);
  void (*destroy_result)(query_result*);
  const char* (*result_error)(query_result*);
  idx_t (*column_count)(query_result*);
  const char* (*column_name)(query_result*, idx_t);
  logical_type (*column_logical_type)(query_result*, idx_t);
  data_chunk (*fetch_chunk)(query_result);

  idx_t (*data_chunk_get_size)(data_chunk);
  vector (*data_chunk_get_vector)(data_chunk, idx_t);
  void (*destroy_data_chunk)(data_chunk*);
  void* (*vector_get_data)(vector);
  std::uint64_t* (*vector_get_validity)(vector);
  bool (*validity_row_is_valid)(std::uint64_t*, idx_t);
  vector (*list_vector_get_child)(vector);
  vector (*array_vector_get_child)(vector);
  vector (*struct_vector_get_child)(vector, idx_t);

  type_id (*get_type_id)(logical_type);
  void (*destroy_logical_type)(logical_type*);
  std::uint8_t (*decimal_width)(logical_type);
  std::uint8_t (*decimal_scale)(logical_type);
  type_id (*decimal_internal_type)(logical_type);
  type_id (*enum_internal_type)(logical_type);
  std::uint32_t (*enum_dictionary_size)(logical_type);
  char* (*enum_dictionary_value)(logical_type, idx_t);
  logical_type (*list_type_child_type)(logical_type);
  logical_type (*array_type_child_type)(logical_type);
  idx_t (*array_type_array_size)(logical_type);
  logical_type (*map_type_key_type)(logical_type);
  logical_type (*map_type_value_type)(logical_type);
  idx_t (*struct_type_child_count)(logical_type);
  char* (*struct_type_child_name)(logical_type, idx_t);
  logical_type (*struct_type_child_type)(logical_type, idx_t);
  char* (*logical_type_get_alias)(logical_type);
};

}  // namespace sqlmorph::duckdb_api
