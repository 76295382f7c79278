#pragma once
/// \file row_matcher.hpp
/// The RowMatcher interface: counts matched cells (or decides equivalence) between two results
/// whose columns have been aligned.

#include <initializer_list>
#include <string>
#include <vector>

#include "sqlmorph/match.hpp"

namespace sqlmorph {

/// Matches the rows of two results under a column alignment (multiset, greedy partial, token
/// Jaccard, permutation equivalence, ...). Stateless after construction; thread-safe.
class row_matcher {
 public:
  static constexpr const char* kind_name = "row_matcher";
  using interface_type = row_matcher;

  virtual ~row_matcher() = default;

  /// Matches rows. Throws `std::invalid_argument` when the alignment's mode is one this matcher
  /// does not accept (a technique assembled from incompatible components).
  row_match match(const match_input& in, const column_alignment& columns) const;

  /// Whether this matcher understands alignments of the given mode.
  virtual bool accepts(column_alignment::mode m) const noexcept = 0;

  /// The `row_match::extra` fields every match reports (a scorer may read them: a technique whose
  /// scorer needs a field its row matcher does not report is refused when it is assembled).
  virtual std::vector<std::string> reported_fields() const { return {}; }

  /// Whether this matcher reads `match_input::pred_sql` or runs the queries again through
  /// `match_input::timer`. When no component of a technique does, the core scores the predictions of
  /// one question once per distinct result and gives every prediction with an equal result the same
  /// scores (systems often return the same rows from different SQL). The default is the safe answer;
  /// a component that looks only at the two results (and the gold SQL) returns false.
  virtual bool reads_predicted_sql() const noexcept { return true; }

 protected:
  virtual row_match do_match_(const match_input& in, const column_alignment& columns) const = 0;
};

}  // namespace sqlmorph
