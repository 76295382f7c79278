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

  /// Whether this matcher reads `match_input::pred_sql` or runs the queries again through
  /// `match_input::timer`. When no component of a technique does, the core scores the predictions of
  /// one question once per distinct result and gives every prediction with an equal result the same
  /// scores (systems often return the same rows from different SQL). The default is the safe answer;
  /// a component that looks only at the two results (and the gold SQL) returns false.
  virtual bool reads_predicted_sql() const noexcept { return true; }

 protected:
  virtual column_alignment do_align_(const match_input& in) const = 0;
};

}  // namespace sqlmorph
