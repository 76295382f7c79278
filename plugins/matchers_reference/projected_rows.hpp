#pragma once
// Rows projected on aligned column pairs: their multiset intersection (SQLMorph's exact-cell
// count) and, for what is left over, the item sets the greedy partial phase compares.

#include <cstdint>
#include <span>
#include <vector>

#include <sqlmorph/match.hpp>
#include <sqlmorph/result.hpp>

#include "greedy_overlap.hpp"
#include "value_equivalence.hpp"

namespace sqlmorph::reference {

struct projected_intersection {
  /// Σ over distinct projected tuples t of min(count in gold, count in pred).
  std::uint64_t common_rows = 0;
  /// Leftover rows, as the reference lists them: distinct projected tuples in order of first
  /// appearance, each repeated (count − matched) times. Entries are row indices (the first row
  /// holding that tuple).
  std::vector<std::uint32_t> gold_leftover;
  std::vector<std::uint32_t> pred_leftover;
};

/// Projects gold rows on `pairs[i].gold` and predicted rows on `pairs[i].pred` (in pair order) and
/// intersects them as multisets under `eq`.
projected_intersection intersect_projected_rows(const result& gold, const result& pred,
                                                std::span<const column_pair> pairs,
                                                const value_equivalence& eq);

/// Item sets of projected rows for the greedy phase: the item of position p is (p, value) interned
/// under `eq`, so two rows share an item exactly where their values at the same position are
/// equivalent.
void projected_item_sets(const result& gold, std::span<const std::uint32_t> gold_rows, const result& pred,
                         std::span<const std::uint32_t> pred_rows, std::span<const column_pair> pairs,
                         const value_equivalence& eq, item_sets& gold_sets, item_sets& pred_sets);

}  // namespace sqlmorph::reference
