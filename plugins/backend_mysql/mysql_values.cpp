#include "mysql_values.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>

#include <sqlmorph/number_text.hpp>

namespace sqlmorph::mysql {
namespace {

// The binary collation's number: a string column with it holds bytes, not text.
constexpr unsigned binary_charset = 63;

bool is_binary(const MYSQL_FIELD& f) {
  return f.charsetnr == binary_charset;
}

bool is_text_or_bytes(enum_field_types t) {
  switch (t) {
    case MYSQL_TYPE_VARCHAR:
    case MYSQL_TYPE_VAR_STRING:
    case MYSQL_TYPE_STRING:
    case MYSQL_TYPE_TINY_BLOB:
    case MYSQL_TYPE_MEDIUM_BLOB:
    case MYSQL_TYPE_LONG_BLOB:
    case MYSQL_TYPE_BLOB:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string type_name(const MYSQL_FIELD& f) {
  const bool is_unsigned = (f.flags & UNSIGNED_FLAG) != 0;
  std::string name;
  switch (f.type) {
    case MYSQL_TYPE_TINY:
      name = f.length == 1 ? "BOOLEAN" : "TINYINT";
      break;
    case MYSQL_TYPE_SHORT:
      name = "SMALLINT";
      break;
    case MYSQL_TYPE_INT24:
      name = "MEDIUMINT";
      break;
    case MYSQL_TYPE_LONG:
      name = "INT";
      break;
    case MYSQL_TYPE_LONGLONG:
      name = "BIGINT";
      break;
    case MYSQL_TYPE_YEAR:
      return "YEAR";
    case MYSQL_TYPE_DECIMAL:
    case MYSQL_TYPE_NEWDECIMAL:
      name = "DECIMAL";
      break;
    case MYSQL_TYPE_FLOAT:
      name = "FLOAT";
      break;
    case MYSQL_TYPE_DOUBLE:
      name = "DOUBLE";
      break;
    case MYSQL_TYPE_BIT:
      return "BIT";
    case MYSQL_TYPE_DATE:
    case MYSQL_TYPE_NEWDATE:
      return "DATE";
    case MYSQL_TYPE_DATETIME:
    case MYSQL_TYPE_DATETIME2:
      return "DATETIME";
    case MYSQL_TYPE_TIMESTAMP:
    case MYSQL_TYPE_TIMESTAMP2:
      return "TIMESTAMP";
    case MYSQL_TYPE_TIME:
    case MYSQL_TYPE_TIME2:
      return "TIME";
    case MYSQL_TYPE_JSON:
      return "JSON";
    case MYSQL_TYPE_ENUM:
      return "ENUM";
    case MYSQL_TYPE_SET:
      return "SET";
    case MYSQL_TYPE_GEOMETRY:
      return "GEOMETRY";
    case MYSQL_TYPE_NULL:
      return "NULL";
    case MYSQL_TYPE_VARCHAR:
    case MYSQL_TYPE_VAR_STRING:
      return is_binary(f) ? "VARBINARY" : "VARCHAR";
    case MYSQL_TYPE_STRING:
      if ((f.flags & ENUM_FLAG) != 0) return "ENUM";
      if ((f.flags & SET_FLAG) != 0) return "SET";
      return is_binary(f) ? "BINARY" : "CHAR";
    case MYSQL_TYPE_TINY_BLOB:
    case MYSQL_TYPE_MEDIUM_BLOB:
    case MYSQL_TYPE_LONG_BLOB:
    case MYSQL_TYPE_BLOB:
      return is_binary(f) ? "BLOB" : "TEXT";
    default:
      return "UNKNOWN";
  }
  return is_unsigned ? name + " UNSIGNED" : name;
}

bool append_cell(row_sink& rows, const MYSQL_FIELD& f, std::string_view text) {
  // A text that does not parse as its type (it never should) is kept as text: data is never
  // dropped or invented.
  switch (f.type) {
    case MYSQL_TYPE_TINY:
    case MYSQL_TYPE_SHORT:
    case MYSQL_TYPE_INT24:
    case MYSQL_TYPE_LONG:
    case MYSQL_TYPE_LONGLONG:
    case MYSQL_TYPE_YEAR: {
      std::int64_t i = 0;
      if (parse_int64(text, i)) {
        rows.integer(i);
        return true;
      }
      // BIGINT UNSIGNED above 2^63-1: the nearest double, as a numeric beyond int64.
      if (const std::optional<double> d = parse_double(text)) {
        rows.real(*d);
        return true;
      }
      return rows.text(text);
    }
    case MYSQL_TYPE_DECIMAL:
    case MYSQL_TYPE_NEWDECIMAL: {
      // Exact when integral and within int64 (`12.00` is 12); otherwise the nearest double.
      std::int64_t i = 0;
      if (parse_integral_decimal(text, i)) {
        rows.integer(i);
        return true;
      }
      if (const std::optional<double> d = parse_double(text)) {
        rows.real(*d);
        return true;
      }
      return rows.text(text);
    }
    case MYSQL_TYPE_FLOAT:
    case MYSQL_TYPE_DOUBLE: {
      if (const std::optional<double> d = parse_double(text)) {
        rows.real(*d);
        return true;
      }
      return rows.text(text);
    }
    case MYSQL_TYPE_BIT: {
      // The text protocol sends BIT(n) as its bytes, most significant first.
      if (text.size() <= 8) {
        std::uint64_t v = 0;
        for (const char c : text) v = (v << 8) | static_cast<unsigned char>(c);
        if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          rows.integer(static_cast<std::int64_t>(v));
          return true;
        }
      }
      return rows.blob(text);
    }
    case MYSQL_TYPE_GEOMETRY:
      return rows.blob(text);
    default:
      if (is_text_or_bytes(f.type) && is_binary(f)) return rows.blob(text);
      // Character types, temporal types as the server prints them (YYYY-MM-DD hh:mm:ss[.ffffff]),
      // JSON, ENUM, SET: text.
      return rows.text(text);
  }
}

}  // namespace sqlmorph::mysql
