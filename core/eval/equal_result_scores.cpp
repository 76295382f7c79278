#include "eval/equal_result_scores.hpp"

namespace sqlmorph::core {

const equal_result_scores::outcome* equal_result_scores::find(const key& k) {
  auto it = outcomes_.find(k);
  if (it == outcomes_.end()) return nullptr;
  ++reused_;
  return &it->second;
}

void equal_result_scores::remember(key k, outcome o) {
  outcomes_.emplace(std::move(k), std::move(o));
}

}  // namespace sqlmorph::core
