#include "hash_trigram.hpp"

#include <array>
#include <cmath>

#include <sqlmorph/unicode.hpp>

namespace sqlmorph::builtin {

std::vector<double> hash_trigram_vector(std::string_view text) {
  std::vector<std::uint32_t> units = decode_utf8(python_lower(text));
  units.insert(units.begin(), ' ');
  units.push_back(' ');
  std::array<std::int64_t, hash_trigram_dimensions> counts{};
  std::string window;
  for (std::size_t i = 0; i + 3 <= units.size(); ++i) {
    window.clear();
    for (std::size_t k = 0; k < 3; ++k) append_utf8(window, units[i + k]);
    const std::uint64_t h = fnv1a64(window);
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
