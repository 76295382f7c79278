#include "postgres_values.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>

#include <sqlmorph/number_text.hpp>

namespace sqlmorph::postgres {
namespace {

// Built-in type OIDs (fixed by PostgreSQL's catalog, pg_type.dat).
namespace oid {
constexpr Oid boolean = 16, bytea = 17, char_ = 18, name = 19, int8 = 20, int2 = 21, int4 = 23, text = 25,
              oid = 26, json = 114, xml = 142, float4 = 700, float8 = 701, unknown = 705, money = 790,
              cidr = 650, macaddr = 829, inet = 869, bpchar = 1042, varchar = 1043, date = 1082, time = 1083,
              timestamp = 1114, timestamptz = 1184, interval = 1186, timetz = 1266, bit = 1560, varbit = 1562,
              numeric = 1700, record = 2249, void_ = 2278, uuid = 2950, jsonb = 3802;
}  // namespace oid

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_octal(char c) {
  return c >= '0' && c <= '7';
}

// bytea output: hex format (`\x0aff`, the session's bytea_output) or, should a query switch it,
// the escape format (`\\` for a backslash, `\ooo` for other bytes, printable ASCII as itself).
bool decode_bytea(std::string_view s, std::string& out) {
  out.clear();
  if (s.size() >= 2 && s[0] == '\\' && s[1] == 'x') {
    if (s.size() % 2 != 0) return false;
    out.reserve((s.size() - 2) / 2);
    for (std::size_t i = 2; i < s.size(); i += 2) {
      const int hi = hex_digit(s[i]);
      const int lo = hex_digit(s[i + 1]);
      if (hi < 0 || lo < 0) return false;
      out += static_cast<char>((hi << 4) | lo);
    }
    return true;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (i + 3 < s.size() && is_octal(s[i + 1]) && is_octal(s[i + 2]) && is_octal(s[i + 3])) {
      out += static_cast<char>(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
      i += 3;
    } else {
      return false;
    }
  }
  return true;
}

std::size_t append_text(result& out, std::string_view text) {
  out.append_text(text);
  return text.size();
}

}  // namespace

std::string_view type_name(Oid type) noexcept {
  switch (type) {
    case oid::boolean:
      return "bool";
    case oid::bytea:
      return "bytea";
    case oid::char_:
      return "char";
    case oid::name:
      return "name";
    case oid::int8:
      return "int8";
    case oid::int2:
      return "int2";
    case oid::int4:
      return "int4";
    case oid::text:
      return "text";
    case oid::oid:
      return "oid";
    case oid::json:
      return "json";
    case oid::xml:
      return "xml";
    case oid::float4:
      return "float4";
    case oid::float8:
      return "float8";
    case oid::unknown:
      return "unknown";
    case oid::money:
      return "money";
    case oid::cidr:
      return "cidr";
    case oid::macaddr:
      return "macaddr";
    case oid::inet:
      return "inet";
    case oid::bpchar:
      return "bpchar";
    case oid::varchar:
      return "varchar";
    case oid::date:
      return "date";
    case oid::time:
      return "time";
    case oid::timestamp:
      return "timestamp";
    case oid::timestamptz:
      return "timestamptz";
    case oid::interval:
      return "interval";
    case oid::timetz:
      return "timetz";
    case oid::bit:
      return "bit";
    case oid::varbit:
      return "varbit";
    case oid::numeric:
      return "numeric";
    case oid::record:
      return "record";
    case oid::void_:
      return "void";
    case oid::uuid:
      return "uuid";
    case oid::jsonb:
      return "jsonb";
    default:
      return "";
  }
}

std::size_t append_text_cell(result& out, Oid type, std::string_view text, std::string& scratch) {
  // A text the server sends that does not parse as its type (it never should) is kept as text:
  // data is never dropped or invented.
  switch (type) {
    case oid::int2:
    case oid::int4:
    case oid::int8:
    case oid::oid: {
      std::int64_t i = 0;
      if (!parse_int64(text, i)) return append_text(out, text);
      out.append_integer(i);
      return 0;
    }
    case oid::boolean:
      // 1/0, as SQLite stores booleans, so results compare across engines.
      if (text != "t" && text != "f") return append_text(out, text);
      out.append_integer(text == "t" ? 1 : 0);
      return 0;
    case oid::float4:
    case oid::float8: {
      const std::optional<double> d = parse_double(text);
      if (!d) return append_text(out, text);
      out.append_real(*d);
      return 0;
    }
    case oid::numeric: {
      // Exact when integral and within int64 (`12.000` is 12); otherwise the nearest double.
      std::int64_t i = 0;
      if (parse_integral_decimal(text, i)) {
        out.append_integer(i);
        return 0;
      }
      const std::optional<double> d = parse_double(text);
      if (!d) return append_text(out, text);
      out.append_real(*d);
      return 0;
    }
    case oid::bytea:
      if (!decode_bytea(text, scratch)) return append_text(out, text);
      out.append_blob(scratch);
      return scratch.size();
    default:
      // Character types (char(n) blank-padded as PostgreSQL returns it), temporal types in the
      // session's ISO styles, json, uuid, arrays and everything else: the text PostgreSQL prints.
      return append_text(out, text);
  }
}

}  // namespace sqlmorph::postgres
