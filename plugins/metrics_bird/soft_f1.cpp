#include "soft_f1.hpp"

#include <optional>
#include <unordered_map>

#include <sqlmorph/value.hpp>

#include "optimal_assignment.hpp"

namespace sqlmorph::bird {
namespace {

bool contains(std::span<const value> row, const value& v) {
  for (const value& x : row) {
    if (reference_equal(x, v)) return true;
  }
  return false;
}

// How many of `values` occur in `row`.
std::size_t found_in(std::span<const value> values, std::span<const value> row) {
  std::size_t found = 0;
  for (const value& v : values) found += contains(row, v) ? 1 : 0;
  return found;
}

// compare_rows(pred, gold).match alone (the same division): the share the optimal pairing
// maximizes, without counting the gold row's values in the predicted one.
double matched_share(std::span<const value> pred, std::span<const value> gold) {
  return static_cast<double>(found_in(pred, gold)) / static_cast<double>(gold.size());
}

// The row matchers' common start: repeated rows dropped on both sides.
struct distinct_sides {
  std::vector<std::size_t> gold;
  std::vector<std::size_t> pred;
};

distinct_sides distinct_of(const match_input& in) {
  return {distinct_rows(in.gold), distinct_rows(in.pred)};
}

}  // namespace

row_agreement compare_rows(std::span<const value> pred, std::span<const value> gold) {
  const std::size_t matches = found_in(pred, gold);
  const std::size_t truth_only = gold.size() - found_in(gold, pred);
  const auto columns = static_cast<double>(gold.size());
  return {static_cast<double>(matches) / columns, static_cast<double>(pred.size() - matches) / columns,
          static_cast<double>(truth_only) / columns};
}

std::vector<std::size_t> distinct_rows(const result& r) {
  std::vector<std::size_t> out;
  out.reserve(r.row_count());
  std::unordered_multimap<std::uint64_t, std::size_t> seen;
  seen.reserve(r.row_count());
  for (std::size_t i = 0; i < r.row_count(); ++i) {
    const std::uint64_t h = row_hash(r.row(i));
    bool repeated = false;
    for (auto [it, end] = seen.equal_range(h); it != end && !repeated; ++it)
      repeated = rows_equal(r.row(it->second), r.row(i));
    if (repeated) continue;
    seen.emplace(h, i);
    out.push_back(i);
  }
  return out;
}

cell_counts as_cell_counts(const soft_sums& s) {
  cell_counts c;
  c.matched = s.tp;
  c.gold_cells = s.tp + s.fn;
  c.pred_cells = s.tp + s.fp;
  c.pred_cells_aligned = c.pred_cells;
  return c;
}

row_match soft_positional_rows::do_match_(const match_input& in, const column_alignment&) const {
  const distinct_sides rows = distinct_of(in);
  // BIRD sums three lists in the order it appends to them: paired and gold-only rows, then
  // pred-only rows. Adding in that order gives the same floating-point sums.
  soft_sums s;
  for (std::size_t i = 0; i < rows.gold.size(); ++i) {
    if (i >= rows.pred.size()) {
      s.fn += 1;
      continue;
    }
    const row_agreement a = compare_rows(in.pred.row(rows.pred[i]), in.gold.row(rows.gold[i]));
    s.tp += a.match;
    s.fp += a.pred_only;
    s.fn += a.truth_only;
  }
  for (std::size_t j = rows.gold.size(); j < rows.pred.size(); ++j) s.fp += 1;
  row_match out;
  out.counts = as_cell_counts(s);
  return out;
}

soft_matched_rows::soft_matched_rows(const option_values& o) {
  max_cells_ = static_cast<std::size_t>(o.get_int_at_least("max_assignment_cells", 1));
}

row_match soft_matched_rows::do_match_(const match_input& in, const column_alignment&) const {
  const distinct_sides rows = distinct_of(in);
  row_match out;
  soft_sums s;
  const auto add = [&](std::size_t g, std::size_t p) {
    const row_agreement a = compare_rows(in.pred.row(p), in.gold.row(g));
    s.tp += a.match;
    s.fp += a.pred_only;
    s.fn += a.truth_only;
  };

  // Identical rows first: each such pair scores the most a pair can.
  std::unordered_multimap<std::uint64_t, std::size_t> pred_by_hash;
  for (std::size_t j = 0; j < rows.pred.size(); ++j)
    pred_by_hash.emplace(row_hash(in.pred.row(rows.pred[j])), j);
  std::vector<char> pred_used(rows.pred.size(), 0);
  std::vector<std::size_t> gold_left;
  for (const std::size_t g : rows.gold) {
    std::optional<std::size_t> twin;
    const auto gold_row = in.gold.row(g);
    for (auto [it, end] = pred_by_hash.equal_range(row_hash(gold_row)); it != end && !twin; ++it) {
      if (rows_equal(in.pred.row(rows.pred[it->second]), gold_row)) twin = it->second;
    }
    if (twin) {
      pred_used[*twin] = 1;
      add(g, rows.pred[*twin]);
    } else {
      gold_left.push_back(g);
    }
  }
  std::vector<std::size_t> pred_left;
  for (std::size_t j = 0; j < rows.pred.size(); ++j) {
    if (!pred_used[j]) pred_left.push_back(rows.pred[j]);
  }

  const std::size_t n = gold_left.size();
  const std::size_t m = pred_left.size();
  std::vector<std::size_t> pred_of(n, semantic::unassigned);
  if (n > 0 && m > 0 && n * m <= max_cells_) {
    std::vector<double> share(n * m);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < m; ++j)
        share[i * m + j] = matched_share(in.pred.row(pred_left[j]), in.gold.row(gold_left[i]));
    }
    pred_of = semantic::optimal_assignment(share, n, m);
  } else if (n > 0 && m > 0) {
    for (std::size_t i = 0; i < std::min(n, m); ++i) pred_of[i] = i;
    out.extra.emplace_back("pairing", std::string("positional"));
  }
  std::vector<char> paired(m, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (pred_of[i] == semantic::unassigned) {
      s.fn += 1;
      continue;
    }
    paired[pred_of[i]] = 1;
    add(gold_left[i], pred_left[pred_of[i]]);
  }
  for (std::size_t j = 0; j < m; ++j) {
    if (!paired[j]) s.fp += 1;
  }
  out.counts = as_cell_counts(s);
  return out;
}

scores soft_f1_scorer::do_score_(const match_input& in, const column_alignment&,
                                 const row_match& rows) const {
  scores out;
  out.ex = rows_set_equal(in.gold, in.pred) ? 1.0 : 0.0;
  out.extra = rows.extra;
  if (in.gold.row_count() == 0 && in.pred.row_count() == 0) {
    out.exp = out.exr = out.f1 = 1.0;
    return out;
  }
  const double tp = rows.counts.matched;
  const double tp_fp = rows.counts.pred_cells;
  const double tp_fn = rows.counts.gold_cells;
  const double precision = tp_fp > 0 ? tp / tp_fp : 0.0;
  const double recall = tp_fn > 0 ? tp / tp_fn : 0.0;
  out.exp = precision;
  out.exr = recall;
  out.f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
  return out;
}

}  // namespace sqlmorph::bird
