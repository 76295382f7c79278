#include "output/json_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>
#include <sqlmorph/unicode.hpp>

namespace sqlmorph::core {

void json_writer::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_in_container_) out_ += ',';
  first_in_container_ = false;
}

void json_writer::begin_object() {
  separate();
  out_ += '{';
  first_in_container_ = true;
}

void json_writer::end_object() {
  out_ += '}';
  first_in_container_ = false;
}

void json_writer::begin_array() {
  separate();
  out_ += '[';
  first_in_container_ = true;
}

void json_writer::end_array() {
  out_ += ']';
  first_in_container_ = false;
}

void json_writer::key(std::string_view k) {
  separate();
  append_json_string(out_, k);
  out_ += ':';
  after_key_ = true;
}

void json_writer::integer(std::int64_t i) {
  separate();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, i);
  out_.append(buf, r.ptr);
}

void json_writer::real(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return;
  }
  if (std::signbit(d)) {
    out_ += '-';
    d = -d;
  }
  if (d == 0) {
    out_ += "0.0";
    return;
  }
  // The shortest digits that read back as d, and the position n of the decimal point relative to
  // them (d = 0.digits × 10^n); then nlohmann's layout (its format_buffer, min_exp -4, max_exp 15).
  char sci[32];
  const auto r = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific);
  const std::string_view text(sci, static_cast<std::size_t>(r.ptr - sci));
  const std::size_t e_at = text.find('e');
  std::string digits;
  for (const char c : text.substr(0, e_at)) {
    if (c != '.') digits += c;
  }
  int exponent = 0;
  const std::string_view exp_text = text.substr(e_at + 1);
  std::from_chars(exp_text.data() + (exp_text[0] == '+' ? 1 : 0), exp_text.data() + exp_text.size(),
                  exponent);
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  constexpr int min_exp = -4;
  constexpr int max_exp = std::numeric_limits<double>::digits10;
  if (k <= n && n <= max_exp) {
    out_ += digits;
    out_.append(static_cast<std::size_t>(n - k), '0');
    out_ += ".0";
  } else if (0 < n && n <= max_exp) {
    out_.append(digits, 0, static_cast<std::size_t>(n));
    out_ += '.';
    out_.append(digits, static_cast<std::size_t>(n));
  } else if (min_exp < n && n <= 0) {
    out_ += "0.";
    out_.append(static_cast<std::size_t>(-n), '0');
    out_ += digits;
  } else {
    out_ += digits[0];
    if (k > 1) {
      out_ += '.';
      out_.append(digits, 1);
    }
    out_ += 'e';
    int e = n - 1;
    out_ += e < 0 ? '-' : '+';
    e = std::abs(e);
    if (e < 10) out_ += '0';
    out_ += std::to_string(e);
  }
}

void json_writer::string(std::string_view s) {
  separate();
  append_json_string(out_, s);
}

void append_json_string(std::string& out, std::string_view s) {
  // nlohmann's escaping (dump with ensure_ascii false): '"', '\\' and control characters escaped,
  // every other byte of valid UTF-8 kept as it is. Printable ASCII needs no escaping at all; text
  // that is not valid UTF-8 goes through nlohmann itself, so that its replacement of the invalid
  // bytes is exactly its own.
  const auto needs_care = [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u >= 0x7f || c == '"' || c == '\\';
  };
  const auto first = std::find_if(s.begin(), s.end(), needs_care);
  out += '"';
  if (first == s.end()) {
    out += s;
    out += '"';
    return;
  }
  if (!valid_utf8(s.substr(static_cast<std::size_t>(first - s.begin())))) {
    out.pop_back();
    out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  auto kept = s.begin();  // bytes kept as they are, from here to the next one escaped
  for (auto it = first; it != s.end(); ++it) {
    const char c = *it;
    if (static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\') continue;
    out.append(kept, it);
    kept = it + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        out += "\\u00";
        out += hex[u >> 4];
        out += hex[u & 0xF];
      }
    }
  }
  out.append(kept, s.end());
  out += '"';
}

}  // namespace sqlmorph::core
