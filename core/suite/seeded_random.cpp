#include "suite/seeded_random.hpp"

#include <sqlmorph/hash.hpp>

namespace sqlmorph::core::suite {

std::uint64_t seeded_random::derive(std::uint64_t seed, std::string_view name) {
  // FNV-1a over the name, mixed with the seed by splitmix64's finalizer.
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return mix64(h ^ (seed + 0x9e3779b97f4a7c15ull));
}

std::int64_t seeded_random::between(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == ~std::uint64_t{0}) return static_cast<std::int64_t>(next());
  const std::uint64_t n = span + 1;
  // Rejection: draws at or above the largest multiple of n are redrawn.
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  std::uint64_t x = next();
  while (x >= limit) x = next();
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + x % n);
}

double seeded_random::unit() {
  return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace sqlmorph::core::suite
