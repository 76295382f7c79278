// grouped_assignment (optimal_assignment.hpp): the assignment of rows and columns that come in
// groups of identical ones, as a transportation problem — over every pair for small matrices, over
// a few candidate pairs per group certified optimal by LP duality for large ones.

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "optimal_assignment.hpp"
#include "score_cleaner.hpp"

namespace sqlmorph::semantic {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// The columns each unit group may be assigned to, group g's at cols[start[g], start[g + 1]).
// (Each column's cost is kept beside it: a search reads the lists from start to end.)
struct candidate_lists {
  std::vector<std::size_t> start;
  std::vector<std::size_t> cols;
  std::vector<double> costs;
};

// The transportation problem: n unit rows (row i reads the costs of group group_of[i] of the
// groups × m matrix `cost`) into m columns, column j holding up to capacity[j] rows, at least cost.
// Rows are added one by one, each by a shortest augmenting path under the potentials u, v
// (Dijkstra's, with the potentials applied lazily as in Crouse 2016 and SciPy's
// linear_sum_assignment). Rows held by a column are tight (reduced cost 0), so when a full column
// is reached, all its rows join the search tree at its distance; a column with room ends the path.
// Columns fill up and never empty, and only full ones get a potential: u, v are the dual of the
// problem (v ≤ 0, and 0 where a column has room).
class transport_solver {
 public:
  transport_solver(const std::vector<double>& cost, std::span<const std::size_t> group_of,
                   std::span<const std::size_t> capacity)
      : cost_(cost),
        group_of_(group_of),
        capacity_(capacity),
        m_(capacity.size()),
        u_(group_of.size(), 0.0),
        v_(capacity.size(), 0.0),
        held_(capacity.size()),
        col_of_(group_of.size(), unassigned),
        way_(capacity.size(), unassigned),
        dist_(capacity.size(), inf),
        best_offset_(group_of.empty() ? 0 : *std::max_element(group_of.begin(), group_of.end()) + 1, inf) {}

  // Over every pair.
  void solve_dense() {
    solve_([this](std::size_t r, double base) {
      const double* row = cost_.data() + group_of_[r] * m_;
      for (std::size_t j = 0; j < m_; ++j) relax_(j, base + row[j] - v_[j], r);
    });
  }

  // Over the candidate pairs only, which must hold a full assignment of the rows (so that every
  // search finds a path).
  void solve_sparse(const candidate_lists& candidates) {
    solve_([this, &candidates](std::size_t r, double base) {
      const std::size_t g = group_of_[r];
      for (std::size_t k = candidates.start[g]; k < candidates.start[g + 1]; ++k) {
        const std::size_t j = candidates.cols[k];
        relax_(j, base + candidates.costs[k] - v_[j], r);
      }
    });
  }

  const std::vector<std::size_t>& col_of() const noexcept { return col_of_; }
  const std::vector<double>& u() const noexcept { return u_; }
  const std::vector<double>& v() const noexcept { return v_; }

 private:
  // The searches, one per unit row: `scan(r, base)` relaxes the pairs of tree row r, column j at
  // distance base + cost − v[j]. The nearest column not reached yet comes from a heap (entries
  // superseded by a shorter distance are skipped); a column reached has distance −infinity until
  // the search ends (its own is in reached_), so no scan changes it. Only the columns a search
  // touched are reset after it.
  template <class Scan>
  void solve_(const Scan& scan) {
    for (std::size_t i = 0; i < group_of_.size(); ++i) {
      reached_.clear();
      pending_.assign(1, i);
      for (const std::size_t g : scanned_groups_) best_offset_[g] = inf;
      scanned_groups_.clear();
      double at = 0;  // the distance of the last column reached: where pending rows join
      std::size_t end = unassigned;
      while (end == unassigned) {
        for (const std::size_t r : pending_) {
          if (worth_scanning_(r, at)) scan(r, at - u_[r]);
        }
        pending_.clear();
        while (!heap_.empty() && heap_.front().first != dist_[heap_.front().second]) {
          std::pop_heap(heap_.begin(), heap_.end(), farther);
          heap_.pop_back();
        }
        if (heap_.empty()) throw std::logic_error("grouped_assignment: no augmenting path");
        const auto [d, j] = heap_.front();
        std::pop_heap(heap_.begin(), heap_.end(), farther);
        heap_.pop_back();
        at = d;
        dist_[j] = -inf;
        if (held_[j].size() < capacity_[j]) {
          end = j;
        } else {
          reached_.emplace_back(j, d);
          pending_.insert(pending_.end(), held_[j].begin(), held_[j].end());
        }
      }
      settle_(i, end, at);
      for (const std::size_t j : touched_) dist_[j] = inf;
      touched_.clear();
      heap_.clear();
    }
  }

  void relax_(std::size_t j, double d, std::size_t r) {
    if (d < dist_[j]) {
      if (dist_[j] == inf) touched_.push_back(j);
      dist_[j] = d;
      way_[j] = r;
      heap_.emplace_back(d, j);
      std::push_heap(heap_.begin(), heap_.end(), farther);
    }
  }

  static bool farther(const std::pair<double, std::size_t>& a, const std::pair<double, std::size_t>& b) {
    return a > b;
  }

  // Rows of one group read the same costs: a tree row r gives column j the distance
  // (at − u[r]) + cost − v[j], so a row whose offset at − u[r] is no lower than that of a row of
  // its group scanned earlier in this search can improve no distance (the columns still open were
  // open then too), and is not scanned.
  bool worth_scanning_(std::size_t r, double at) {
    const std::size_t g = group_of_[r];
    const double offset = at - u_[r];
    if (offset >= best_offset_[g]) return false;
    if (best_offset_[g] == inf) scanned_groups_.push_back(g);
    best_offset_[g] = offset;
    return true;
  }

  // The search from row i ended at column `end`, at distance `at`. Each tree row and reached column
  // moves by how much nearer than the end it was reached (row i by the whole distance), which keeps
  // every reduced cost ≥ 0 and makes the path tight; then, along the path back to row i, each row
  // moves into the column it reached, and only `end` gains one.
  void settle_(std::size_t i, std::size_t end, double at) {
    u_[i] += at;
    for (const auto& [j, distance] : reached_) {
      const double moved = at - distance;
      v_[j] -= moved;
      for (const std::size_t r : held_[j]) u_[r] += moved;
    }
    for (std::size_t j = end;;) {
      const std::size_t r = way_[j];
      const std::size_t from = col_of_[r];
      held_[j].push_back(r);
      col_of_[r] = j;
      if (from == unassigned) break;
      auto& rows_of_from = held_[from];
      *std::find(rows_of_from.begin(), rows_of_from.end(), r) = rows_of_from.back();
      rows_of_from.pop_back();
      j = from;
    }
  }

  const std::vector<double>& cost_;
  std::span<const std::size_t> group_of_;
  std::span<const std::size_t> capacity_;
  std::size_t m_;
  std::vector<double> u_;
  std::vector<double> v_;
  std::vector<std::vector<std::size_t>> held_;  // the rows in each column
  std::vector<std::size_t> col_of_;
  std::vector<std::size_t> way_;  // way_[j]: the tree row from which column j was reached
  std::vector<double> dist_;      // each column's distance from the row being added
  // The full columns reached, whose rows joined the tree, and their distances.
  std::vector<std::pair<std::size_t, double>> reached_;
  std::vector<std::size_t> pending_;  // tree rows not scanned yet
  std::vector<double> best_offset_;   // per group, the lowest offset scanned in this search
  std::vector<std::size_t> scanned_groups_;
  std::vector<std::size_t> touched_;  // the columns whose distance is set
  std::vector<std::pair<double, std::size_t>> heap_;
};

candidate_lists pack(const std::vector<double>& cost, std::size_t m,
                     const std::vector<std::vector<std::size_t>>& per_group) {
  candidate_lists out;
  out.start.reserve(per_group.size() + 1);
  out.start.push_back(0);
  for (std::size_t g = 0; g < per_group.size(); ++g) {
    for (const std::size_t j : per_group[g]) {
      out.cols.push_back(j);
      out.costs.push_back(cost[g * m + j]);
    }
    out.start.push_back(out.cols.size());
  }
  return out;
}

// Each unit group's `k` cheapest columns, and the column a greedy pass gives each unit row (each
// takes the cheapest column with room — among its group's cheapest when one has room, which is
// then listed already), so that the candidates hold a full assignment.
std::vector<std::vector<std::size_t>> first_candidates(const std::vector<double>& cost,
                                                       std::span<const std::size_t> group_of,
                                                       std::span<const std::size_t> capacity,
                                                       std::size_t groups, std::size_t k) {
  const std::size_t m = capacity.size();
  const std::size_t take = std::min(k, m);
  std::vector<std::vector<std::size_t>> per_group(groups);
  std::vector<std::pair<double, std::size_t>> kept;  // a max-heap of the `take` cheapest so far
  for (std::size_t g = 0; g < groups; ++g) {
    const double* row = cost.data() + g * m;
    kept.clear();
    for (std::size_t j = 0; j < m; ++j) {
      if (kept.size() < take) {
        kept.emplace_back(row[j], j);
        std::push_heap(kept.begin(), kept.end());
      } else if (row[j] < kept.front().first) {  // (ties: the lower column stays)
        std::pop_heap(kept.begin(), kept.end());
        kept.back() = {row[j], j};
        std::push_heap(kept.begin(), kept.end());
      }
    }
    for (const auto& [c, j] : kept) per_group[g].push_back(j);
  }
  std::vector<std::size_t> room(capacity.begin(), capacity.end());
  for (const std::size_t g : group_of) {
    const double* row = cost.data() + g * m;
    std::size_t best = unassigned;
    for (const std::size_t j : per_group[g]) {
      if (room[j] > 0 && (best == unassigned || row[j] < row[best])) best = j;
    }
    if (best == unassigned) {
      for (std::size_t j = 0; j < m; ++j) {
        if (room[j] > 0 && (best == unassigned || row[j] < row[best])) best = j;
      }
      per_group[g].push_back(best);
    }
    --room[best];
  }
  for (auto& cols : per_group) {
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  }
  return per_group;
}

// LP duality: the candidates' optimum is the optimum of every pair when no pair left out has a
// negative reduced cost cost − u − v (beyond `tolerance`, for rounding). Adds such pairs to the
// candidates, at most `most` per group, doubled for each earlier round in which the group had
// some (the most negative: a few rounds of the duals' advice keep the candidates small, where
// adding every such pair at once listed half the matrix); returns how many. (Rows of a group share their
// costs: the group's largest u gives its least reduced costs.)
std::size_t add_violations(const std::vector<double>& cost, std::span<const std::size_t> group_of,
                           const transport_solver& solved, double tolerance, std::size_t most,
                           std::vector<unsigned>& strikes, std::vector<std::vector<std::size_t>>& per_group) {
  const std::size_t m = solved.v().size();
  std::vector<double> u_max(per_group.size(), -inf);
  for (std::size_t i = 0; i < group_of.size(); ++i)
    u_max[group_of[i]] = std::max(u_max[group_of[i]], solved.u()[i]);
  std::vector<char> listed(m, 0);
  std::size_t added = 0;
  const double* v = solved.v().data();
  for (std::size_t g = 0; g < per_group.size(); ++g) {
    // Pair (g, j) violates when cost − v[j] < u_max − tolerance. Most groups have none once the
    // candidates are nearly right: a pass without branches tells.
    const double* row = cost.data() + g * m;
    const double below = u_max[g] - tolerance;
    bool any = false;
    for (std::size_t j = 0; j < m; ++j) any |= row[j] - v[j] < below;
    if (!any) continue;
    auto& cols = per_group[g];
    for (const std::size_t j : cols) listed[j] = 1;
    const std::size_t before = cols.size();
    for (std::size_t j = 0; j < m; ++j) {
      if (row[j] - v[j] < below && !listed[j]) cols.push_back(j);
    }
    for (std::size_t k = 0; k < before; ++k) listed[cols[k]] = 0;
    // The `most` most negative only, doubled for each round the group violated before.
    const std::size_t allowed = most << std::min(strikes[g]++, 20u);
    if (cols.size() > before + allowed) {
      const auto more_negative = [&](std::size_t a, std::size_t b) {
        const double ra = row[a] - v[a];
        const double rb = row[b] - v[b];
        return ra < rb || (ra == rb && a < b);
      };
      std::nth_element(cols.begin() + static_cast<std::ptrdiff_t>(before),
                       cols.begin() + static_cast<std::ptrdiff_t>(before + allowed), cols.end(),
                       more_negative);
      cols.resize(before + allowed);
    }
    if (cols.size() > before) {
      added += cols.size() - before;
      std::sort(cols.begin(), cols.end());
    }
  }
  return added;
}

// Below this many pairs the search over every pair is fast enough; above it, when the matrix has
// several times more column groups than candidates, the candidate search is used, and gives way to
// the search over every pair if its rounds or candidates keep growing.
constexpr std::size_t dense_pairs = 256 * 256;
constexpr std::size_t default_candidates = 16;
constexpr int max_rounds = 40;
// Costs beyond this size leave no meaningful rounding tolerance (an infinite score counts as
// max / 4): the search over every pair then.
constexpr double largest_certified_cost = 1e6;

std::vector<std::size_t> solve_transport(const std::vector<double>& cost,
                                         std::span<const std::size_t> group_of,
                                         std::span<const std::size_t> capacity, std::size_t groups,
                                         std::size_t candidates) {
  const std::size_t m = capacity.size();
  double largest = 0;
  for (const double c : cost) largest = std::max(largest, std::abs(c));
  const bool automatic = candidates == 0;
  const std::size_t k = automatic ? default_candidates : candidates;
  const auto over_every_pair = [&] {
    transport_solver solver(cost, group_of, capacity);
    solver.solve_dense();
    return solver.col_of();
  };
  const bool sparse =
      largest <= largest_certified_cost && (!automatic || (groups * m >= dense_pairs && m >= 4 * k));
  if (!sparse) return over_every_pair();
  const double tolerance = 1e-12 * std::max(1.0, largest);
  std::vector<std::vector<std::size_t>> per_group = first_candidates(cost, group_of, capacity, groups, k);
  std::vector<unsigned> strikes(groups, 0);
  for (int round = 0;; ++round) {
    transport_solver solver(cost, group_of, capacity);
    solver.solve_sparse(pack(cost, m, per_group));
    if (add_violations(cost, group_of, solver, tolerance, k, strikes, per_group) == 0) return solver.col_of();
    std::size_t listed = 0;
    for (const auto& cols : per_group) listed += cols.size();
    // Candidates that keep growing cost more than they save: every pair then.
    if (automatic && (round >= max_rounds || listed * 4 > groups * m)) return over_every_pair();
  }
}

}  // namespace

std::vector<group_flow> grouped_assignment(std::span<const double> scores,
                                           std::span<const std::size_t> row_count,
                                           std::span<const std::size_t> col_count, std::size_t candidates) {
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
  const std::vector<std::size_t> col_of =
      solve_transport(cost, group_of, transpose ? row_count : col_count, unit_groups, candidates);
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
