#include "output/id_suggestions.hpp"

#include <algorithm>
#include <tuple>

namespace sqlmorph::core {
namespace {

std::string item_of(const std::string& id) {
  const auto colon = id.rfind(':');
  return colon == std::string::npos ? id : id.substr(colon + 1);
}

// Levenshtein distance (insertions, deletions and substitutions of bytes), in O(a·b) time and
// O(b) memory; `b` is the id asked for, which is short.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

id_suggestions::id_suggestions(std::string wanted, std::size_t keep)
    : wanted_(std::move(wanted)),
      wanted_item_(item_of(wanted_)),
      keep_(keep),
      near_(std::max<std::size_t>(2, wanted_.size() / 3)) {}

void id_suggestions::consider(const std::string& id) {
  const std::size_t order = seen_++;
  if (order == 0) first_ = id;
  const bool same_item = item_of(id) == wanted_item_;
  const std::size_t length_gap =
      id.size() > wanted_.size() ? id.size() - wanted_.size() : wanted_.size() - id.size();
  if (!same_item && length_gap > near_) return;  // no closer than its difference in length
  // The same item's ids asked for without a system (`6`) are all as near: kept in the file's order.
  const bool bare = wanted_item_.size() == wanted_.size();
  const std::size_t distance = same_item && bare ? 0 : edit_distance(id, wanted_);
  if (!same_item && distance > near_) return;
  candidate c{same_item, distance, order, id};
  const auto rank = [](const candidate& x) { return std::make_tuple(!x.same_item, x.distance, x.order); };
  const auto at = std::upper_bound(best_.begin(), best_.end(), c,
                                   [&](const candidate& x, const candidate& y) { return rank(x) < rank(y); });
  if (static_cast<std::size_t>(at - best_.begin()) >= keep_) return;
  best_.insert(at, std::move(c));
  if (best_.size() > keep_) best_.pop_back();
}

std::vector<std::string> id_suggestions::best() const {
  std::vector<std::string> out;
  for (const candidate& c : best_) out.push_back(c.id);
  return out;
}

}  // namespace sqlmorph::core
