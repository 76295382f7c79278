#include "duckdb_values.hpp"

#include <charconv>
#include <cstring>
#include <limits>

#include <sqlmorph/number_text.hpp>

namespace sqlmorph::duckdb_backend {
namespace {

using namespace duckdb_api;
using int128 = __int128;
using uint128 = unsigned __int128;

template <typename T>
T at(const void* data, idx_t row) {
  T v;
  std::memcpy(&v, static_cast<const char*>(data) + row * sizeof(T), sizeof(T));
  return v;
}

std::string u128_text(uint128 v) {
  if (v == 0) return "0";
  char buf[40];
  char* p = buf + sizeof buf;
  while (v != 0) {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return std::string(p, static_cast<std::size_t>(buf + sizeof buf - p));
}

std::string i128_text(int128 v) {
  if (v >= 0) return u128_text(static_cast<uint128>(v));
  return "-" + u128_text(static_cast<uint128>(-(v + 1)) + 1);
}

bool fits_int64(int128 v) {
  return v >= std::numeric_limits<std::int64_t>::min() && v <= std::numeric_limits<std::int64_t>::max();
}

// The shortest text that reads back as `v` (as DuckDB and PostgreSQL print floats).
template <typename F>
std::string float_text(F v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string two(std::int64_t v) {
  return std::string(1, static_cast<char>('0' + v / 10)) + static_cast<char>('0' + v % 10);
}

// Days since 1970-01-01 to a proleptic Gregorian date (the classic era-based algorithm).
void civil_from_days(std::int64_t z, std::int64_t& y, int& m, int& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = yoe + era * 400;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  if (m <= 2) ++y;
}

std::string fraction(std::int64_t units, int digits) {
  if (units == 0) return "";
  std::string f(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, units /= 10)
    f[static_cast<std::size_t>(i)] = static_cast<char>('0' + units % 10);
  while (!f.empty() && f.back() == '0') f.pop_back();
  return "." + f;
}

// A timestamp of `units` per second since the epoch.
std::string timestamp_text(std::int64_t value, std::int64_t per_second, int digits, bool with_zone) {
  if (value == std::numeric_limits<std::int64_t>::max()) return "infinity";
  if (value == -std::numeric_limits<std::int64_t>::max()) return "-infinity";
  const std::int64_t per_day = per_second * 86400;
  std::int64_t days = value / per_day;
  std::int64_t rest = value % per_day;
  if (rest < 0) {
    rest += per_day;
    --days;
  }
  const std::int64_t seconds = rest / per_second;
  std::string date = date_text(days);
  std::string bc;
  if (const auto at_bc = date.find(" (BC)"); at_bc != std::string::npos) {
    bc = " (BC)";
    date.resize(at_bc);
  }
  return date + " " + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) +
         fraction(rest % per_second, digits) + (with_zone ? "+00" : "") + bc;
}

std::string uuid_text(const hugeint& h) {
  static constexpr char hex[] = "0123456789abcdef";
  const std::uint64_t upper = static_cast<std::uint64_t>(h.upper) ^ (std::uint64_t{1} << 63);
  std::string out;
  for (int i = 0; i < 32; ++i) {
    const std::uint64_t word = i < 16 ? upper : h.lower;
    const int shift = 60 - 4 * (i % 16);
    out += hex[(word >> shift) & 0xf];
    if (i == 7 || i == 11 || i == 15 || i == 19) out += '-';
  }
  return out;
}

std::string_view string_at(const void* data, idx_t row) {
  const auto* s = static_cast<const string_t*>(data) + row;
  // Up to 12 bytes inline, right after the length; longer ones behind the pointer.
  if (s->length <= 12) return {reinterpret_cast<const char*>(s) + sizeof(std::uint32_t), s->length};
  return {s->rest.ptr, s->length};
}

int128 integer_at(type_id storage, const void* data, idx_t row) {
  switch (storage) {
    case type_smallint:
      return at<std::int16_t>(data, row);
    case type_integer:
      return at<std::int32_t>(data, row);
    case type_bigint:
      return at<std::int64_t>(data, row);
    case type_hugeint: {
      const auto h = at<hugeint>(data, row);
      return static_cast<int128>((static_cast<uint128>(static_cast<std::uint64_t>(h.upper)) << 64) | h.lower);
    }
    case type_utinyint:
      return at<std::uint8_t>(data, row);
    case type_usmallint:
      return at<std::uint16_t>(data, row);
    case type_uinteger:
      return at<std::uint32_t>(data, row);
    default:
      return 0;
  }
}

std::string decimal_text(int128 raw, int scale) {
  std::string digits = i128_text(raw < 0 ? -raw : raw);
  if (scale > 0) {
    if (digits.size() <= static_cast<std::size_t>(scale))
      digits.insert(0, static_cast<std::size_t>(scale) + 1 - digits.size(), '0');
    digits.insert(digits.size() - static_cast<std::size_t>(scale), ".");
  }
  return raw < 0 ? "-" + digits : digits;
}

// The text of a scalar that is not a number (temporal values, UUID, strings, enums): what a cell
// holds as text and, quoted, what JSON holds.
std::string scalar_text(const column_type& t, const void* data, idx_t row) {
  switch (t.id) {
    case type_date: {
      const std::int32_t d = at<std::int32_t>(data, row);
      if (d == std::numeric_limits<std::int32_t>::max()) return "infinity";
      if (d == -std::numeric_limits<std::int32_t>::max()) return "-infinity";
      return date_text(d);
    }
    case type_time:
      return time_text(at<std::int64_t>(data, row));
    case type_timestamp:
      return timestamp_text(at<std::int64_t>(data, row), 1'000'000, 6, false);
    case type_timestamp_tz:
      return timestamp_text(at<std::int64_t>(data, row), 1'000'000, 6, true);
    case type_timestamp_s:
      return timestamp_text(at<std::int64_t>(data, row), 1, 0, false);
    case type_timestamp_ms:
      return timestamp_text(at<std::int64_t>(data, row), 1'000, 3, false);
    case type_timestamp_ns:
      return timestamp_text(at<std::int64_t>(data, row), 1'000'000'000, 9, false);
    case type_interval:
      return interval_text(at<interval>(data, row));
    case type_uuid:
      return uuid_text(at<hugeint>(data, row));
    case type_varchar:
    case type_blob:
      return std::string(string_at(data, row));
    case type_enum: {
      const auto i = static_cast<std::size_t>(integer_at(t.storage, data, row));
      return i < t.enum_values.size() ? t.enum_values[i] : std::string();
    }
    default:
      return std::string();
  }
}

void json_string(std::string_view s, std::string& out) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    } else {
      out += ch;
    }
  }
  out += '"';
}

// A blob inside JSON: DuckDB's text of a blob (printable ASCII as itself, other bytes as \xAB).
std::string blob_text(std::string_view b) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : b) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'' && c != '"') {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  return out;
}

bool is_valid(const functions& f, vector v, idx_t row) {
  std::uint64_t* validity = f.vector_get_validity(v);
  return validity == nullptr || f.validity_row_is_valid(validity, row);
}

void append_json(const functions& f, const column_type& t, vector v, idx_t row, std::string& out) {
  if (!is_valid(f, v, row)) {
    out += "null";
    return;
  }
  const void* data = f.vector_get_data(v);
  switch (t.id) {
    case type_boolean:
      out += at<std::uint8_t>(data, row) != 0 ? "true" : "false";
      return;
    case type_tinyint:
      out += std::to_string(at<std::int8_t>(data, row));
      return;
    case type_smallint:
    case type_integer:
    case type_bigint:
    case type_hugeint:
    case type_utinyint:
    case type_usmallint:
    case type_uinteger:
      out += i128_text(integer_at(t.id, data, row));
      return;
    case type_ubigint:
      out += std::to_string(at<std::uint64_t>(data, row));
      return;
    case type_uhugeint: {
      const auto h = at<uhugeint>(data, row);
      out += u128_text((static_cast<uint128>(h.upper) << 64) | h.lower);
      return;
    }
    case type_float:
    case type_double: {
      const double d = t.id == type_float ? at<float>(data, row) : at<double>(data, row);
      if (d != d || d == std::numeric_limits<double>::infinity() ||
          d == -std::numeric_limits<double>::infinity()) {
        json_string(d != d ? "nan" : d > 0 ? "inf" : "-inf", out);
      } else {
        out += t.id == type_float ? float_text(at<float>(data, row)) : float_text(d);
      }
      return;
    }
    case type_decimal:
      out += decimal_text(integer_at(t.storage, data, row), t.scale);
      return;
    case type_blob:
      json_string(blob_text(string_at(data, row)), out);
      return;
    case type_sqlnull:
      out += "null";
      return;
    case type_list:
    case type_array:
    case type_map: {
      idx_t offset = 0;
      idx_t length = 0;
      vector child = nullptr;
      if (t.id == type_array) {
        offset = row * t.array_size;
        length = t.array_size;
        child = f.array_vector_get_child(v);
      } else {
        const auto e = at<list_entry>(data, row);
        offset = e.offset;
        length = e.length;
        child = f.list_vector_get_child(v);
      }
      if (t.id == type_map) {
        vector keys = f.struct_vector_get_child(child, 0);
        vector values = f.struct_vector_get_child(child, 1);
        out += '{';
        for (idx_t i = 0; i < length; ++i) {
          if (i > 0) out += ", ";
          std::string key;
          append_json(f, t.children[0], keys, offset + i, key);
          if (key.empty() || key.front() != '"') {
            json_string(key, out);
          } else {
            out += key;
          }
          out += ": ";
          append_json(f, t.children[1], values, offset + i, out);
        }
        out += '}';
        return;
      }
      out += '[';
      for (idx_t i = 0; i < length; ++i) {
        if (i > 0) out += ", ";
        append_json(f, t.children[0], child, offset + i, out);
      }
      out += ']';
      return;
    }
    case type_struct:
      out += '{';
      for (std::size_t i = 0; i < t.children.size(); ++i) {
        if (i > 0) out += ", ";
        json_string(t.field_names[i], out);
        out += ": ";
        append_json(f, t.children[i], f.struct_vector_get_child(v, i), row, out);
      }
      out += '}';
      return;
    default:
      json_string(scalar_text(t, data, row), out);
      return;
  }
}

std::string take_string(const functions& f, char* s) {
  if (s == nullptr) return {};
  std::string out(s);
  f.free(s);
  return out;
}

bool plain_identifier(const std::string& s) {
  if (s.empty() || !(std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (const char c : s)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '_'))
      return false;
  return true;
}

const char* simple_name(type_id id) {
  switch (id) {
    case type_boolean:
      return "BOOLEAN";
    case type_tinyint:
      return "TINYINT";
    case type_smallint:
      return "SMALLINT";
    case type_integer:
      return "INTEGER";
    case type_bigint:
      return "BIGINT";
    case type_utinyint:
      return "UTINYINT";
    case type_usmallint:
      return "USMALLINT";
    case type_uinteger:
      return "UINTEGER";
    case type_ubigint:
      return "UBIGINT";
    case type_hugeint:
      return "HUGEINT";
    case type_uhugeint:
      return "UHUGEINT";
    case type_float:
      return "FLOAT";
    case type_double:
      return "DOUBLE";
    case type_varchar:
      return "VARCHAR";
    case type_blob:
      return "BLOB";
    case type_date:
      return "DATE";
    case type_time:
      return "TIME";
    case type_timestamp:
      return "TIMESTAMP";
    case type_timestamp_s:
      return "TIMESTAMP_S";
    case type_timestamp_ms:
      return "TIMESTAMP_MS";
    case type_timestamp_ns:
      return "TIMESTAMP_NS";
    case type_timestamp_tz:
      return "TIMESTAMP WITH TIME ZONE";
    case type_interval:
      return "INTERVAL";
    case type_uuid:
      return "UUID";
    case type_sqlnull:
      return "\"NULL\"";
    // Not read by this backend (named in its refusal).
    case type_bit:
      return "BIT";
    case type_union:
      return "UNION";
    case type_time_tz:
      return "TIME WITH TIME ZONE";
    case type_bignum:
      return "BIGNUM";
    default:
      return nullptr;
  }
}

}  // namespace

std::string date_text(std::int64_t days) {
  std::int64_t y = 0;
  int m = 0;
  int d = 0;
  civil_from_days(days, y, m, d);
  const bool bc = y <= 0;
  std::string year = std::to_string(bc ? 1 - y : y);
  if (year.size() < 4) year.insert(0, 4 - year.size(), '0');
  return year + "-" + two(m) + "-" + two(d) + (bc ? " (BC)" : "");
}

std::string time_text(std::int64_t micros) {
  const std::int64_t seconds = micros / 1'000'000;
  return two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) +
         fraction(micros % 1'000'000, 6);
}

std::string interval_text(const interval& i) {
  std::string out = "P";
  if (i.months / 12 != 0) out += std::to_string(i.months / 12) + "Y";
  if (i.months % 12 != 0) out += std::to_string(i.months % 12) + "M";
  if (i.days != 0) out += std::to_string(i.days) + "D";
  if (i.micros != 0) {
    out += "T";
    const bool negative = i.micros < 0;
    // The magnitude, split, each part signed (ISO 8601 has no negative durations; this is the
    // common extension).
    const auto magnitude =
        static_cast<std::uint64_t>(negative ? -(i.micros + 1) : i.micros) + (negative ? 1 : 0);
    const std::uint64_t hours = magnitude / 3'600'000'000ULL;
    const std::uint64_t minutes = magnitude / 60'000'000ULL % 60;
    const std::uint64_t micros = magnitude % 60'000'000ULL;
    const std::string sign = negative ? "-" : "";
    if (hours != 0) out += sign + std::to_string(hours) + "H";
    if (minutes != 0) out += sign + std::to_string(minutes) + "M";
    if (micros != 0) {
      out += sign + std::to_string(micros / 1'000'000) +
             fraction(static_cast<std::int64_t>(micros % 1'000'000), 6) + "S";
    }
  }
  if (out == "P") out = "PT0S";
  return out;
}

column_type describe_type(const functions& f, logical_type t) {
  column_type c;
  c.id = f.get_type_id(t);
  const std::string alias = take_string(f, f.logical_type_get_alias(t));
  const auto child = [&](logical_type owned) {
    column_type k = describe_type(f, owned);
    f.destroy_logical_type(&owned);
    if (c.unsupported.empty()) c.unsupported = k.unsupported;
    return k;
  };
  switch (c.id) {
    case type_decimal:
      c.storage = f.decimal_internal_type(t);
      c.scale = f.decimal_scale(t);
      c.name = "DECIMAL(" + std::to_string(f.decimal_width(t)) + "," + std::to_string(c.scale) + ")";
      break;
    case type_enum: {
      c.storage = f.enum_internal_type(t);
      const std::uint32_t n = f.enum_dictionary_size(t);
      c.enum_values.reserve(n);
      for (std::uint32_t i = 0; i < n; ++i)
        c.enum_values.push_back(take_string(f, f.enum_dictionary_value(t, i)));
      c.name = "ENUM";
      break;
    }
    case type_list:
      c.children.push_back(child(f.list_type_child_type(t)));
      c.name = c.children[0].name + "[]";
      break;
    case type_array:
      c.children.push_back(child(f.array_type_child_type(t)));
      c.array_size = f.array_type_array_size(t);
      c.name = c.children[0].name + "[" + std::to_string(c.array_size) + "]";
      break;
    case type_map:
      c.children.push_back(child(f.map_type_key_type(t)));
      c.children.push_back(child(f.map_type_value_type(t)));
      c.name = "MAP(" + c.children[0].name + ", " + c.children[1].name + ")";
      break;
    case type_struct: {
      const idx_t n = f.struct_type_child_count(t);
      c.name = "STRUCT(";
      for (idx_t i = 0; i < n; ++i) {
        c.field_names.push_back(take_string(f, f.struct_type_child_name(t, i)));
        c.children.push_back(child(f.struct_type_child_type(t, i)));
        const std::string& field = c.field_names.back();
        c.name += (i > 0 ? ", " : "") + (plain_identifier(field) ? field : "\"" + field + "\"") + " " +
                  c.children.back().name;
      }
      c.name += ")";
      break;
    }
    default: {
      const char* name = simple_name(c.id);
      c.name = name ? name : "type " + std::to_string(static_cast<int>(c.id));
      if (c.id == type_bit || c.id == type_union || c.id == type_time_tz || c.id == type_bignum ||
          name == nullptr) {
        c.unsupported = c.name;
      }
    }
  }
  if (!alias.empty()) c.name = alias;
  return c;
}

bool append_cell(const functions& f, const column_type& t, vector v, idx_t row, row_sink& sink,
                 std::string& scratch) {
  if (!is_valid(f, v, row)) {
    sink.null();
    return true;
  }
  const void* data = f.vector_get_data(v);
  switch (t.id) {
    case type_boolean:
      sink.integer(at<std::uint8_t>(data, row) != 0 ? 1 : 0);
      return true;
    case type_tinyint:
      sink.integer(at<std::int8_t>(data, row));
      return true;
    case type_smallint:
    case type_integer:
    case type_bigint:
    case type_utinyint:
    case type_usmallint:
    case type_uinteger:
      sink.integer(static_cast<std::int64_t>(integer_at(t.id, data, row)));
      return true;
    case type_ubigint: {
      const auto u = at<std::uint64_t>(data, row);
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        sink.integer(static_cast<std::int64_t>(u));
        return true;
      }
      return sink.text(std::to_string(u));
    }
    case type_hugeint: {
      const int128 h = integer_at(type_hugeint, data, row);
      if (fits_int64(h)) {
        sink.integer(static_cast<std::int64_t>(h));
        return true;
      }
      return sink.text(i128_text(h));
    }
    case type_uhugeint: {
      const auto h = at<uhugeint>(data, row);
      const uint128 u = (static_cast<uint128>(h.upper) << 64) | h.lower;
      if (u <= static_cast<uint128>(std::numeric_limits<std::int64_t>::max())) {
        sink.integer(static_cast<std::int64_t>(u));
        return true;
      }
      return sink.text(u128_text(u));
    }
    case type_float: {
      // Through its shortest text, as PostgreSQL's float4 reads: 1.1 is 1.1, not 1.100000023841858.
      const float x = at<float>(data, row);
      sink.real(x != x || x == std::numeric_limits<float>::infinity() ||
                        x == -std::numeric_limits<float>::infinity()
                    ? static_cast<double>(x)
                    : sqlmorph::parse_double(float_text(x)).value_or(x));
      return true;
    }
    case type_double:
      sink.real(at<double>(data, row));
      return true;
    case type_decimal: {
      // Exact when integral and within int64 (12.00 is 12); otherwise the nearest double.
      const int128 raw = integer_at(t.storage, data, row);
      int128 unit = 1;
      for (int i = 0; i < t.scale; ++i) unit *= 10;
      if (raw % unit == 0 && fits_int64(raw / unit)) {
        sink.integer(static_cast<std::int64_t>(raw / unit));
        return true;
      }
      sink.real(sqlmorph::parse_double(decimal_text(raw, t.scale)).value_or(0.0));  // always a number
      return true;
    }
    case type_varchar:
      return sink.text(string_at(data, row));
    case type_blob:
      return sink.blob(string_at(data, row));
    case type_sqlnull:
      sink.null();
      return true;
    case type_list:
    case type_array:
    case type_map:
    case type_struct:
      scratch.clear();
      append_json(f, t, v, row, scratch);
      return sink.text(scratch);
    default:
      return sink.text(scalar_text(t, data, row));
  }
}

}  // namespace sqlmorph::duckdb_backend
