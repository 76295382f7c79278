#include "output/terminal_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include <sqlmorph/unicode.hpp>

namespace sqlmorph::core {
namespace {

// How a decoded unit (decode_utf8) is shown when it may not be printed as it is; "" when it may.
std::string escape_of(std::uint32_t unit) {
  char buf[16];
  if ((unit & invalid_byte_flag) != 0) {
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(unit & 0xFF));
    return buf;
  }
  if (unit == '\n') return "\\n";
  if (unit == '\r') return "\\r";
  if (unit == '\t') return "\\t";
  if (unit < 0x20 || unit == 0x7F) {
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(unit));
    return buf;
  }
  const bool c1 = unit >= 0x80 && unit <= 0x9F;
  const bool bidi = (unit >= 0x202A && unit <= 0x202E) || (unit >= 0x2066 && unit <= 0x2069);
  if (c1 || bidi) {
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(unit));
    return buf;
  }
  return "";
}

bool plain_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

}  // namespace

std::string terminal_text(std::string_view text) {
  return terminal_text(text, std::string_view::npos);
}

std::string terminal_text(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars && plain_ascii(text)) return std::string(text);
  // No character takes more than 4 bytes: the first 4 * max_chars bytes hold every character shown
  // (a sequence cut at that end lies beyond them).
  const std::size_t scanned = max_chars >= text.size() / 4 ? text.size() : max_chars * 4;
  std::string out;
  std::size_t chars = 0;
  std::size_t used = 0;  // bytes of `text` shown
  for (const std::uint32_t unit : decode_utf8(text.substr(0, scanned))) {
    const std::string escape = escape_of(unit);
    const std::size_t width = escape.empty() ? 1 : escape.size();
    if (chars + width > max_chars) break;
    if (escape.empty())
      append_utf8(out, unit);
    else
      out += escape;
    chars += width;
    used += utf8_length(unit);
  }
  if (used < text.size()) out += "…[+" + std::to_string(text.size() - used) + " bytes]";
  return out;
}

}  // namespace sqlmorph::core
