#pragma once
/// \file unicode.hpp
/// UTF-8 decoding and Python's str.lower(), for techniques and embedders that must treat text the
/// way the Python references do.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph {

/// A decoded unit: a Unicode code point, or (with `invalid_byte_flag` set) a byte that is not part
/// of valid UTF-8, kept so text round-trips.
inline constexpr std::uint32_t invalid_byte_flag = 0x80000000u;

/// Decodes UTF-8 strictly (no overlong forms, no surrogates, nothing above U+10FFFF); each byte of
/// an invalid sequence becomes `invalid_byte_flag | byte`.
std::vector<std::uint32_t> decode_utf8(std::string_view text);

/// Whether `text` is valid UTF-8 by decode_utf8's rule (it would find no invalid byte).
bool valid_utf8(std::string_view text) noexcept;

/// How many bytes append_utf8() writes for `unit`: 1 for an invalid-byte unit, else the length of
/// the code point's shortest form (what decode_utf8 accepted, so decoding and encoding round-trip).
constexpr std::size_t utf8_length(std::uint32_t unit) noexcept {
  if ((unit & invalid_byte_flag) != 0 || unit < 0x80) return 1;
  return unit < 0x800 ? 2 : unit < 0x10000 ? 3 : 4;
}

/// Encodes code points (and invalid-byte units) back to bytes.
void append_utf8(std::string& out, std::uint32_t unit);

/// Python's `str.lower()`: full Unicode lower-case mappings (`İ` becomes `i̇`, two code points) and
/// the Final_Sigma rule (`Σ` becomes `ς` at the end of a word). Bytes that are not valid UTF-8 are
/// copied unchanged.
std::string python_lower(std::string_view text);

/// The Unicode version of the tables behind python_lower().
std::string_view unicode_version() noexcept;

}  // namespace sqlmorph
