#include "sqlmorph/value.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "sqlmorph/hash.hpp"

namespace sqlmorph {
namespace {

constexpr std::uint64_t null_hash = 0x6e756c6c6e756c6cULL;
constexpr std::uint64_t number_seed = 0x4e554d4245525321ULL;
constexpr std::uint64_t real_seed = 0x5245414c5245414cULL;
constexpr std::uint64_t text_seed = 0x5445585454455854ULL;
constexpr std::uint64_t blob_seed = 0x424c4f42424c4f42ULL;

// 2^63 as a double: the first real above every int64.
constexpr double two_pow_63 = 9223372036854775808.0;

}  // namespace

bool real_as_exact_integer(double d, std::int64_t& out) noexcept {
  // The comparison is false for NaN, so NaN is rejected here too.
  if (!(d >= -two_pow_63 && d < two_pow_63)) return false;
  if (std::trunc(d) != d) return false;
  out = static_cast<std::int64_t>(d);
  return true;
}

bool integer_equals_real(std::int64_t i, double d) noexcept {
  std::int64_t as_int;
  return real_as_exact_integer(d, as_int) && as_int == i;
}

bool reference_equal(const value& a, const value& b) noexcept {
  const value_kind ka = a.kind();
  const value_kind kb = b.kind();
  if (ka == kb) {
    switch (ka) {
      case value_kind::null:
        return true;
      case value_kind::integer:
        return a.as_integer() == b.as_integer();
      case value_kind::real:
        return a.as_real() == b.as_real();
      case value_kind::text:
      case value_kind::blob:
        return a.bytes() == b.bytes();
    }
  }
  if (ka == value_kind::integer && kb == value_kind::real)
    return integer_equals_real(a.as_integer(), b.as_real());
  if (ka == value_kind::real && kb == value_kind::integer)
    return integer_equals_real(b.as_integer(), a.as_real());
  return false;
}

std::uint64_t reference_hash(const value& v) noexcept {
  switch (v.kind()) {
    case value_kind::null:
      return null_hash;
    case value_kind::integer:
      return mix64(static_cast<std::uint64_t>(v.as_integer()) ^ number_seed);
    case value_kind::real: {
      std::int64_t as_int;
      if (real_as_exact_integer(v.as_real(), as_int)) {
        return mix64(static_cast<std::uint64_t>(as_int) ^ number_seed);
      }
      std::uint64_t bits;
      const double d = v.as_real();
      std::memcpy(&bits, &d, sizeof bits);
      return mix64(bits ^ real_seed);
    }
    case value_kind::text:
      return hash_bytes(v.bytes(), text_seed);
    case value_kind::blob:
      return hash_bytes(v.bytes(), blob_seed);
  }
  return 0;
}

void append_python_float_repr(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "nan";
    return;
  }
  if (std::isinf(d)) {
    out += d < 0 ? "-inf" : "inf";
    return;
  }
  if (d == 0.0) {
    out += std::signbit(d) ? "-0.0" : "0.0";
    return;
  }
  // Shortest round-trip digits in scientific form, e.g. "-1.2345e+02" or "5e-324".
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  std::size_t pos = 0;
  const bool negative = sci[0] == '-';
  if (negative) ++pos;
  std::string digits;
  for (; pos < sci.size() && sci[pos] != 'e'; ++pos) {
    if (sci[pos] != '.') digits.push_back(sci[pos]);
  }
  int exponent = 0;
  std::from_chars(sci.data() + pos + 1 + (sci[pos + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exponent);
  // Python (float_repr_style "short", mode 'r'): decpt is where the decimal point falls relative
  // to the digit string; exponent notation when decpt <= -4 or decpt > 16.
  const int decpt = exponent + 1;
  const int ndigits = static_cast<int>(digits.size());
  if (negative) out.push_back('-');
  if (decpt <= -4 || decpt > 16) {
    out.push_back(digits[0]);
    if (ndigits > 1) {
      out.push_back('.');
      out.append(digits, 1);
    }
    out.push_back('e');
    out.push_back(exponent < 0 ? '-' : '+');
    const int abs_exp = exponent < 0 ? -exponent : exponent;
    if (abs_exp < 10) out.push_back('0');
    out += std::to_string(abs_exp);
  } else if (decpt <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-decpt), '0');
    out += digits;
  } else if (decpt >= ndigits) {
    out += digits;
    out.append(static_cast<std::size_t>(decpt - ndigits), '0');
    out += ".0";
  } else {
    out.append(digits, 0, static_cast<std::size_t>(decpt));
    out.push_back('.');
    out.append(digits, static_cast<std::size_t>(decpt));
  }
}

std::string python_float_repr(double d) {
  std::string out;
  append_python_float_repr(out, d);
  return out;
}

void append_python_bytes_repr(std::string& out, std::string_view bytes) {
  // Python prefers single quotes and switches to double quotes only when the bytes contain a
  // single quote and no double quote.
  const bool has_single = bytes.find('\'') != std::string_view::npos;
  const bool has_double = bytes.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  static constexpr char hex[] = "0123456789abcdef";
  out += 'b';
  out += quote;
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    } else {
      out += ch;
    }
  }
  out += quote;
}

void append_python_str(std::string& out, const value& v) {
  switch (v.kind()) {
    case value_kind::null:
      out += "None";
      return;
    case value_kind::integer: {
      char buf[24];
      const auto res = std::to_chars(buf, buf + sizeof buf, v.as_integer());
      out.append(buf, res.ptr);
      return;
    }
    case value_kind::real:
      append_python_float_repr(out, v.as_real());
      return;
    case value_kind::text:
      out += v.bytes();
      return;
    case value_kind::blob:
      append_python_bytes_repr(out, v.bytes());
      return;
  }
}

std::string python_str(const value& v) {
  std::string out;
  append_python_str(out, v);
  return out;
}

std::string_view python_type_name(value_kind kind) noexcept {
  switch (kind) {
    case value_kind::null:
      return "<class 'NoneType'>";
    case value_kind::integer:
      return "<class 'int'>";
    case value_kind::real:
      return "<class 'float'>";
    case value_kind::text:
      return "<class 'str'>";
    case value_kind::blob:
      return "<class 'bytes'>";
  }
  return "";
}

std::string_view kind_name(value_kind kind) noexcept {
  switch (kind) {
    case value_kind::null:
      return "null";
    case value_kind::integer:
      return "integer";
    case value_kind::real:
      return "real";
    case value_kind::text:
      return "text";
    case value_kind::blob:
      return "blob";
  }
  return "";
}

}  // namespace sqlmorph
