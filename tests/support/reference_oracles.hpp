#pragma once
// Straight transcriptions of the reference implementations (SQLMorph's Python techniques and the
// official Spider `result_eq`), with their quadratic/cubic/factorial loops, written independently of
// the plugin's fast algorithms. Tests and benchmarks compare the real components against these.

#include <optional>

#include <sqlmorph/match.hpp>
#include <sqlmorph/result.hpp>

namespace sqlmorph::oracle {

/// exact_column_and_exact_cell (partial = false) or exact_column_and_partial_cell (partial = true).
scores sqlmorph_exact_column(const result& gold, const result& pred, bool partial, bool penalize);

/// no_column_and_partial_cell (with the fix of TECHNIQUES.md: a predicted row is used once).
scores sqlmorph_no_column(const result& gold, const result& pred, bool penalize);

/// Spider's result_eq, enumerating every column permutation.
bool spider_result_eq(const result& gold, const result& pred, bool order_matters);

}  // namespace sqlmorph::oracle
