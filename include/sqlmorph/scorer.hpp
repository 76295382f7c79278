#pragma once
/// \file scorer.hpp
/// The Scorer interface: turns a row match into the technique's metrics.

#include <optional>

#include "sqlmorph/match.hpp"

namespace sqlmorph {

/// Computes EX / EXP / EXR / F1 (and extra fields) from what the matchers found.
/// Stateless after construction; thread-safe.
class scorer {
public:
  static constexpr const char* kind_name = "scorer";
  using interface_type = scorer;

  virtual ~scorer() = default;

  /// The metrics this scorer defines; a failed example gets these set to 0 and the others null.
  virtual metric_set metrics() const noexcept = 0;

  /// Called before any column or row matching: a scorer that can already decide (e.g. SQLMorph's
  /// "EX = 1 means everything is 1") returns its scores and the matchers are skipped.
  std::optional<scores> decide_early(const match_input& in) const { return do_decide_early_(in); }

  /// The scores. Metrics are checked to lie in [0, 1]; a scorer returning anything else is a bug
  /// reported as `std::logic_error`.
  scores score(const match_input& in, const column_alignment& columns, const row_match& rows) const;

protected:
  virtual std::optional<scores> do_decide_early_(const match_input&) const { return std::nullopt; }
  virtual scores do_score_(const match_input& in, const column_alignment& columns,
                           const row_match& rows) const = 0;
};

}  // namespace sqlmorph
