#include "optimal_assignment.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "score_cleaner.hpp"

namespace sqlmorph::semantic {
namespace {

// Minimum-cost assignment of every row of an n × m cost matrix (n <= m) to a distinct column:
// rows are added one by one, each by a shortest augmenting path under the potentials u, v
// (Kuhn–Munkres in the Jonker–Volgenant formulation). Returns the column of each row.
std::vector<std::size_t> min_cost_rows(const std::vector<double>& cost, std::size_t n, std::size_t m) {
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based: index 0 of the columns is the virtual start of each augmenting path.
  std::vector<double> u(n + 1, 0.0);
  std::vector<double> v(m + 1, 0.0);
  std::vector<std::size_t> row_of(m + 1, 0);  // row_of[j]: the row in column j (0: none)
  std::vector<std::size_t> way(m + 1, 0);
  std::vector<double> min_slack(m + 1);
  std::vector<char> used(m + 1);
  std::vector<std::size_t> used_columns;  // the columns with used[j], in the order they were reached
  for (std::size_t i = 1; i <= n; ++i) {
    row_of[0] = i;
    std::size_t j0 = 0;
    std::fill(min_slack.begin(), min_slack.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    used_columns.clear();
    do {
      used[j0] = 1;
      used_columns.push_back(j0);
      const std::size_t i0 = row_of[j0];
      const double* row = cost.data() + (i0 - 1) * m;  // column j is row[j - 1]
      const double ui0 = u[i0];
      double delta = inf;
      std::size_t j1 = 0;
      for (std::size_t j = 1; j <= m; ++j) {
        if (used[j]) continue;
        const double slack = row[j - 1] - ui0 - v[j];
        if (slack < min_slack[j]) {
          min_slack[j] = slack;
          way[j] = j0;
        }
        if (min_slack[j] < delta) {
          delta = min_slack[j];
          j1 = j;
        }
      }
      if (j1 == 0) throw std::logic_error("optimal_assignment: no augmenting path (non-finite costs?)");
      // The used columns' potentials move; every other column's slack falls by delta. (A used
      // column's min_slack is not read again for this row, so it may fall too: one loop without
      // a branch.)
      for (const std::size_t j : used_columns) {
        u[row_of[j]] += delta;
        v[j] -= delta;
      }
      for (std::size_t j = 0; j <= m; ++j) min_slack[j] -= delta;
      j0 = j1;
    } while (row_of[j0] != 0);
    do {  // flip the path
      const std::size_t j1 = way[j0];
      row_of[j0] = row_of[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<std::size_t> col_of(n, unassigned);
  for (std::size_t j = 1; j <= m; ++j) {
    if (row_of[j] != 0) col_of[row_of[j] - 1] = j - 1;
  }
  return col_of;
}

}  // namespace

std::vector<std::size_t> optimal_assignment(std::span<const double> scores, std::size_t rows,
                                            std::size_t cols) {
  if (scores.size() != rows * cols) throw std::invalid_argument("optimal_assignment: matrix size mismatch");
  std::vector<std::size_t> out(rows, unassigned);
  if (rows == 0 || cols == 0) return out;
  const score_cleaner clean(scores);
  // Every pair ties (results with no value in common: all shares 0): the search below would reach
  // the first free column from each row through tight ones, pairing row i with column i, in
  // O(n² m). That answer at once.
  const double first = clean(scores[0]);
  if (std::all_of(scores.begin(), scores.end(), [&](double s) { return clean(s) == first; })) {
    for (std::size_t r = 0; r < std::min(rows, cols); ++r) out[r] = r;
    return out;
  }
  // Maximizing scores = minimizing their negation; the smaller side is the one assigned in full.
  if (rows <= cols) {
    std::vector<double> cost(rows * cols);
    for (std::size_t i = 0; i < rows * cols; ++i) cost[i] = -clean(scores[i]);
    return min_cost_rows(cost, rows, cols);
  }
  std::vector<double> cost(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) cost[c * rows + r] = -clean(scores[r * cols + c]);
  }
  const std::vector<std::size_t> row_of_col = min_cost_rows(cost, cols, rows);
  for (std::size_t c = 0; c < cols; ++c) {
    if (row_of_col[c] != unassigned) out[row_of_col[c]] = c;
  }
  return out;
}

double assignment_total(std::span<const double> scores, std::size_t cols,
                        std::span<const std::size_t> assignment) {
  double total = 0;
  for (std::size_t r = 0; r < assignment.size(); ++r) {
    if (assignment[r] != unassigned) total += scores[r * cols + assignment[r]];
  }
  return total;
}

}  // namespace sqlmorph::semantic
