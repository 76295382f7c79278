#include "sqlmorph/hash.hpp"

#include <cstring>

namespace sqlmorph {

std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed) noexcept {
  // Eight bytes at a time, each word multiplied into the state and the state re-mixed; the tail
  // and the length are folded in last so "a" and "a\0" differ.
  constexpr std::uint64_t k1 = 0x9ae16a3b2f90404fULL;
  constexpr std::uint64_t k2 = 0xc3a5c85c97cb3127ULL;
  std::uint64_t h = seed ^ (bytes.size() * k1);
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ mix64(w * k2)) * k1;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ mix64((w << 8 | n) * k2)) * k1;
  }
  return mix64(h);
}

}  // namespace sqlmorph
