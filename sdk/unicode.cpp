#include "sqlmorph/unicode.hpp"

#include <algorithm>

namespace sqlmorph {
namespace {

struct lower_entry {
  std::uint32_t code_point;
  std::uint32_t lower[2];
};
struct code_point_range {
  std::uint32_t first;
  std::uint32_t last;
};

#include "unicode_lower_table.inc"

template <std::size_t N>
bool in_ranges(const code_point_range (&ranges)[N], std::uint32_t cp) {
  const auto it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                                   [](std::uint32_t v, const code_point_range& r) { return v < r.first; });
  return it != std::begin(ranges) && cp <= std::prev(it)->last;
}

bool is_cased(std::uint32_t u) {
  return (u & invalid_byte_flag) == 0 && in_ranges(CASED_RANGES, u);
}
bool is_case_ignorable(std::uint32_t u) {
  return (u & invalid_byte_flag) == 0 && in_ranges(CASE_IGNORABLE_RANGES, u);
}

// CPython's handle_capital_sigma: final sigma when a cased letter precedes (skipping case-ignorable
// characters) and none follows.
std::uint32_t lower_sigma(const std::vector<std::uint32_t>& units, std::size_t i) {
  std::size_t j = i;
  bool final_sigma = false;
  while (j > 0) {
    --j;
    if (!is_case_ignorable(units[j])) {
      final_sigma = is_cased(units[j]);
      break;
    }
  }
  if (final_sigma) {
    for (std::size_t k = i + 1; k < units.size(); ++k) {
      if (!is_case_ignorable(units[k])) {
        final_sigma = !is_cased(units[k]);
        break;
      }
    }
  }
  return final_sigma ? 0x3C2 : 0x3C3;
}

// The valid UTF-8 sequence at s[i] (s[i] >= 0x80): its length (2-4), its code point in `cp`; 0 when
// none starts there (an overlong form, a surrogate, above U+10FFFF, a stray or cut-off byte).
std::size_t sequence_at(const unsigned char* s, std::size_t n, std::size_t i, std::uint32_t& cp) noexcept {
  const unsigned char b = s[i];
  std::size_t len = 0;
  std::uint32_t min = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    len = 2;
    cp = b & 0x1F;
    min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3;
    cp = b & 0x0F;
    min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4;
    cp = b & 0x07;
    min = 0x10000;
  }
  if (len == 0 || i + len > n) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i + k] & 0x3F);
  }
  return cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF) ? len : 0;
}

}  // namespace

std::vector<std::uint32_t> decode_utf8(std::string_view text) {
  std::vector<std::uint32_t> out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char b = s[i];
    if (b < 0x80) {
      out.push_back(b);
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    if (const std::size_t len = sequence_at(s, n, i, cp); len > 0) {
      out.push_back(cp);
      i += len;
    } else {
      out.push_back(invalid_byte_flag | b);
      ++i;
    }
  }
  return out;
}

bool valid_utf8(std::string_view text) noexcept {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t len = sequence_at(s, n, i, cp);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

void append_utf8(std::string& out, std::uint32_t u) {
  switch (utf8_length(u)) {
    case 1:  // ASCII, or an invalid byte kept as it was
      out.push_back(static_cast<char>(u & 0xFF));
      break;
    case 2:
      out.push_back(static_cast<char>(0xC0 | (u >> 6)));
      out.push_back(static_cast<char>(0x80 | (u & 0x3F)));
      break;
    case 3:
      out.push_back(static_cast<char>(0xE0 | (u >> 12)));
      out.push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (u & 0x3F)));
      break;
    default:
      out.push_back(static_cast<char>(0xF0 | (u >> 18)));
      out.push_back(static_cast<char>(0x80 | ((u >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (u & 0x3F)));
  }
}

std::string python_lower(std::string_view text) {
  // Plain ASCII is the common case: no decoding needed.
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    std::string out(text);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  const std::vector<std::uint32_t> units = decode_utf8(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::uint32_t u = units[i];
    if (u < 0x80) {  // ASCII among other characters: only A-Z change
      out.push_back(static_cast<char>(u >= 'A' && u <= 'Z' ? u - 'A' + 'a' : u));
      continue;
    }
    if (u == 0x3A3) {
      append_utf8(out, lower_sigma(units, i));
      continue;
    }
    const auto it = std::lower_bound(std::begin(LOWER_MAP), std::end(LOWER_MAP), u,
                                     [](const lower_entry& e, std::uint32_t v) { return e.code_point < v; });
    if (it != std::end(LOWER_MAP) && it->code_point == u) {
      append_utf8(out, it->lower[0]);
      if (it->lower[1] != 0) append_utf8(out, it->lower[1]);
    } else {
      append_utf8(out, u);
    }
  }
  return out;
}

std::string_view unicode_version() noexcept {
  return SQLMORPH_UNICODE_VERSION;
}

}  // namespace sqlmorph
