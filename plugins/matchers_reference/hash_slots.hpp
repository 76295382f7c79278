#pragma once
// An open-addressing table of (64-bit hash, 32-bit id) pairs: the index behind interning and the
// subset indexes. Several ids may share a hash; the caller decides which one it wants. No per-entry
// allocation, linear probing, power-of-two capacity kept at most half full.

#include <cstdint>
#include <vector>

namespace sqlmorph::reference {

class hash_slots {
public:
  explicit hash_slots(std::size_t expected = 16) { reset(expected); }

  void reset(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < expected * 2) cap <<= 1;
    hashes_.assign(cap, 0);
    ids_.assign(cap, empty);
    size_ = 0;
  }

  /// The first id stored under `h` for which `accept(id)` is true, or `empty`.
  template <class Accept>
  std::uint32_t find(std::uint64_t h, Accept&& accept) const {
    const std::size_t mask = ids_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      if (ids_[i] == empty) return empty;
      if (hashes_[i] == h && accept(ids_[i])) return ids_[i];
    }
  }

  void insert(std::uint64_t h, std::uint32_t id) {
    if ((size_ + 1) * 2 > ids_.size()) grow();
    place(h, id);
    ++size_;
  }

  std::size_t size() const noexcept { return size_; }

  static constexpr std::uint32_t empty = 0xffffffffu;

private:
  void place(std::uint64_t h, std::uint32_t id) {
    const std::size_t mask = ids_.size() - 1;
    std::size_t i = h & mask;
    while (ids_[i] != empty) i = (i + 1) & mask;
    hashes_[i] = h;
    ids_[i] = id;
  }

  void grow() {
    std::vector<std::uint64_t> old_hashes = std::move(hashes_);
    std::vector<std::uint32_t> old_ids = std::move(ids_);
    hashes_.assign(old_ids.size() * 2, 0);
    ids_.assign(old_ids.size() * 2, empty);
    for (std::size_t i = 0; i < old_ids.size(); ++i) {
      if (old_ids[i] != empty) place(old_hashes[i], old_ids[i]);
    }
  }

  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> ids_;
  std::size_t size_ = 0;
};

}  // namespace sqlmorph::reference
