#pragma once
/// \file scorer.hpp
/// The Scorer interface: turns a row match into the technique's metrics.

#include <optional>
#include <string>

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

  /// The `row_match::extra` fields `score` reads (row_matcher::reported_fields): checked when a
  /// technique is assembled, so that a scorer is never paired with a row matcher that lacks them.
  virtual std::vector<std::string> required_row_fields() const { return {}; }

  /// Called before any column or row matching: a scorer that can already decide (e.g. SQLMorph's
  /// "EX = 1 means everything is 1") returns its scores and the matchers are skipped.
  std::optional<scores> decide_early(const match_input& in) const { return do_decide_early_(in); }

  /// Names what `decide_early` depends on besides its input, when that is less than all of this
  /// scorer's options: scorers of one component with equal keys make the same early decision, so
  /// the core computes it once per example (SQLMorph's "are the row sets equal?" does not depend on
  /// `penalize_extra_pred_cols`). Empty (the default): shared only by identically configured scorers.
  std::string early_decision_key() const { return do_early_decision_key_(); }

  /// Whether this scorer reads `match_input::pred_sql` or runs the queries again through
  /// `match_input::timer`. When no component of a technique does, the core scores the predictions of
  /// one question once per distinct result and gives every prediction with an equal result the same
  /// scores (systems often return the same rows from different SQL). The default is the safe answer;
  /// a component that looks only at the two results (and the gold SQL) returns false.
  virtual bool reads_predicted_sql() const noexcept { return true; }

  /// The scores. EX is checked to lie in [0, 1] and EXP / EXR / F1 in [-1, 1] (similarity-based
  /// scorers such as unified_column_and_semantic_row credit cosine similarities, which can be
  /// negative); a scorer returning anything else is a bug reported as `std::logic_error`.
  scores score(const match_input& in, const column_alignment& columns, const row_match& rows) const;

 protected:
  virtual std::optional<scores> do_decide_early_(const match_input&) const { return std::nullopt; }
  virtual std::string do_early_decision_key_() const { return {}; }
  virtual scores do_score_(const match_input& in, const column_alignment& columns,
                           const row_match& rows) const = 0;
};

}  // namespace sqlmorph
