#pragma once
/// \file match.hpp
/// The data that flows through a technique: its input, the column alignment, the cell counts of
/// a row match, and the final scores.
///
///   match_input ──► column_matcher ──► column_alignment
///                                          │
///   match_input + alignment ──► row_matcher ──► row_match
///                                                   │
///   match_input + alignment + row_match ──► scorer ──► scores {EX, EXP, EXR, F1, extra}

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sqlmorph/result.hpp"

namespace sqlmorph {

class query_timer;

/// Both results of one example, with the SQL that produced them (after any rewrites).
struct match_input {
  const result& gold;
  const result& pred;
  std::string_view gold_sql;
  std::string_view pred_sql;
  /// Runs the two queries again, timed (query_timer.hpp), for scorers that measure efficiency;
  /// null where the caller cannot execute (a scorer that needs it then fails the example).
  query_timer* timer = nullptr;
};

/// One aligned column pair: gold column index, predicted column index, similarity in [0, 1].
struct column_pair {
  std::size_t gold = 0;
  std::size_t pred = 0;
  double similarity = 1.0;
};

/// How the columns of the two results correspond.
struct column_alignment {
  enum class mode : std::uint8_t {
    /// Compare rows projected on `pairs`, in that order (gold columns `pairs[i].gold` against
    /// predicted columns `pairs[i].pred`). An empty pair list means no column matched.
    paired,
    /// Column identity is ignored: a row is compared as a bag of its values.
    ignored,
    /// Any one-to-one mapping of predicted onto gold columns may be chosen by the row matcher.
    permutable,
  };

  mode how = mode::paired;
  std::vector<column_pair> pairs;

  static column_alignment ignoring_columns() { return {mode::ignored, {}}; }
  static column_alignment any_permutation() { return {mode::permutable, {}}; }
};

/// "paired", "ignored", "permutable".
std::string_view alignment_mode_name(column_alignment::mode m) noexcept;

/// A named extra output field (e.g. `order_matters` of the Spider comparison).
using field_value = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string>;
using fields = std::vector<std::pair<std::string, field_value>>;

/// Cell counts of SQLMorph's precision/recall (TECHNIQUES.md §2). Counts may be fractional
/// (partial matches credit fractions of a row).
struct cell_counts {
  /// Cells credited as matched.
  double matched = 0;
  /// Gold cells.
  double gold_cells = 0;
  /// Every predicted cell: the denominator of precision when extra predicted columns are penalized.
  double pred_cells = 0;
  /// Predicted cells that had a counterpart (aligned columns, or matched rows for matchers that
  /// ignore columns): the denominator when extra predicted columns are not penalized.
  double pred_cells_aligned = 0;
};

/// What a row matcher found.
struct row_match {
  cell_counts counts;
  /// Set by matchers that decide equivalence (e.g. the Spider permutation comparison).
  std::optional<bool> equivalent;
  /// Extra fields to report (e.g. `order_matters`).
  fields extra;
};

/// The metrics of one technique on one example. A metric a technique does not define is empty
/// (reported as null).
struct scores {
  std::optional<double> ex;
  std::optional<double> exp;
  std::optional<double> exr;
  std::optional<double> f1;
  fields extra;
};

/// Which metrics a scorer defines.
struct metric_set {
  bool ex = true;
  bool exp = false;
  bool exr = false;
  bool f1 = false;
  /// Extra fields an example whose query failed reports (e.g. R-VES's `reward` = 0, so that a
  /// failure counts as 0 in the mean rather than being left out).
  fields failure_extra = {};
};

/// All defined metrics set to 0, plus `failure_extra` (the score of an example whose query failed).
scores zero_scores(const metric_set& m);

/// SQLMorph's precision/recall/F1 from counts (TECHNIQUES.md §2): both denominators 0 → all 1;
/// only gold 0 → EXP 0, EXR 1, F1 0; only pred 0 → EXP 1, EXR 0, F1 0; else matched / cells, and
/// F1 = 2·EXP·EXR / (EXP + EXR), 0 when both are 0.
void precision_recall_f1(double matched, double gold_cells, double pred_cells, scores& out);

}  // namespace sqlmorph
