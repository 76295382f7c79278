#include "column_permutation.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include <sqlmorph/hash.hpp>

namespace sqlmorph::reference {
namespace {

// An order-independent digest of a multiset of 64-bit hashes (two independently mixed sums).
struct multiset_digest {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  void add(std::uint64_t h) noexcept {
    a += mix64(h ^ 0x243f6a8885a308d3ULL);
    b += mix64(h * 0x9e3779b97f4a7c15ULL + 0x13198a2e03707344ULL);
  }
  std::uint64_t value() const noexcept { return hash_combine(a, b); }
  bool operator==(const multiset_digest&) const = default;
};

std::vector<std::uint64_t> cell_hashes(const result& r, const value_equivalence& eq) {
  std::vector<std::uint64_t> h(r.cells().size());
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = eq.hash(r.cells()[i]);
  return h;
}

// Column colors after two rounds of refinement (see the header). Identical for columns that a
// column bijection could map onto each other.
std::vector<std::uint64_t> column_colors(const std::vector<std::uint64_t>& cells, std::size_t rows,
                                         std::size_t cols) {
  std::vector<std::uint64_t> color(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    multiset_digest d;
    for (std::size_t r = 0; r < rows; ++r) d.add(cells[r * cols + c]);
    color[c] = d.value();
  }
  std::vector<std::uint64_t> row_color(rows);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t r = 0; r < rows; ++r) {
      multiset_digest d;
      for (std::size_t c = 0; c < cols; ++c) d.add(hash_combine(color[c], cells[r * cols + c]));
      row_color[r] = d.value();
    }
    for (std::size_t c = 0; c < cols; ++c) {
      multiset_digest d;
      for (std::size_t r = 0; r < rows; ++r) d.add(hash_combine(row_color[r], cells[r * cols + c]));
      color[c] = hash_combine(color[c], d.value());
    }
  }
  return color;
}

bool ordered_permutable(const result& gold, const result& pred, const value_equivalence& eq) {
  const std::size_t rows = gold.row_count();
  const std::size_t cols = gold.column_count();
  const auto column_hash = [&](const result& r, std::size_t c) {
    std::uint64_t h = 0x636f6c756d6eULL;
    for (std::size_t i = 0; i < rows; ++i) h = hash_combine(h, eq.hash(r.cell(i, c)));
    return h;
  };
  std::vector<std::uint64_t> gh(cols);
  std::vector<std::uint64_t> ph(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    gh[c] = column_hash(gold, c);
    ph[c] = column_hash(pred, c);
  }
  // Sequence equality is an equivalence, so giving each gold column the first unused equal pred
  // column finds a bijection whenever one exists.
  std::vector<char> used(cols, 0);
  for (std::size_t g = 0; g < cols; ++g) {
    bool found = false;
    for (std::size_t p = 0; p < cols && !found; ++p) {
      if (used[p] || gh[g] != ph[p]) continue;
      bool same = true;
      for (std::size_t r = 0; r < rows && same; ++r) same = eq.equal(gold.cell(r, g), pred.cell(r, p));
      if (same) {
        used[p] = 1;
        found = true;
      }
    }
    if (!found) return false;
  }
  return true;
}

class unordered_search {
 public:
  unordered_search(const result& gold, const result& pred, const value_equivalence& eq)
      : gold_(gold),
        pred_(pred),
        eq_(eq),
        rows_(gold.row_count()),
        cols_(gold.column_count()),
        gold_cells_(cell_hashes(gold, eq)),
        pred_cells_(cell_hashes(pred, eq)) {}

  bool run() {
    const auto gold_colors = column_colors(gold_cells_, rows_, cols_);
    const auto pred_colors = column_colors(pred_cells_, rows_, cols_);
    {
      auto a = gold_colors;
      auto b = pred_colors;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a != b) return false;
    }
    candidates_.assign(cols_, {});
    for (std::size_t g = 0; g < cols_; ++g) {
      for (std::size_t p = 0; p < cols_; ++p) {
        if (gold_colors[g] == pred_colors[p]) candidates_[g].push_back(p);
      }
    }
    // Most constrained gold columns first.
    order_.resize(cols_);
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) {
      return candidates_[x].size() < candidates_[y].size();
    });
    // The gold side's running row hashes are fixed by the order: keep one digest per depth.
    gold_digest_.resize(cols_ + 1);
    std::vector<std::uint64_t> running(rows_, 0x726f77ULL);
    for (std::size_t d = 0; d < cols_; ++d) {
      multiset_digest dg;
      for (std::size_t r = 0; r < rows_; ++r) {
        running[r] = hash_combine(running[r], gold_cells_[r * cols_ + order_[d]]);
        dg.add(running[r]);
      }
      gold_digest_[d + 1] = dg;
    }
    gold_row_hash_ = std::move(running);
    pred_running_.assign(cols_ + 1, {});
    pred_running_[0].assign(rows_, 0x726f77ULL);
    assignment_.assign(cols_, 0);
    used_.assign(cols_, 0);
    return search(0);
  }

 private:
  bool search(std::size_t depth) {
    if (depth == cols_) return verify();
    const std::size_t g = order_[depth];
    std::vector<std::uint64_t>& next = pred_running_[depth + 1];
    next.resize(rows_);
    for (const std::size_t p : candidates_[g]) {
      if (used_[p]) continue;
      multiset_digest dp;
      const std::vector<std::uint64_t>& prev = pred_running_[depth];
      for (std::size_t r = 0; r < rows_; ++r) {
        next[r] = hash_combine(prev[r], pred_cells_[r * cols_ + p]);
        dp.add(next[r]);
      }
      if (!(dp == gold_digest_[depth + 1])) continue;
      used_[p] = 1;
      assignment_[g] = p;
      if (search(depth + 1)) return true;
      used_[p] = 0;
    }
    return false;
  }

  // Exact multiset equality of gold rows and predicted rows under the assignment.
  bool verify() const {
    const std::vector<std::uint64_t>& pred_row_hash = pred_running_[cols_];
    std::unordered_multimap<std::uint64_t, std::size_t> unmatched_gold;
    unmatched_gold.reserve(rows_);
    for (std::size_t r = 0; r < rows_; ++r) unmatched_gold.emplace(gold_row_hash_[r], r);
    for (std::size_t r = 0; r < rows_; ++r) {
      auto [first, last] = unmatched_gold.equal_range(pred_row_hash[r]);
      bool found = false;
      for (auto it = first; it != last; ++it) {
        bool same = true;
        for (std::size_t c = 0; c < cols_ && same; ++c)
          same = eq_.equal(gold_.cell(it->second, c), pred_.cell(r, assignment_[c]));
        if (same) {
          unmatched_gold.erase(it);
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }

  const result& gold_;
  const result& pred_;
  const value_equivalence& eq_;
  std::size_t rows_;
  std::size_t cols_;
  std::vector<std::uint64_t> gold_cells_;
  std::vector<std::uint64_t> pred_cells_;
  std::vector<std::vector<std::size_t>> candidates_;
  std::vector<std::size_t> order_;
  std::vector<multiset_digest> gold_digest_;
  std::vector<std::uint64_t> gold_row_hash_;
  std::vector<std::vector<std::uint64_t>> pred_running_;
  std::vector<std::size_t> assignment_;
  std::vector<char> used_;
};

}  // namespace

bool columns_permutable(const result& gold, const result& pred, bool ordered, const value_equivalence& eq) {
  if (gold.row_count() != pred.row_count() || gold.column_count() != pred.column_count()) return false;
  if (gold.row_count() == 0) return true;
  if (ordered) return ordered_permutable(gold, pred, eq);
  return unordered_search(gold, pred, eq).run();
}

}  // namespace sqlmorph::reference
