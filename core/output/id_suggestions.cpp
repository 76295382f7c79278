#include "output/id_suggestions.hpp"

#include "nearest_name.hpp"

#include <algorithm>
#include <tuple>

namespace sqlmorph::core {
namespace {

std::string item_of(const std::string& id) {
  const auto colon = id.rfind(':');
  return colon == std::string::npos ? id : id.substr(colon + 1);
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
