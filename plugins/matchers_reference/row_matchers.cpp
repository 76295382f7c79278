#include "row_matchers.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include <sqlmorph/hash.hpp>
#include <sqlmorph/sql_lexer.hpp>

#include "column_permutation.hpp"
#include "exact_cells.hpp"
#include "greedy_overlap.hpp"
#include "hash_slots.hpp"
#include "projected_rows.hpp"
#include "value_interner.hpp"

namespace sqlmorph::reference {
namespace {

double share_of_positions(std::uint32_t a, std::uint32_t gold_size, std::uint32_t) {
  return static_cast<double>(a) / static_cast<double>(gold_size);
}

double jaccard(std::uint32_t a, std::uint32_t gold_size, std::uint32_t pred_size) {
  return static_cast<double>(a) / static_cast<double>(gold_size + pred_size - a);
}

void set_cell_totals(row_match& out, const result& gold, const result& pred, std::size_t aligned) {
  out.counts.gold_cells = static_cast<double>(gold.row_count() * gold.column_count());
  out.counts.pred_cells = static_cast<double>(pred.row_count() * pred.column_count());
  out.counts.pred_cells_aligned = static_cast<double>(pred.row_count() * aligned);
}

}  // namespace

value_equivalence equivalence_of(const std::shared_ptr<const cell_matcher>& cells, const char* who) {
  if (!cells || dynamic_cast<const exact_cells*>(cells.get()) != nullptr) return value_equivalence();
  if (!cells->is_equivalence()) {
    throw std::invalid_argument(std::string(who) +
                                " needs a cell matcher that is an equivalence (such as 'exact')");
  }
  return value_equivalence(cells);
}

// --- set_equality ---------------------------------------------------------------------------

set_equality_rows::set_equality_rows(const option_values& o)
    : eq_(equivalence_of(o.get_component<cell_matcher>("cells"), "set_equality")) {}

row_match set_equality_rows::do_match_(const match_input& in, const column_alignment& columns) const {
  row_match out;
  if (in.gold.row_count() == 0 || in.pred.row_count() == 0) {
    out.equivalent = in.gold.row_count() == in.pred.row_count();
    return out;
  }
  const std::size_t k = columns.pairs.size();
  if (k != in.gold.column_count() || k != in.pred.column_count()) {
    out.equivalent = false;  // some column has no counterpart: rows differ in width or content
    return out;
  }
  const auto read = [&](std::uint64_t key, std::size_t p) -> const value& {
    return key_side(key) == 0 ? in.gold.cell(key_row(key), columns.pairs[p].gold)
                              : in.pred.cell(key_row(key), columns.pairs[p].pred);
  };
  tuple_interner tuples(eq_, k, read, std::max(in.gold.row_count(), in.pred.row_count()));
  std::vector<char> in_gold;
  std::vector<char> in_pred;
  const auto mark = [&](const result& r, int side, std::vector<char>& seen) {
    for (std::size_t row = 0; row < r.row_count(); ++row) {
      const auto id = tuples.intern(tuple_key(side, row));
      if (id >= seen.size()) seen.resize(id + 1, 0);
      seen[id] = 1;
    }
  };
  mark(in.gold, 0, in_gold);
  mark(in.pred, 1, in_pred);
  in_gold.resize(tuples.size(), 0);
  in_pred.resize(tuples.size(), 0);
  out.equivalent = in_gold == in_pred;
  return out;
}

// --- multiset -------------------------------------------------------------------------------

multiset_rows::multiset_rows(const option_values& o)
    : eq_(equivalence_of(o.get_component<cell_matcher>("cells"), "multiset")) {}

row_match multiset_rows::do_match_(const match_input& in, const column_alignment& columns) const {
  row_match out;
  const std::size_t k = columns.pairs.size();
  set_cell_totals(out, in.gold, in.pred, k);
  if (k == 0) return out;
  const projected_intersection common = intersect_projected_rows(in.gold, in.pred, columns.pairs, eq_);
  out.counts.matched = static_cast<double>(k * common.common_rows);
  return out;
}

// --- greedy_partial -------------------------------------------------------------------------

greedy_partial_rows::greedy_partial_rows(const option_values& o)
    : cells_(o.get_component<cell_matcher>("cells")), equivalence_(cells_ && cells_->is_equivalence()) {
  if (equivalence_) eq_ = equivalence_of(cells_, "greedy_partial");
}

row_match greedy_partial_rows::do_match_(const match_input& in, const column_alignment& columns) const {
  row_match out;
  const std::size_t k = columns.pairs.size();
  set_cell_totals(out, in.gold, in.pred, k);
  if (k == 0) return out;
  const auto kd = static_cast<double>(k);

  if (equivalence_) {
    const projected_intersection common = intersect_projected_rows(in.gold, in.pred, columns.pairs, eq_);
    // Accumulated exactly as the reference does: the exact part as an integer, then each greedy
    // pick's (equal cells / |common|) · |common| in pick order.
    double matched = static_cast<double>(k * common.common_rows);
    item_sets gold_sets;
    item_sets pred_sets;
    projected_item_sets(in.gold, common.gold_leftover, in.pred, common.pred_leftover, columns.pairs, eq_,
                        gold_sets, pred_sets);
    for (const overlap_pick& pick : greedy_overlap_match(gold_sets, pred_sets, &share_of_positions)) {
      matched += static_cast<double>(pick.overlap) / kd * kd;
    }
    out.counts.matched = matched;
    return out;
  }

  // A similarity cell matcher: score every pair by its mean cell similarity; pairs never change
  // score, so taking them in (score desc, gold row, pred row) order is the reference's greedy.
  struct scored_pair {
    double score;
    std::uint32_t gold;
    std::uint32_t pred;
  };
  std::vector<scored_pair> pairs;
  for (std::uint32_t g = 0; g < in.gold.row_count(); ++g) {
    for (std::uint32_t p = 0; p < in.pred.row_count(); ++p) {
      double sum = 0;
      for (const column_pair& c : columns.pairs)
        sum += cells_->similarity(in.gold.cell(g, c.gold), in.pred.cell(p, c.pred));
      if (sum > 0) pairs.push_back({sum / kd, g, p});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const scored_pair& a, const scored_pair& b) { return a.score > b.score; });
  std::vector<char> gold_used(in.gold.row_count(), 0);
  std::vector<char> pred_used(in.pred.row_count(), 0);
  double matched = 0;
  for (const scored_pair& p : pairs) {
    if (gold_used[p.gold] || pred_used[p.pred]) continue;
    gold_used[p.gold] = pred_used[p.pred] = 1;
    matched += p.score * kd;
  }
  out.counts.matched = matched;
  return out;
}

// --- value_set_partial ----------------------------------------------------------------------

namespace {

// True when str(a) == str(b), given `a_text` = str(a). Values of one kind compare directly (floats by
// bits, as repr tells every double apart except NaNs, which all print "nan"); only values of
// different kinds (1 and "1") are rendered.
bool same_python_str(const value& a, std::string_view a_text, const value& b, std::string& scratch) {
  if (a.kind() == b.kind()) {
    switch (a.kind()) {
      case value_kind::null:
        return true;
      case value_kind::integer:
        return a.as_integer() == b.as_integer();
      case value_kind::real: {
        const double x = a.as_real();
        const double y = b.as_real();
        return (x != x && y != y) || std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
      }
      default:
        return a.bytes() == b.bytes();
    }
  }
  scratch.clear();
  append_python_str(scratch, b);
  return scratch == a_text;
}

// Every row as the set of str() of its values, as token ids shared by both results. A token is
// remembered by the first cell that produced it (8 bytes), not by its text.
void python_str_item_sets(const result& gold, const result& pred, item_sets& gold_sets,
                          item_sets& pred_sets) {
  std::vector<const value*> first_cell;
  hash_slots token_ids(std::max(gold.row_count(), pred.row_count()));  // grows as tokens appear
  std::string text;
  std::string scratch;
  const auto build = [&](const result& r, item_sets& sets) {
    sets.reserve(r.row_count(), r.cells().size());
    for (std::size_t row = 0; row < r.row_count(); ++row) {
      for (const value& v : r.row(row)) {
        text.clear();
        append_python_str(text, v);
        const std::uint64_t h = hash_bytes(text);
        std::uint32_t id = token_ids.find(
            h, [&](std::uint32_t known) { return same_python_str(v, text, *first_cell[known], scratch); });
        if (id == hash_slots::empty) {
          id = static_cast<std::uint32_t>(first_cell.size());
          first_cell.push_back(&v);
          token_ids.insert(h, id);
        }
        sets.push_item(id);
      }
      sets.close_set(true);
    }
  };
  build(gold, gold_sets);
  build(pred, pred_sets);
}

}  // namespace

row_match value_set_partial_rows::do_match_(const match_input& in, const column_alignment&) const {
  item_sets gold;
  item_sets pred;
  python_str_item_sets(in.gold, in.pred, gold, pred);  // the token index is freed before matching

  row_match out;
  out.counts.gold_cells = static_cast<double>(gold.total_items());
  out.counts.pred_cells = static_cast<double>(pred.total_items());

  // Phase A: each gold row, in order, takes the first unused predicted row with an equal set.
  // Predicted rows are grouped by set: groups numbered in order of first appearance, and each
  // group's rows, ascending, in one array (`members`, group g at [group_start[g], group_start[g+1])).
  const auto set_hash = [](item_set s) {
    std::uint64_t h = 0x736574ULL ^ s.size();
    for (const std::uint32_t item : s) h = hash_combine(h, item);
    return h;
  };
  std::vector<std::uint32_t> group_first;  // group -> its first predicted row
  std::vector<std::uint32_t> group_of_row(pred.size());
  hash_slots group_index(pred.size());
  for (std::uint32_t j = 0; j < pred.size(); ++j) {
    const std::uint64_t h = set_hash(pred[j]);
    std::uint32_t g = group_index.find(
        h, [&](std::uint32_t known) { return std::ranges::equal(pred[group_first[known]], pred[j]); });
    if (g == hash_slots::empty) {
      g = static_cast<std::uint32_t>(group_first.size());
      group_first.push_back(j);
      group_index.insert(h, g);
    }
    group_of_row[j] = g;
  }
  std::vector<std::uint32_t> group_start(group_first.size() + 1, 0);
  for (const std::uint32_t g : group_of_row) ++group_start[g + 1];
  for (std::size_t g = 0; g < group_first.size(); ++g) group_start[g + 1] += group_start[g];
  std::vector<std::uint32_t> members(pred.size());
  {
    std::vector<std::uint32_t> fill(group_start.begin(), group_start.end() - 1);
    for (std::uint32_t j = 0; j < pred.size(); ++j) members[fill[group_of_row[j]]++] = j;
  }
  group_of_row = {};
  std::vector<std::uint32_t> next_in_group(group_start.begin(), group_start.end() - 1);
  std::vector<char> gold_done(gold.size(), 0);
  std::vector<char> pred_done(pred.size(), 0);
  std::uint64_t credit = 0;
  for (std::uint32_t i = 0; i < gold.size(); ++i) {
    const std::uint32_t g = group_index.find(set_hash(gold[i]), [&](std::uint32_t known) {
      return std::ranges::equal(pred[group_first[known]], gold[i]);
    });
    if (g == hash_slots::empty || next_in_group[g] == group_start[g + 1]) continue;
    pred_done[members[next_in_group[g]++]] = 1;
    gold_done[i] = 1;
    credit += gold[i].size();
  }

  // Phase B: leftovers in their original order, greedily by Jaccard similarity.
  item_sets gold_left;
  item_sets pred_left;
  for (std::uint32_t i = 0; i < gold.size(); ++i) {
    if (!gold_done[i]) gold_left.append(gold[i]);
  }
  for (std::uint32_t j = 0; j < pred.size(); ++j) {
    if (!pred_done[j]) pred_left.append(pred[j]);
  }
  for (const overlap_pick& pick : greedy_overlap_match(gold_left, pred_left, &jaccard))
    credit += pick.overlap;

  out.counts.matched = static_cast<double>(credit);
  out.counts.pred_cells_aligned = static_cast<double>(credit);
  return out;
}

// --- permutation_equivalence ----------------------------------------------------------------

namespace {
permutation_equivalence_rows::order_rule parse_order_rule(const std::string& s) {
  using rule = permutation_equivalence_rows::order_rule;
  if (s == "sql_substring") return rule::sql_substring;
  if (s == "sql_tokens") return rule::sql_tokens;
  if (s == "never") return rule::never;
  if (s == "always") return rule::always;
  throw std::invalid_argument("order_rule must be sql_substring, sql_tokens, never or always, not '" + s +
                              "'");
}

bool contains_order_by_substring(std::string_view sql) {
  // Python: 'order by' in sql.lower() — only ASCII letters can lower-case into "order by".
  static constexpr std::string_view needle = "order by";
  if (sql.size() < needle.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= sql.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < needle.size() && match; ++k) {
      char c = sql[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      match = c == needle[k];
    }
    if (match) return true;
  }
  return false;
}
}  // namespace

permutation_equivalence_rows::permutation_equivalence_rows(const option_values& o)
    : order_(parse_order_rule(o.get_string("order_rule"))),
      quick_reject_(o.get_bool("quick_reject")),
      eq_(equivalence_of(o.get_component<cell_matcher>("cells"), "permutation_equivalence")) {}

row_match permutation_equivalence_rows::do_match_(const match_input& in, const column_alignment&) const {
  bool order_matters = false;
  switch (order_) {
    case order_rule::sql_substring:
      order_matters = contains_order_by_substring(in.gold_sql);
      break;
    case order_rule::sql_tokens:
      order_matters = has_top_level_order_by(in.gold_sql);
      break;
    case order_rule::never:
      order_matters = false;
      break;
    case order_rule::always:
      order_matters = true;
      break;
  }
  row_match out;
  out.extra.push_back({"order_matters", order_matters});
  const result& g = in.gold;
  const result& p = in.pred;
  if (g.row_count() == 0 && p.row_count() == 0) {
    out.equivalent = true;
  } else if (g.row_count() != p.row_count() || g.column_count() != p.column_count()) {
    out.equivalent = false;
  } else if (quick_reject_ && !spider_quick_reject_passes(g, p, order_matters, eq_)) {
    out.equivalent = false;
  } else {
    out.equivalent = columns_permutable(g, p, order_matters, eq_);
  }
  return out;
}

bool spider_quick_reject_passes(const result& gold, const result& pred, bool ordered,
                                const value_equivalence& eq) {
  // unorder_row: each row's values sorted (stably) by str(v) + str(type(v)). The sorted rows are
  // kept as column orders (one small index per cell), not as copies of the values.
  const std::size_t width = gold.column_count();
  const std::size_t rows = gold.row_count();
  const auto unordered_rows = [width](const result& r) {
    std::vector<std::uint16_t> order(r.row_count() * width);
    std::vector<std::pair<std::string, std::uint16_t>> keys(width);
    for (std::size_t row = 0; row < r.row_count(); ++row) {
      const auto cells = r.row(row);
      for (std::size_t c = 0; c < width; ++c) {
        keys[c].first.clear();
        append_python_str(keys[c].first, cells[c]);
        keys[c].first += python_type_name(cells[c].kind());
        keys[c].second = static_cast<std::uint16_t>(c);
      }
      std::stable_sort(keys.begin(), keys.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t c = 0; c < width; ++c) order[row * width + c] = keys[c].second;
    }
    return order;
  };
  if (pred.column_count() != width || pred.row_count() != rows) return false;
  if (width > 0xffff) return true;  // no quick verdict for absurdly wide results; the full check decides
  const std::vector<std::uint16_t> g = unordered_rows(gold);
  const std::vector<std::uint16_t> p = unordered_rows(pred);
  const auto read = [&](std::uint64_t key, std::size_t c) -> const value& {
    const std::size_t row = key_row(key);
    return key_side(key) == 0 ? gold.cell(row, g[row * width + c]) : pred.cell(row, p[row * width + c]);
  };
  if (ordered) {
    for (std::size_t row = 0; row < rows; ++row) {
      for (std::size_t c = 0; c < width; ++c) {
        if (!eq.equal(read(tuple_key(0, row), c), read(tuple_key(1, row), c))) return false;
      }
    }
    return true;
  }
  tuple_interner tuples(eq, width, read, rows);
  std::vector<char> in_gold;
  std::vector<char> in_pred;
  const auto mark = [&](int side, std::vector<char>& seen) {
    for (std::size_t row = 0; row < rows; ++row) {
      const auto id = tuples.intern(tuple_key(side, row));
      if (id >= seen.size()) seen.resize(id + 1, 0);
      seen[id] = 1;
    }
  };
  mark(0, in_gold);
  mark(1, in_pred);
  in_gold.resize(tuples.size(), 0);
  in_pred.resize(tuples.size(), 0);
  return in_gold == in_pred;
}

}  // namespace sqlmorph::reference
