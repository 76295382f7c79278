#pragma once
// Gives every distinct value (or tuple of values) a small integer id under an equivalence, so
// matchers can compare ids instead of values.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include <sqlmorph/hash.hpp>

#include "value_equivalence.hpp"

namespace sqlmorph::reference {

/// Interns tuples of values (a tuple of one value interns a single value). Ids are dense and
/// assigned in order of first appearance. The interned tuples are viewed, not copied: they must
/// outlive the interner.
class tuple_interner {
public:
  explicit tuple_interner(const value_equivalence& eq) : eq_(eq) {}

  /// The id of `tuple` (a new id if no equivalent tuple was seen). `tuple` is read through `at`,
  /// which maps a position to a value, so projections need not be materialized.
  template <class At>
  std::uint32_t intern(std::size_t width, At at) {
    std::uint64_t h = 0x7475706c65ULL ^ width;
    for (std::size_t i = 0; i < width; ++i) h = hash_combine(h, eq_.hash(at(i)));
    auto [first, last] = by_hash_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      const std::vector<value>& known = tuples_[it->second];
      bool same = known.size() == width;
      for (std::size_t i = 0; same && i < width; ++i) same = eq_.equal(known[i], at(i));
      if (same) return it->second;
    }
    const auto id = static_cast<std::uint32_t>(tuples_.size());
    std::vector<value> copy(width);
    for (std::size_t i = 0; i < width; ++i) copy[i] = at(i);
    tuples_.push_back(std::move(copy));
    by_hash_.emplace(h, id);
    return id;
  }

  std::size_t size() const noexcept { return tuples_.size(); }

private:
  const value_equivalence& eq_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
  std::vector<std::vector<value>> tuples_;
};

}  // namespace sqlmorph::reference
