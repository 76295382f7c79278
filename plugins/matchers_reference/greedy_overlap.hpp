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
// about (rows × subsets) instead of (rows²).

#include <cstdint>
#include <span>
#include <vector>

namespace sqlmorph::reference {

/// A row as a sorted set of distinct item ids.
using item_set = std::vector<std::uint32_t>;

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
std::vector<overlap_pick> greedy_overlap_match(std::span<const item_set> gold, std::span<const item_set> pred,
                                               overlap_similarity similarity);

/// |a ∩ b| for sorted sets.
std::uint32_t overlap_size(const item_set& a, const item_set& b) noexcept;

}  // namespace sqlmorph::reference
