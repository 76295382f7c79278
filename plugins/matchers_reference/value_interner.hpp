#pragma once
// Gives every distinct tuple of values (of one width) a small integer id under an equivalence, so
// matchers can compare ids instead of values.

#include <cstdint>
#include <vector>

#include <sqlmorph/hash.hpp>

#include "hash_slots.hpp"
#include "value_equivalence.hpp"

namespace sqlmorph::reference {

/// Interns tuples of `width` values (width 1 interns single values). Ids are dense and assigned in
/// order of first appearance. The values are kept as 16-byte handles: the results they come from
/// must outlive the interner.
class tuple_interner {
public:
  tuple_interner(const value_equivalence& eq, std::size_t width, std::size_t expected = 16)
      : eq_(eq), width_(width), slots_(expected) {
    values_.reserve(expected * width);
  }

  /// The id of the tuple whose i-th value is `at(i)` (a new id if no equivalent tuple was seen).
  template <class At>
  std::uint32_t intern(At&& at) {
    std::uint64_t h = 0x7475706c65ULL ^ width_;
    for (std::size_t i = 0; i < width_; ++i) h = hash_combine(h, eq_.hash(at(i)));
    const std::uint32_t found = slots_.find(h, [&](std::uint32_t id) {
      const value* known = &values_[id * width_];
      for (std::size_t i = 0; i < width_; ++i) {
        if (!eq_.equal(known[i], at(i))) return false;
      }
      return true;
    });
    if (found != hash_slots::empty) return found;
    const auto id = static_cast<std::uint32_t>(count_++);
    for (std::size_t i = 0; i < width_; ++i) values_.push_back(at(i));
    slots_.insert(h, id);
    return id;
  }

  std::size_t size() const noexcept { return count_; }

private:
  const value_equivalence& eq_;
  std::size_t width_;
  hash_slots slots_;
  std::vector<value> values_;
  std::size_t count_ = 0;
};

}  // namespace sqlmorph::reference
