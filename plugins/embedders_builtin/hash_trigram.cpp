#include "hash_trigram.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <sqlmorph/unicode.hpp>

namespace sqlmorph::builtin {

std::vector<double> hash_trigram_vector(std::string_view text) {
  const std::string lower = python_lower(text);
  // The padded text's bytes, and where each code point starts in them (with the end last): a
  // window of three code points is the bytes from one start to the start three further on, hashed
  // where it lies.
  std::string bytes;
  bytes.reserve(lower.size() + 2);
  std::vector<std::size_t> starts;
  if (std::all_of(lower.begin(), lower.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    bytes.push_back(' ');  // ASCII, the common case: a code point is a byte
    bytes += lower;
    bytes.push_back(' ');
  } else {
    // decode_utf8 and append_utf8 round-trip (a valid sequence is the shortest form of its code
    // point, an invalid byte is a unit of its own), so each code point's bytes lie in the text as
    // they are: only where each one starts is needed.
    const std::vector<std::uint32_t> units = decode_utf8(lower);
    bytes.push_back(' ');
    bytes += lower;
    bytes.push_back(' ');
    starts.reserve(units.size() + 3);
    std::size_t at = 0;
    starts.push_back(at++);  // the leading space
    for (const std::uint32_t u : units) {
      starts.push_back(at);
      at += utf8_length(u);
    }
    starts.push_back(at++);  // the trailing space
    starts.push_back(at);
  }
  const std::size_t windows = starts.empty() ? bytes.size() - 2 : starts.size() - 3;
  const std::string_view all(bytes);
  std::array<std::int64_t, hash_trigram_dimensions> counts{};
  for (std::size_t i = 0; i < windows; ++i) {
    const std::uint64_t h =
        fnv1a64(starts.empty() ? all.substr(i, 3) : all.substr(starts[i], starts[i + 3] - starts[i]));
    counts[h % hash_trigram_dimensions] += ((h >> 8) & 1) == 0 ? 1 : -1;
  }
  std::int64_t sum = 0;  // exact: at most (text length)^2, far below 2^63 for any real text
  for (const std::int64_t c : counts) sum += c * c;
  std::vector<double> out(hash_trigram_dimensions, 0.0);
  if (sum == 0) return out;
  const double norm = std::sqrt(static_cast<double>(sum));
  for (std::size_t i = 0; i < hash_trigram_dimensions; ++i) out[i] = static_cast<double>(counts[i]) / norm;
  return out;
}

embedding_outcome hash_trigram_embedder::do_embed_(std::span<const std::string> texts) const {
  embedding_outcome out;
  out.vectors.reserve(texts.size());
  for (const std::string& t : texts) out.vectors.push_back(hash_trigram_vector(t));
  return out;
}

}  // namespace sqlmorph::builtin
