#pragma once
// Optimal assignment (the Hungarian method): which rows go with which columns of a score matrix so
// that the total score is as high as possible, each row and each column used at most once.

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace sqlmorph::semantic {

inline constexpr std::size_t unassigned = std::numeric_limits<std::size_t>::max();

/// For the `rows` × `cols` matrix `scores` (row-major), assigns min(rows, cols) rows to distinct
/// columns maximizing the sum of their scores. Returns, for each row, its column or `unassigned`.
/// O(min² · max) time (shortest augmenting paths with potentials). NaN scores count as -infinity
/// would: they are replaced by the lowest finite score minus one. Ties between optimal assignments
/// are broken deterministically (but not necessarily as SciPy breaks them).
std::vector<std::size_t> optimal_assignment(std::span<const double> scores, std::size_t rows,
                                            std::size_t cols);

/// The sum of the assigned scores.
double assignment_total(std::span<const double> scores, std::size_t cols,
                        std::span<const std::size_t> assignment);

}  // namespace sqlmorph::semantic
