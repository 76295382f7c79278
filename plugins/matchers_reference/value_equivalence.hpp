#pragma once
// An equivalence on cell values given by a hash and an equality: reference equality by default, or
// any equivalence cell matcher. Row matchers index cells with it instead of comparing all pairs.

#include <cstdint>
#include <memory>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/value.hpp>

namespace sqlmorph::reference {

class value_equivalence {
 public:
  /// Reference equality (TECHNIQUES.md §1).
  value_equivalence() = default;
  /// The equivalence of a cell matcher that declares `is_equivalence()`.
  explicit value_equivalence(std::shared_ptr<const cell_matcher> cells) : cells_(std::move(cells)) {}

  std::uint64_t hash(const value& v) const {
    return cells_ ? cells_->equivalence_hash(v) : reference_hash(v);
  }
  bool equal(const value& a, const value& b) const {
    return cells_ ? cells_->similarity(a, b) >= 1.0 : reference_equal(a, b);
  }

 private:
  std::shared_ptr<const cell_matcher> cells_;
};

}  // namespace sqlmorph::reference
