#include "projected_rows.hpp"

#include <algorithm>

#include "value_interner.hpp"

namespace sqlmorph::reference {

projected_intersection intersect_projected_rows(const result& gold, const result& pred,
                                                std::span<const column_pair> pairs,
                                                const value_equivalence& eq) {
  const std::size_t k = pairs.size();
  const auto read = [&](std::uint64_t key, std::size_t p) -> const value& {
    return key_side(key) == 0 ? gold.cell(key_row(key), pairs[p].gold)
                              : pred.cell(key_row(key), pairs[p].pred);
  };
  tuple_interner tuples(eq, k, read, std::max(gold.row_count(), pred.row_count()));
  const auto intern_rows = [&](const result& r, int side) {
    std::vector<std::uint32_t> ids(r.row_count());
    for (std::size_t row = 0; row < r.row_count(); ++row) ids[row] = tuples.intern(tuple_key(side, row));
    return ids;
  };
  const std::vector<std::uint32_t> gold_ids = intern_rows(gold, 0);
  const std::vector<std::uint32_t> pred_ids = intern_rows(pred, 1);

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
                         const value_equivalence& eq, item_sets& gold_sets, item_sets& pred_sets) {
  // One interner per position (its keys name a side and a row of that side's result); (position,
  // local id) pairs get global item ids in order of first use.
  struct position_reader {
    const result* gold;
    const result* pred;
    std::size_t gold_column;
    std::size_t pred_column;
    const value& operator()(std::uint64_t key, std::size_t) const {
      return key_side(key) == 0 ? gold->cell(key_row(key), gold_column)
                                : pred->cell(key_row(key), pred_column);
    }
  };
  std::vector<tuple_interner<position_reader>> by_position;
  by_position.reserve(pairs.size());
  for (const column_pair& pair : pairs) {
    by_position.emplace_back(eq, 1, position_reader{&gold, &pred, pair.gold, pair.pred},
                             std::max(gold_rows.size(), pred_rows.size()));
  }
  std::vector<std::vector<std::uint32_t>> global_id(pairs.size());
  std::uint32_t next_item = 0;
  const auto build = [&](std::span<const std::uint32_t> rows, int side, item_sets& sets) {
    sets = item_sets();
    sets.reserve(rows.size(), rows.size() * pairs.size());
    for (const std::uint32_t row : rows) {
      for (std::size_t p = 0; p < pairs.size(); ++p) {
        const std::uint32_t local = by_position[p].intern(tuple_key(side, row));
        if (local == global_id[p].size()) global_id[p].push_back(next_item++);
        sets.push_item(global_id[p][local]);
      }
      sets.close_set(false);  // items of different positions are always distinct
    }
  };
  build(gold_rows, 0, gold_sets);
  build(pred_rows, 1, pred_sets);
}

}  // namespace sqlmorph::reference
