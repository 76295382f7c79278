#pragma once
// Gives every distinct tuple of values (of one width) a small integer id under an equivalence, so
// matchers can compare ids instead of values.

#include <cstdint>
#include <vector>

#include <sqlmorph/hash.hpp>

#include "hash_slots.hpp"
#include "value_equivalence.hpp"

namespace sqlmorph::reference {

/// A tuple's key for tuple_interner: which side (gold = 0, pred = 1) and which row it comes from.
constexpr std::uint64_t tuple_key(int side, std::size_t row) noexcept {
  return (static_cast<std::uint64_t>(side) << 32) | static_cast<std::uint64_t>(row);
}
constexpr int key_side(std::uint64_t key) noexcept {
  return static_cast<int>(key >> 32);
}
constexpr std::size_t key_row(std::uint64_t key) noexcept {
  return static_cast<std::size_t>(key & 0xffffffffULL);
}

/// Interns tuples of `width` values. A tuple is named by a 64-bit key, and `read(key, i)` returns
/// its i-th value (a reference into storage that outlives the interner). Ids are dense and assigned
/// in order of first appearance. Only the key of each distinct tuple's first occurrence is kept:
/// 8 bytes per distinct tuple plus the hash index, whatever the width.
template <class Read>
class tuple_interner {
 public:
  tuple_interner(const value_equivalence& eq, std::size_t width, Read read, std::size_t expected = 16)
      : eq_(eq), width_(width), read_(std::move(read)), slots_(expected) {
    first_keys_.reserve(expected);
  }

  /// The id of the tuple named `key` (a new id if no equivalent tuple was seen).
  std::uint32_t intern(std::uint64_t key) {
    std::uint64_t h = 0x7475706c65ULL ^ width_;
    for (std::size_t i = 0; i < width_; ++i) h = hash_combine(h, eq_.hash(read_(key, i)));
    const std::uint32_t found = slots_.find(h, [&](std::uint32_t id) {
      const std::uint64_t known = first_keys_[id];
      for (std::size_t i = 0; i < width_; ++i) {
        if (!eq_.equal(read_(known, i), read_(key, i))) return false;
      }
      return true;
    });
    if (found != hash_slots::empty) return found;
    const auto id = static_cast<std::uint32_t>(first_keys_.size());
    first_keys_.push_back(key);
    slots_.insert(h, id);
    return id;
  }

  std::size_t size() const noexcept { return first_keys_.size(); }

 private:
  const value_equivalence& eq_;
  std::size_t width_;
  Read read_;
  hash_slots slots_;
  std::vector<std::uint64_t> first_keys_;
};

}  // namespace sqlmorph::reference
