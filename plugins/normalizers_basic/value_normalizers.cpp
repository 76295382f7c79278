#include "value_normalizers.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <sqlmorph/unicode.hpp>

namespace sqlmorph::normalizers {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

bool parse_numeral(std::string_view text, bool& is_integer, std::int64_t& integer, double& real) {
  if (text.empty()) return false;
  std::string_view body = text;
  if (body.front() == '+' || body.front() == '-') body.remove_prefix(1);
  // The shape of a numeral: digits [. digits] [e [sign] digits], with digits on at least one side
  // of the point. (Words like "inf" or "nan" are not numerals.)
  const std::size_t e = body.find_first_of("eE");
  const std::string_view mantissa = body.substr(0, e);
  const std::size_t dot = mantissa.find('.');
  const std::string_view whole = mantissa.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : mantissa.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return false;
  if ((!whole.empty() && !all_digits(whole)) || (!fraction.empty() && !all_digits(fraction))) return false;
  if (e != std::string_view::npos) {
    std::string_view exponent = body.substr(e + 1);
    if (!exponent.empty() && (exponent.front() == '+' || exponent.front() == '-')) exponent.remove_prefix(1);
    if (!all_digits(exponent)) return false;
  }
  const char* first = text.data() + (text.front() == '+' ? 1 : 0);
  const char* last = text.data() + text.size();
  if (dot == std::string_view::npos && e == std::string_view::npos) {
    if (auto [p, ec] = std::from_chars(first, last, integer); ec == std::errc() && p == last) {
      is_integer = true;
      return true;
    }
  }
  auto [p, ec] = std::from_chars(first, last, real);
  if (p != last || (ec != std::errc() && ec != std::errc::result_out_of_range)) return false;
  is_integer = false;
  return true;
}

void numbers_from_text::normalize_value_(const value& in, result& out) const {
  if (in.kind() != value_kind::text) {
    out.append(in);
    return;
  }
  bool is_integer = false;
  std::int64_t i = 0;
  double d = 0;
  if (parse_numeral(trim_ ? trimmed(in.bytes()) : in.bytes(), is_integer, i, d)) {
    if (is_integer)
      out.append_integer(i);
    else
      out.append_real(d);
  } else {
    out.append(in);
  }
}

void trim_text::normalize_value_(const value& in, result& out) const {
  if (in.kind() == value_kind::text)
    out.append_text(trimmed(in.bytes()));
  else
    out.append(in);
}

void case_fold::normalize_value_(const value& in, result& out) const {
  if (in.kind() == value_kind::text)
    out.append_text(python_lower(in.bytes()));
  else
    out.append(in);
}

round_reals::round_reals(const option_values& o) : digits_(static_cast<int>(o.get_int_in("digits", 0, 15))) {
  scale_ = std::pow(10.0, digits_);
}

void round_reals::normalize_value_(const value& in, result& out) const {
  if (in.kind() == value_kind::real && std::isfinite(in.as_real()))
    out.append_real(std::round(in.as_real() * scale_) / scale_);
  else
    out.append(in);
}

}  // namespace sqlmorph::normalizers
