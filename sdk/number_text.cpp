#include <sqlmorph/number_text.hpp>

#include <charconv>
#include <cstdlib>
#include <string>
#include <system_error>

namespace sqlmorph {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

bool parse_int64(std::string_view s, std::int64_t& out) noexcept {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && p == end;
}

std::optional<double> parse_double(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double d = 0;
  const char* end = s.data() + s.size();
  const auto [p, ec] = std::from_chars(s.data(), end, d);
  if (p != end) return std::nullopt;
  // Beyond double's range: strtod (the C locale's, which sqlmorph never changes) gives the nearest
  // double, an infinity or a zero, where from_chars gives up.
  if (ec == std::errc::result_out_of_range) return std::strtod(std::string(s).c_str(), nullptr);
  if (ec != std::errc()) return std::nullopt;
  return d;
}

bool parse_integral_decimal(std::string_view s, std::int64_t& out) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  std::string digits;
  long exponent = 0;
  bool any = false;
  for (; i < s.size() && is_digit(s[i]); ++i, any = true) digits += s[i];
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && is_digit(s[i]); ++i, any = true) {
      digits += s[i];
      --exponent;
    }
  }
  if (!any) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) exponent_negative = s[i++] == '-';
    long e = 0;
    bool exponent_digits = false;
    for (; i < s.size() && is_digit(s[i]); ++i, exponent_digits = true) {
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    if (!exponent_digits) return false;
    exponent += exponent_negative ? -e : e;
  }
  if (i != s.size()) return false;
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    out = 0;
    return true;
  }
  digits.erase(0, first);
  while (exponent < 0 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (exponent < 0 || static_cast<long>(digits.size()) + exponent > 19) return false;
  // |value| <= 2^63 - 1, or 2^63 when negative.
  const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
  unsigned long long v = 0;
  for (std::size_t k = 0; k < digits.size() + static_cast<std::size_t>(exponent); ++k) {
    const unsigned d = k < digits.size() ? static_cast<unsigned>(digits[k] - '0') : 0u;
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  out = negative ? static_cast<std::int64_t>(0ull - v) : static_cast<std::int64_t>(v);
  return true;
}

}  // namespace sqlmorph
