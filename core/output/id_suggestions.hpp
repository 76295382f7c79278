#pragma once
// The ids of a run to suggest for one that is not there (`explain results/two 6`): first the ids of
// the same item — whose part after the last ':' is that of the id asked for (`dail:6`, `din:6` for
// `6` or for `dial:6`) — then ids a few edits away (`good:0` for `good:9`), each group nearest
// first (by edit distance; for an id without a system, such as `6`, its item's ids are all as
// near), ties in the order met. Ids are considered one at a time and only the best few are kept,
// so a run of any size is searched in constant memory.

#include <cstddef>
#include <string>
#include <vector>

namespace sqlmorph::core {

class id_suggestions {
 public:
  /// Suggestions for `wanted`, at most `keep` of them.
  explicit id_suggestions(std::string wanted, std::size_t keep = 5);
  /// Considers one id of the run (in the order of the run's file).
  void consider(const std::string& id);
  /// The suggestions, best first; empty when no id is of the same item or near.
  std::vector<std::string> best() const;
  /// The first id considered ("" when none was): shows what the run's ids look like.
  const std::string& first() const { return first_; }

 private:
  struct candidate {
    bool same_item;
    std::size_t distance;
    std::size_t order;
    std::string id;
  };
  std::string wanted_;
  std::string wanted_item_;
  std::size_t keep_;
  std::size_t near_;  // the largest edit distance taken as near
  std::size_t seen_ = 0;
  std::string first_;
  std::vector<candidate> best_;  // sorted, best first, at most keep_
};

}  // namespace sqlmorph::core
