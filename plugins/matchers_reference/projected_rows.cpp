#include "projected_rows.hpp"

#include <algorithm>

#include "value_interner.hpp"

namespace sqlmorph::reference {

projected_intersection intersect_projected_rows(const result& gold, const result& pred,
                                                std::span<const column_pair> pairs, const value_equivalence& eq) {
  const std::size_t k = pairs.size();
  tuple_interner tuples(eq, k, gold.row_count() + pred.row_count());
  const auto intern_rows = [&](const result& r, bool is_gold) {
    std::vector<std::uint32_t> ids(r.row_count());
    for (std::size_t row = 0; row < r.row_count(); ++row) {
      const auto cells = r.row(row);
      ids[row] = tuples.intern([&](std::size_t p) -> const value& {
        return cells[is_gold ? pairs[p].gold : pairs[p].pred];
      });
    }
    return ids;
  };
  const std::vector<std::uint32_t> gold_ids = intern_rows(gold, true);
  const std::vector<std::uint32_t> pred_ids = intern_rows(pred, false);

  std::vector<std::uint32_t> gold_count(tuples.size(), 0);
  std::vector<std::uint32_t> pred_count(tuples.size(), 0);
  for (auto id : gold_ids) ++gold_count[id];
  for (auto id : pred_ids) ++pred_count[id];

  projected_intersection out;
  for (std::size_t t = 0; t < tuples.size(); ++t) out.common_rows += std::min(gold_count[t], pred_count[t]);

  // Leftovers: walk rows in order, and at the first row of each distinct tuple emit that tuple
  // (count − matched) times.
  const auto leftovers = [&](const std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& mine,
                             const std::vector<std::uint32_t>& theirs) {
    std::vector<std::uint32_t> rows;
    std::vector<char> seen(tuples.size(), 0);
    for (std::uint32_t row = 0; row < ids.size(); ++row) {
      const std::uint32_t t = ids[row];
      if (seen[t]) continue;
      seen[t] = 1;
      const std::uint32_t extra = mine[t] - std::min(mine[t], theirs[t]);
      rows.insert(rows.end(), extra, row);
    }
    return rows;
  };
  out.gold_leftover = leftovers(gold_ids, gold_count, pred_count);
  out.pred_leftover = leftovers(pred_ids, pred_count, gold_count);
  return out;
}

void projected_item_sets(const result& gold, std::span<const std::uint32_t> gold_rows, const result& pred,
                         std::span<const std::uint32_t> pred_rows, std::span<const column_pair> pairs,
                         const value_equivalence& eq, std::vector<item_set>& gold_sets,
                         std::vector<item_set>& pred_sets) {
  // One interner per position; (position, local id) pairs get global item ids in order of first use.
  std::vector<tuple_interner> by_position(pairs.size(), tuple_interner(eq, 1, gold_rows.size() + pred_rows.size()));
  std::vector<std::vector<std::uint32_t>> global_id(pairs.size());
  std::uint32_t next_item = 0;
  const auto build = [&](const result& r, std::span<const std::uint32_t> rows, bool is_gold) {
    std::vector<item_set> sets(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto cells = r.row(rows[i]);
      item_set& s = sets[i];
      s.reserve(pairs.size());
      for (std::size_t p = 0; p < pairs.size(); ++p) {
        const value& cell = cells[is_gold ? pairs[p].gold : pairs[p].pred];
        const std::uint32_t local = by_position[p].intern([&](std::size_t) -> const value& { return cell; });
        if (local == global_id[p].size()) global_id[p].push_back(next_item++);
        s.push_back(global_id[p][local]);
      }
      std::sort(s.begin(), s.end());
    }
    return sets;
  };
  gold_sets = build(gold, gold_rows, true);
  pred_sets = build(pred, pred_rows, false);
}

}  // namespace sqlmorph::reference
