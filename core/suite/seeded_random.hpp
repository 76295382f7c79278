#pragma once
// The random numbers of `sqlmorph suite build`: std::mt19937_64 (its output is fixed by the C++
// standard) with distributions written here, because std::uniform_int_distribution and friends may
// give different numbers in another standard library. A suite is therefore the same for a seed on
// every platform.

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace sqlmorph::core::suite {

class seeded_random {
 public:
  explicit seeded_random(std::uint64_t seed) : engine_(seed) {}

  /// A seed for the part of the work named `name` (a db_id, "gold 12"): the same for the same
  /// seed and name, whatever else runs.
  static std::uint64_t derive(std::uint64_t seed, std::string_view name);

  std::uint64_t next() { return engine_(); }
  /// Uniform in [lo, hi] (lo <= hi), without modulo bias.
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  /// Uniform in [0, n) (n > 0).
  std::size_t below(std::size_t n) {
    return static_cast<std::size_t>(between(0, static_cast<std::int64_t>(n) - 1));
  }
  /// Uniform in [0, 1), 53 random bits.
  double unit();
  /// True with probability p.
  bool chance(double p) { return unit() < p; }

  /// Fisher-Yates with `below`.
  template <typename T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace sqlmorph::core::suite
