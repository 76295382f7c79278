#pragma once
// An open-addressing table from 64-bit hashes to 32-bit ids: the index behind interning and the
// subset indexes. Each slot is 8 bytes: the id and the hash's low 32 bits (its "tag"), from which the
// slot position is taken, so the table can grow without the full hash. Several ids may share a tag:
// `find` calls the caller's `accept`, which decides whether an id is the one wanted and must check
// the key itself. No per-entry allocation, linear probing, power-of-two capacity at most three quarters full
// (the tags keep long probe runs cheap: a probe rarely calls `accept` for a slot it passes).

#include <cstdint>
#include <vector>

namespace sqlmorph::reference {

class hash_slots {
 public:
  explicit hash_slots(std::size_t expected = 16) { reset(expected); }

  void reset(std::size_t expected) {
    std::size_t cap = 16;
    while (cap * 3 < expected * 4) cap <<= 1;
    slots_.assign(cap, vacant);
    size_ = 0;
  }

  /// The first id stored under a hash with the same tag as `h` for which `accept(id)` is true, or `empty`.
  template <class Accept>
  std::uint32_t find(std::uint64_t h, Accept&& accept) const {
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t tag = tag_of(h);
    for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
      const std::uint64_t s = slots_[i];
      if (s == vacant) return empty;
      if (static_cast<std::uint32_t>(s >> 32) == tag && accept(static_cast<std::uint32_t>(s))) {
        return static_cast<std::uint32_t>(s);
      }
    }
  }

  void insert(std::uint64_t h, std::uint32_t id) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place((static_cast<std::uint64_t>(tag_of(h)) << 32) | id);
    ++size_;
  }

  std::size_t size() const noexcept { return size_; }

  static constexpr std::uint32_t empty = 0xffffffffu;

 private:
  static constexpr std::uint64_t vacant = empty;  // tag 0 with id `empty`: never a stored slot
  static std::uint32_t tag_of(std::uint64_t h) noexcept { return static_cast<std::uint32_t>(h); }

  void place(std::uint64_t slot) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = static_cast<std::uint32_t>(slot >> 32) & mask;
    while (slots_[i] != vacant) i = (i + 1) & mask;
    slots_[i] = slot;
  }

  void grow() {
    const std::vector<std::uint64_t> old = std::move(slots_);
    slots_.assign(old.size() * 2, vacant);
    for (const std::uint64_t s : old) {
      if (s != vacant) place(s);
    }
  }

  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
};

}  // namespace sqlmorph::reference
