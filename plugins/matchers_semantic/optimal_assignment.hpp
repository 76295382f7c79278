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

/// `count` rows of row group `row` assigned to as many columns of column group `col`.
struct group_flow {
  std::size_t row = 0;
  std::size_t col = 0;
  std::size_t count = 0;
};

/// optimal_assignment for a matrix whose rows and columns come in groups of identical ones, at the
/// cost of the matrix of distinct ones: `scores` is row_count.size() × col_count.size()
/// (row-major), group r standing for `row_count[r]` identical rows and group c for `col_count[c]`
/// identical columns (every count ≥ 1). Assigns min(Σ row_count, Σ col_count) rows to distinct
/// columns with the same optimum total as optimal_assignment on the expanded matrix (NaN and
/// infinities handled the same way); which rows of a group go with which columns of a group is left
/// open, so the answer is how many pairs each (row group, column group) gets, without zero counts.
/// The smaller side is assigned one copy at a time by shortest augmenting paths, the groups of the
/// other side taking up to their count (a transportation problem, grouped_assignment.cpp).
/// A large matrix is searched over a few candidate pairs per group — its cheapest, and those of a
/// greedy assignment — and the answer is certified by LP duality: no pair left out may have a
/// negative reduced cost, else those pairs join the candidates and the search runs again.
/// `candidates`: how many cheapest pairs per group start the candidate search, whatever the size
/// (for tests); 0 chooses by size.
std::vector<group_flow> grouped_assignment(std::span<const double> scores,
                                           std::span<const std::size_t> row_count,
                                           std::span<const std::size_t> col_count,
                                           std::size_t candidates = 0);

/// The sum of the assigned scores.
double assignment_total(std::span<const double> scores, std::size_t cols,
                        std::span<const std::size_t> assignment);

/// The sum of the scores of a grouped assignment (each pair counted `count` times).
double grouped_total(std::span<const double> scores, std::size_t col_groups,
                     std::span<const group_flow> flows);

}  // namespace sqlmorph::semantic
