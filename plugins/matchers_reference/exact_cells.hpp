#pragma once
// The `exact` cell matcher: reference equality (TECHNIQUES.md §1).

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::reference {

class exact_cells final : public cell_matcher {
 public:
  explicit exact_cells(const option_values&) {}
  bool is_equivalence() const noexcept override { return true; }
  std::uint64_t equivalence_hash(const value& v) const noexcept override { return reference_hash(v); }

 protected:
  double do_similarity_(const value& gold, const value& pred) const override {
    return reference_equal(gold, pred) ? 1.0 : 0.0;
  }
};

}  // namespace sqlmorph::reference
