#include "suite/value_kind.hpp"

#include <string>

namespace sqlmorph::core::suite {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// "2019-03-04", "2019-03-04 10:00:00", "2019/03/04".
bool looks_like_date(const std::string& s) {
  return s.size() >= 8 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' &&
         s[2] <= '9' && s[3] >= '0' && s[3] <= '9' && (s[4] == '-' || s[4] == '/');
}

}  // namespace

value_kind column_value_kind(std::string_view declared_type, std::string_view column,
                             const std::vector<sql_value>& samples) {
  const std::string t = lower(declared_type);
  if (contains(t, "bool")) return value_kind::boolean;
  if (contains(t, "datetime") || contains(t, "timestamp") || contains(t, "date")) return value_kind::date;
  if (contains(t, "time")) return value_kind::time;
  if (contains(t, "int")) return value_kind::integer;
  if (contains(t, "real") || contains(t, "floa") || contains(t, "doub") || contains(t, "num") ||
      contains(t, "dec"))
    return value_kind::real;
  if (contains(t, "char") || contains(t, "text") || contains(t, "clob")) {
    std::size_t dates = 0;
    std::size_t texts = 0;
    for (const sql_value& v : samples) {
      if (v.type != sql_value::kind::text) continue;
      ++texts;
      if (looks_like_date(v.text)) ++dates;
    }
    if (texts > 0 && dates == texts) return value_kind::date;
    return value_kind::text;
  }
  if (contains(t, "blob")) return value_kind::blob;
  // No usable declared type: what the values are, else what the name suggests.
  std::size_t ints = 0;
  std::size_t reals = 0;
  std::size_t texts = 0;
  for (const sql_value& v : samples) {
    if (v.type == sql_value::kind::integer) ++ints;
    if (v.type == sql_value::kind::real) ++reals;
    if (v.type == sql_value::kind::text) ++texts;
  }
  if (ints + reals + texts > 0) {
    if (texts >= ints + reals) return value_kind::text;
    return reals > 0 ? value_kind::real : value_kind::integer;
  }
  const std::string n = lower(column);
  if (contains(n, "date")) return value_kind::date;
  if (n == "id" || (n.size() > 3 && n.compare(n.size() - 3, 3, "_id") == 0)) return value_kind::integer;
  return value_kind::text;
}

std::string_view value_kind_name(value_kind k) noexcept {
  switch (k) {
    case value_kind::integer:
      return "integer";
    case value_kind::real:
      return "real";
    case value_kind::text:
      return "text";
    case value_kind::date:
      return "date";
    case value_kind::time:
      return "time";
    case value_kind::boolean:
      return "boolean";
    case value_kind::blob:
      return "blob";
  }
  return "text";
}

bool compatible_kinds(value_kind a, value_kind b) noexcept {
  const auto numeric = [](value_kind k) {
    return k == value_kind::integer || k == value_kind::real || k == value_kind::boolean;
  };
  if (a == value_kind::blob || b == value_kind::blob) return a == b;
  return numeric(a) == numeric(b);
}

}  // namespace sqlmorph::core::suite
