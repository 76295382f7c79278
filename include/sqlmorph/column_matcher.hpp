#pragma once
/// \file column_matcher.hpp
/// The ColumnMatcher interface: decides which gold column corresponds to which predicted column.

#include "sqlmorph/match.hpp"

namespace sqlmorph {

/// Aligns the columns of the gold and predicted results (exact names, none, permutation,
/// semantic, ...). Implementations must be stateless after construction: `align` may be called
/// concurrently from several workers.
class column_matcher {
 public:
  static constexpr const char* kind_name = "column_matcher";
  using interface_type = column_matcher;

  virtual ~column_matcher() = default;

  /// Aligns the columns. Throws `std::logic_error` if the implementation returns a pair whose
  /// index is out of range (a bug in the matcher, caught before it can reach a row matcher).
  column_alignment align(const match_input& in) const;

  /// The mode of every alignment this matcher returns; lets a technique check, when it is
  /// assembled, that its row matcher accepts it.
  virtual column_alignment::mode produces() const noexcept = 0;

 protected:
  virtual column_alignment do_align_(const match_input& in) const = 0;
};

}  // namespace sqlmorph
