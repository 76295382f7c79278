#pragma once
// Whether some one-to-one mapping of predicted columns onto gold columns makes two results equal —
// step 3 of the official Spider comparison (`result_eq`), without enumerating permutations.
//
// Unordered (multiset) case: columns are first told apart by color refinement — a column's color
// is the multiset of its values, then the multiset of (value, color of the row it sits in), where a
// row's color is the multiset of (column color, value) — computed the same way on both sides, so a
// column can only map to a column of the same color. The few columns left ambiguous are assigned by
// backtracking, pruning any partial mapping under which the projected rows no longer form equal
// multisets (checked through order-independent hashes, then confirmed exactly at the end).
// Ordered case: rows correspond by position, so columns must be equal as sequences.
//
// Worst case: results whose columns color refinement cannot separate (highly symmetric tables)
// still backtrack over the ambiguous columns; the reference enumerates every permutation always.

#include <sqlmorph/result.hpp>

#include "value_equivalence.hpp"

namespace sqlmorph::reference {

/// True iff a bijection σ of columns exists with gold rows == pred rows ∘ σ as lists (when
/// `ordered`) or as multisets. Both results must have the same number of rows and of columns.
bool columns_permutable(const result& gold, const result& pred, bool ordered, const value_equivalence& eq);

}  // namespace sqlmorph::reference
