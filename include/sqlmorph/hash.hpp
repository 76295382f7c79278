#pragma once
/// \file hash.hpp
/// Small, fast 64-bit hashing helpers used for values, rows and interned keys.
/// Not cryptographic; collisions are always resolved by a real equality check.

#include <cstdint>
#include <string_view>

namespace sqlmorph {

/// A strong 64-bit finalizer (the splitmix64 output function): spreads every input bit.
constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Combines a running hash with another 64-bit hash (order-sensitive).
constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t h) noexcept {
  return mix64(seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

/// Hash of a byte string with a seed.
std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed = 0) noexcept;

}  // namespace sqlmorph
