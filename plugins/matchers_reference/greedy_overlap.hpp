#pragma once
// Greedy one-to-one matching of gold rows to predicted rows by the overlap of their item sets —
// the second phase of SQLMorph's partial-cell techniques, without the reference's cubic cost.
//
// The reference repeatedly scans every remaining (gold, pred) pair for the highest similarity,
// taking the first pair in row-major order among ties, until the best similarity is 0. Because a
// pair's similarity never changes, that is the same as visiting similarity levels from the highest
// down and, within a level, visiting gold rows in order and giving each the smallest remaining
// predicted row at that level. This engine does exactly that, finding "the smallest remaining
// predicted row sharing at least `a` items with this gold row" through hash indexes of item subsets
// (or, when subsets would be too many, by merging per-item posting lists), so each level costs
// about (rows × subsets) instead of (rows²). An index is built only once scanning the rows for it
// would have cost as much (a few gold rows against a large result are answered by scanning).

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace sqlmorph::reference {

/// A row as a sorted set of distinct item ids.
using item_set = std::span<const std::uint32_t>;

/// Many item sets in one buffer (no allocation per set): set i is items [offsets[i], offsets[i+1]).
class item_sets {
 public:
  item_sets() { offsets_.push_back(0); }

  void reserve(std::size_t sets, std::size_t items) {
    offsets_.reserve(sets + 1);
    items_.reserve(items);
  }
  /// Adds an item to the set being built (the set after the last one closed).
  void push_item(std::uint32_t item) {
    if (items_.size() == max_items) throw std::length_error("item_sets: more than 2^32 - 1 items");
    items_.push_back(item);
  }
  /// Closes the set being built: its items are sorted and, when `distinct`, de-duplicated.
  void close_set(bool distinct);
  /// Appends a copy of an already sorted set.
  void append(item_set s) {
    if (items_.size() + s.size() > max_items) throw std::length_error("item_sets: more than 2^32 - 1 items");
    items_.insert(items_.end(), s.begin(), s.end());
    offsets_.push_back(static_cast<std::uint32_t>(items_.size()));
  }

  std::size_t size() const noexcept { return offsets_.size() - 1; }
  bool empty() const noexcept { return size() == 0; }
  item_set operator[](std::size_t i) const noexcept {
    return item_set(items_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  std::size_t total_items() const noexcept { return items_.size(); }

 private:
  static constexpr std::size_t max_items = 0xffffffffu;
  std::vector<std::uint32_t> items_;
  std::vector<std::uint32_t> offsets_;
};

/// Similarity of two sets from their overlap `a` and sizes; must be strictly increasing in `a` for
/// fixed sizes and > 0 for a >= 1. The engine compares the returned doubles exactly, as the
/// reference compares its floats.
using overlap_similarity = double (*)(std::uint32_t a, std::uint32_t gold_size, std::uint32_t pred_size);

/// One greedy pick: positions in the input spans and the overlap of the two sets.
struct overlap_pick {
  std::uint32_t gold;
  std::uint32_t pred;
  std::uint32_t overlap;
};

/// The reference greedy: picks in the order the reference makes them.
std::vector<overlap_pick> greedy_overlap_match(const item_sets& gold, const item_sets& pred,
                                               overlap_similarity similarity);

/// |a ∩ b| for sorted sets.
std::uint32_t overlap_size(item_set a, item_set b) noexcept;

}  // namespace sqlmorph::reference
