#include "copy_text.hpp"

#include <charconv>
#include <cmath>

namespace sqlmorph::load {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned min = 0;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, min = 0x10000;
  else
    return 0;
  if (i + n > s.size()) return 0;
  unsigned cp = c & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string storable_text(std::string_view s, text_repairs& repairs) {
  std::string out;
  out.reserve(s.size());
  bool bad = false;
  bool nul = false;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '\0') {
      nul = true;
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      bad = true;
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  repairs.invalid_utf8 += bad;
  repairs.nul_bytes += nul;
  return out;
}

void append_copy_text(std::string& line, std::string_view s) {
  for (const char c : s) {
    switch (c) {
      case '\\':
        line += "\\\\";
        break;
      case '\t':
        line += "\\t";
        break;
      case '\n':
        line += "\\n";
        break;
      case '\r':
        line += "\\r";
        break;
      default:
        line += c;
    }
  }
}

void append_copy_bytea(std::string& line, std::string_view bytes) {
  static const char* hex = "0123456789abcdef";
  line += "\\\\x";  // COPY unescapes "\\" to "\", and bytea reads "\x..." as hex
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    line += hex[u >> 4];
    line += hex[u & 15];
  }
}

void append_copy_double(std::string& line, double d) {
  if (std::isinf(d)) {
    line += d > 0 ? "Infinity" : "-Infinity";
    return;
  }
  if (std::isnan(d)) {
    line += "NaN";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest text that reads back exactly
  line.append(buf, r.ptr);
}

}  // namespace sqlmorph::load
