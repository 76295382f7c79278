#include "optimal_assignment.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

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

// What the assignment optimizes instead of a score: NaN and -infinity become the lowest finite
// score minus one, +infinity a huge finite number.
class score_cleaner {
 public:
  explicit score_cleaner(std::span<const double> scores) {
    for (const double s : scores) {
      if (std::isfinite(s)) lowest_ = std::min(lowest_, s);
    }
    if (lowest_ == std::numeric_limits<double>::max()) lowest_ = 0;
  }
  double operator()(double s) const {
    if (std::isnan(s) || s == -std::numeric_limits<double>::infinity()) return lowest_ - 1;
    if (s == std::numeric_limits<double>::infinity()) return std::numeric_limits<double>::max() / 4;
    return s;
  }

 private:
  double lowest_ = std::numeric_limits<double>::max();
};

// min_cost_rows where column j stands for capacity[j] identical columns: n unit rows (row i reads
// the costs of row group group_of[i] of the groups × m matrix `cost`), each added by a shortest
// augmenting path under the potentials u, v. Rows held by a column are tight (reduced cost 0), so
// when a full column is reached, all its rows join the search tree at its distance; a column with
// room ends the path. Columns fill up and never empty, and only full ones get a potential, which is
// the dual of the rectangular problem (columns with room at potential 0). Returns each row's column.
std::vector<std::size_t> min_cost_grouped(const std::vector<double>& cost,
                                          std::span<const std::size_t> group_of,
                                          std::span<const std::size_t> capacity) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = group_of.size();
  const std::size_t m = capacity.size();
  std::vector<double> u(n, 0.0);
  std::vector<double> v(m, 0.0);
  std::vector<std::vector<std::size_t>> held(m);  // the rows in each column
  std::vector<std::size_t> col_of(n, unassigned);
  std::vector<std::size_t> way(m, unassigned);  // way[j]: the tree row from which column j is reached
  std::vector<double> min_slack(m);
  std::vector<char> used(m);
  std::vector<std::size_t> tree;
  std::vector<std::size_t> pending;
  std::vector<std::size_t> used_columns;
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(min_slack.begin(), min_slack.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    used_columns.clear();
    tree.assign(1, i);
    pending.assign(1, i);
    std::size_t end = unassigned;
    while (end == unassigned) {
      for (const std::size_t r : pending) {
        const double* row = cost.data() + group_of[r] * m;
        const double ur = u[r];
        for (std::size_t j = 0; j < m; ++j) {
          if (used[j]) continue;
          const double slack = row[j] - ur - v[j];
          if (slack < min_slack[j]) {
            min_slack[j] = slack;
            way[j] = r;
          }
        }
      }
      pending.clear();
      double delta = inf;
      std::size_t j1 = unassigned;
      for (std::size_t j = 0; j < m; ++j) {
        if (!used[j] && min_slack[j] < delta) {
          delta = min_slack[j];
          j1 = j;
        }
      }
      if (j1 == unassigned)
        throw std::logic_error("grouped_assignment: no augmenting path (non-finite costs?)");
      for (const std::size_t r : tree) u[r] += delta;
      // As in min_cost_rows: the used columns' potentials move, every slack falls by delta (a used
      // column's is not read again for this row).
      for (const std::size_t j : used_columns) v[j] -= delta;
      for (std::size_t j = 0; j < m; ++j) min_slack[j] -= delta;
      if (held[j1].size() < capacity[j1]) {
        end = j1;
      } else {
        used[j1] = 1;
        used_columns.push_back(j1);
        for (const std::size_t r : held[j1]) {
          tree.push_back(r);
          pending.push_back(r);
        }
      }
    }
    // Along the path back to row i, each row moves into the column it reached; only `end` gains one.
    for (std::size_t j = end;;) {
      const std::size_t r = way[j];
      const std::size_t from = col_of[r];
      held[j].push_back(r);
      col_of[r] = j;
      if (from == unassigned) break;
      auto& rows_of_from = held[from];
      *std::find(rows_of_from.begin(), rows_of_from.end(), r) = rows_of_from.back();
      rows_of_from.pop_back();
      j = from;
    }
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

std::vector<group_flow> grouped_assignment(std::span<const double> scores,
                                           std::span<const std::size_t> row_count,
                                           std::span<const std::size_t> col_count) {
  const std::size_t row_groups = row_count.size();
  const std::size_t col_groups = col_count.size();
  if (scores.size() != row_groups * col_groups)
    throw std::invalid_argument("grouped_assignment: matrix size mismatch");
  std::size_t rows = 0;
  std::size_t cols = 0;
  for (const std::size_t c : row_count) rows += c;
  for (const std::size_t c : col_count) cols += c;
  if (std::find(row_count.begin(), row_count.end(), 0) != row_count.end() ||
      std::find(col_count.begin(), col_count.end(), 0) != col_count.end())
    throw std::invalid_argument("grouped_assignment: a group of no row or column");
  if (rows == 0 || cols == 0) return {};
  const score_cleaner clean(scores);
  // The smaller side (rows when the sides are equal, as optimal_assignment) is expanded into unit
  // rows; the groups of the other side are columns with a capacity.
  const bool transpose = rows > cols;
  const std::size_t unit_groups = transpose ? col_groups : row_groups;
  const std::size_t other_groups = transpose ? row_groups : col_groups;
  std::vector<double> cost(unit_groups * other_groups);
  for (std::size_t r = 0; r < row_groups; ++r) {
    for (std::size_t c = 0; c < col_groups; ++c) {
      const double k = -clean(scores[r * col_groups + c]);
      if (transpose)
        cost[c * row_groups + r] = k;
      else
        cost[r * col_groups + c] = k;
    }
  }
  const std::span<const std::size_t> unit_count = transpose ? col_count : row_count;
  std::vector<std::size_t> group_of;
  group_of.reserve(std::min(rows, cols));
  for (std::size_t g = 0; g < unit_groups; ++g) group_of.insert(group_of.end(), unit_count[g], g);
  const std::vector<std::size_t> col_of = min_cost_grouped(cost, group_of, transpose ? row_count : col_count);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (row group, column group) of each unit
  pairs.reserve(group_of.size());
  for (std::size_t i = 0; i < group_of.size(); ++i) {
    if (transpose)
      pairs.emplace_back(col_of[i], group_of[i]);
    else
      pairs.emplace_back(group_of[i], col_of[i]);
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<group_flow> out;
  for (const auto& [r, c] : pairs) {
    if (!out.empty() && out.back().row == r && out.back().col == c)
      ++out.back().count;
    else
      out.push_back({r, c, 1});
  }
  return out;
}

double grouped_total(std::span<const double> scores, std::size_t col_groups,
                     std::span<const group_flow> flows) {
  double total = 0;
  for (const group_flow& f : flows)
    total += static_cast<double>(f.count) * scores[f.row * col_groups + f.col];
  return total;
}

}  // namespace sqlmorph::semantic
