#include "greedy_overlap.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <queue>
#include <tuple>
#include <unordered_map>

#include <sqlmorph/hash.hpp>

#include "hash_slots.hpp"

namespace sqlmorph::reference {
namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// Beyond this many subsets per row, a level merges posting lists instead of hashing subsets.
constexpr std::uint64_t max_subsets_per_row = 64;

std::uint64_t binomial(std::uint32_t n, std::uint32_t k) {
  if (k > n) return 0;
  k = std::min(k, n - k);
  std::uint64_t r = 1;
  for (std::uint32_t i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > (1u << 30)) return r;  // large enough to mean "too many"
  }
  return r;
}

std::uint64_t subset_hash_seed(std::uint32_t k) {
  return 0x5375627365744b21ULL ^ k;
}

// Calls f(hash) for every k-subset of `set`.
template <class F>
void for_each_subset_hash(item_set set, std::uint32_t k, F&& f) {
  const auto n = static_cast<std::uint32_t>(set.size());
  if (k == 0 || k > n) return;
  std::vector<std::uint32_t> idx(k);
  for (std::uint32_t i = 0; i < k; ++i) idx[i] = i;
  while (true) {
    std::uint64_t h = subset_hash_seed(k);
    for (std::uint32_t i = 0; i < k; ++i) h = hash_combine(h, set[idx[i]]);
    f(h);
    // Next combination in lexicographic order.
    std::int64_t i = static_cast<std::int64_t>(k) - 1;
    while (i >= 0 && idx[static_cast<std::size_t>(i)] == n - k + static_cast<std::uint32_t>(i)) --i;
    if (i < 0) return;
    ++idx[static_cast<std::size_t>(i)];
    for (auto t = static_cast<std::size_t>(i) + 1; t < k; ++t) idx[t] = idx[t - 1] + 1;
  }
}

class engine {
 public:
  engine(const item_sets& gold, const item_sets& pred, overlap_similarity similarity)
      : gold_(gold), pred_(pred), similarity_(similarity), pred_removed_(pred.size(), 0) {}

  std::vector<overlap_pick> run() {
    std::map<std::uint32_t, std::vector<std::uint32_t>> gold_by_size;
    for (std::uint32_t i = 0; i < gold_.size(); ++i) {
      if (!gold_[i].empty()) gold_by_size[static_cast<std::uint32_t>(gold_[i].size())].push_back(i);
    }
    for (std::uint32_t j = 0; j < pred_.size(); ++j) {
      if (!pred_[j].empty()) pred_by_size_[static_cast<std::uint32_t>(pred_[j].size())].push_back(j);
    }
    for (const auto& [k, rows] : pred_by_size_) pred_left_[k] = rows.size();

    // Every (gold size, pred size, overlap) that can occur, ordered by similarity, highest first.
    struct triple {
      double similarity;
      std::uint32_t ka, kb, a;
    };
    std::vector<triple> triples;
    for (const auto& [ka, g] : gold_by_size) {
      for (const auto& [kb, p] : pred_by_size_) {
        for (std::uint32_t a = 1; a <= std::min(ka, kb); ++a)
          triples.push_back({similarity_(a, ka, kb), ka, kb, a});
      }
    }
    std::stable_sort(triples.begin(), triples.end(),
                     [](const triple& x, const triple& y) { return x.similarity > y.similarity; });

    std::vector<overlap_pick> picks;
    std::vector<char> gold_matched(gold_.size(), 0);
    for (std::size_t start = 0; start < triples.size();) {
      std::size_t end = start;
      while (end < triples.size() && triples[end].similarity == triples[start].similarity) ++end;
      // The level's (pred size, overlap) requirements per gold size.
      std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> level;
      for (std::size_t t = start; t < end; ++t) {
        if (remaining_pred(triples[t].kb) > 0) level[triples[t].ka].push_back({triples[t].kb, triples[t].a});
      }
      start = end;
      if (level.empty()) continue;

      std::vector<std::uint32_t> visit;
      for (const auto& [ka, reqs] : level) {
        const auto it = gold_by_size.find(ka);
        if (it != gold_by_size.end()) visit.insert(visit.end(), it->second.begin(), it->second.end());
      }
      std::sort(visit.begin(), visit.end());
      bool any = false;
      for (const std::uint32_t i : visit) {
        std::uint32_t best = none;
        for (const auto& [kb, a] : level[static_cast<std::uint32_t>(gold_[i].size())]) {
          best = std::min(best, smallest_partner(gold_[i], kb, a));
        }
        if (best == none) continue;
        picks.push_back({i, best, overlap_size(gold_[i], pred_[best])});
        pred_removed_[best] = 1;
        --pred_left_[static_cast<std::uint32_t>(pred_[best].size())];
        gold_matched[i] = 1;
        any = true;
      }
      if (any) {
        for (auto& [ka, rows] : gold_by_size) {
          std::erase_if(rows, [&](std::uint32_t i) { return gold_matched[i] != 0; });
        }
        if (picks.size() == pred_.size() || picks.size() == gold_.size()) break;
      }
    }
    return picks;
  }

 private:
  // Rows of one predicted size indexed by the hashes of their a-subsets; entries sorted by
  // (hash, row) so each hash's rows form an ascending run, scanned from a lazily advanced head.
  struct subset_index {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> entries;
    hash_slots start;                    // hash -> index of its run in `entries`
    std::vector<std::uint32_t> skipped;  // per run start: removed rows already passed
    bool built = false;
    std::uint64_t scanned = 0;  // before it is built: the items compared by scans instead
  };
  // Rows of one predicted size containing each item, ascending, for levels with too many subsets.
  struct postings {
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> rows_with;
  };

  std::uint32_t remaining_pred(std::uint32_t kb) const {
    const auto it = pred_left_.find(kb);
    return it == pred_left_.end() ? 0 : static_cast<std::uint32_t>(it->second);
  }

  void build_index(subset_index& idx, std::uint32_t kb, std::uint32_t a) {
    for (const std::uint32_t j : pred_by_size_[kb]) {
      if (pred_removed_[j]) continue;
      for_each_subset_hash(pred_[j], a, [&](std::uint64_t h) { idx.entries.push_back({h, j}); });
    }
    std::sort(idx.entries.begin(), idx.entries.end());
    idx.skipped.assign(idx.entries.size(), 0);
    idx.start.reset(idx.entries.size());
    for (std::uint32_t e = 0; e < idx.entries.size(); ++e) {
      if (e == 0 || idx.entries[e].first != idx.entries[e - 1].first)
        idx.start.insert(idx.entries[e].first, e);
    }
    idx.built = true;
  }

  postings& postings_for(std::uint32_t kb) {
    auto it = postings_.find(kb);
    if (it != postings_.end()) return it->second;
    postings p;
    for (const std::uint32_t j : pred_by_size_[kb]) {
      if (pred_removed_[j]) continue;
      for (const std::uint32_t item : pred_[j]) p.rows_with[item].push_back(j);
    }
    return postings_.emplace(kb, std::move(p)).first->second;
  }

  // The smallest remaining predicted row of size kb sharing at least `a` items with `g`.
  std::uint32_t smallest_partner(item_set g, std::uint32_t kb, std::uint32_t a) {
    const auto ka = static_cast<std::uint32_t>(g.size());
    if (binomial(ka, a) <= max_subsets_per_row && binomial(kb, a) <= max_subsets_per_row) {
      // An index costs about a sort of all its entries; until the rows scanned for (kb, a) would
      // have cost a quarter of that, the rows are scanned instead (one gold row against a large
      // result asks once or twice: scanning is far cheaper than indexing; many gold rows lose at
      // most a quarter of an index to scans). Either way the answer is the same row.
      subset_index& idx = subset_indexes_[std::make_pair(kb, a)];
      if (!idx.built) {
        const std::uint64_t rows = pred_by_size_[kb].size();
        const std::uint64_t entries = rows * binomial(kb, a);
        const std::uint64_t index_cost = entries * (std::bit_width(entries) + 1);
        if (4 * (idx.scanned + rows * (ka + kb)) <= index_cost)
          return smallest_by_scan(g, kb, a, idx.scanned);
        build_index(idx, kb, a);
      }
      return smallest_by_subsets(g, idx, a);
    }
    return smallest_by_postings(g, kb, a);
  }

  // The rows of size kb in order, each checked: adds the items compared to `cost`.
  std::uint32_t smallest_by_scan(item_set g, std::uint32_t kb, std::uint32_t a, std::uint64_t& cost) {
    for (const std::uint32_t j : pred_by_size_[kb]) {
      if (pred_removed_[j]) continue;
      cost += g.size() + kb;
      if (overlap_size(g, pred_[j]) >= a) return j;
    }
    return none;
  }

  std::uint32_t smallest_by_subsets(item_set g, subset_index& idx, std::uint32_t a) {
    std::uint32_t best = none;
    for_each_subset_hash(g, a, [&](std::uint64_t h) {
      const std::uint32_t s = idx.start.find(h, [&](std::uint32_t e) { return idx.entries[e].first == h; });
      if (s == hash_slots::empty) return;
      std::uint32_t pos = s + idx.skipped[s];
      const auto n = static_cast<std::uint32_t>(idx.entries.size());
      while (pos < n && idx.entries[pos].first == h && pred_removed_[idx.entries[pos].second]) ++pos;
      idx.skipped[s] = pos - s;
      for (; pos < n && idx.entries[pos].first == h; ++pos) {
        const std::uint32_t j = idx.entries[pos].second;
        if (j >= best) return;  // runs are ascending: nothing smaller follows
        if (pred_removed_[j]) continue;
        // A different subset with the same hash is possible, so the overlap is checked.
        if (overlap_size(g, pred_[j]) >= a) {
          best = j;
          return;
        }
      }
    });
    return best;
  }

  std::uint32_t smallest_by_postings(item_set g, std::uint32_t kb, std::uint32_t a) {
    postings& p = postings_for(kb);
    // Merge the ascending row lists of g's items; the first row met `a` times wins.
    using cursor = std::tuple<std::uint32_t, const std::vector<std::uint32_t>*, std::size_t>;
    std::priority_queue<cursor, std::vector<cursor>, std::greater<>> heap;
    for (const std::uint32_t item : g) {
      const auto it = p.rows_with.find(item);
      if (it != p.rows_with.end() && !it->second.empty()) heap.push({it->second[0], &it->second, 0});
    }
    if (heap.size() < a) return none;
    while (!heap.empty()) {
      const std::uint32_t j = std::get<0>(heap.top());
      std::uint32_t count = 0;
      while (!heap.empty() && std::get<0>(heap.top()) == j) {
        auto [row, list, pos] = heap.top();
        heap.pop();
        ++count;
        if (pos + 1 < list->size()) heap.push({(*list)[pos + 1], list, pos + 1});
      }
      if (count >= a && !pred_removed_[j]) return j;
    }
    return none;
  }

  const item_sets& gold_;
  const item_sets& pred_;
  overlap_similarity similarity_;
  std::vector<char> pred_removed_;
  std::map<std::uint32_t, std::vector<std::uint32_t>> pred_by_size_;
  std::map<std::uint32_t, std::size_t> pred_left_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, subset_index> subset_indexes_;
  std::map<std::uint32_t, postings> postings_;
};

}  // namespace

std::uint32_t overlap_size(item_set a, item_set b) noexcept {
  std::uint32_t n = 0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j)
      ++i;
    else if (*j < *i)
      ++j;
    else {
      ++n;
      ++i;
      ++j;
    }
  }
  return n;
}

void item_sets::close_set(bool distinct) {
  const auto begin = items_.begin() + static_cast<std::ptrdiff_t>(offsets_.back());
  std::sort(begin, items_.end());
  if (distinct) items_.erase(std::unique(begin, items_.end()), items_.end());
  offsets_.push_back(static_cast<std::uint32_t>(items_.size()));
}

std::vector<overlap_pick> greedy_overlap_match(const item_sets& gold, const item_sets& pred,
                                               overlap_similarity similarity) {
  if (gold.empty() || pred.empty()) return {};
  return engine(gold, pred, similarity).run();
}

}  // namespace sqlmorph::reference
