#pragma once
// The evidence behind an example's numbers: one line of examples.jsonl per example and system — the
// question, both SQL texts as evaluated (and as given, where a rewrite changed them), the SQL
// features of each as given, and what each query returned
// (status, error, columns, row count, the first rows with their types kept). The queries are those
// of the run's first technique variant that executes them (usually execution_accuracy: the SQL as
// given), already executed for it: writing the evidence executes nothing.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <sqlmorph/query.hpp>

#include "eval/example.hpp"
#include "eval/sql_features.hpp"

namespace sqlmorph::core {

struct evidence_options {
  /// Rows of each result kept (0: none; the columns, count and status are always there).
  std::size_t keep_rows = 20;
  /// Bytes of kept rows per example (both sides): rows beyond are dropped (`rows_kept` says how many stayed).
  std::size_t max_bytes = 64 * 1024;
};

/// One side (gold or predicted) of the evidence.
struct query_evidence {
  /// The SQL as executed (after the technique's rewrites).
  std::string sql;
  /// Null when the query was not executed (its rewrite failed: `error` says why).
  const query_outcome* outcome = nullptr;
  std::string error;
};

/// The JSON members an example's line has besides `id` and `system` (so that identical answers of
/// several systems share it): `{"db_id", ..., "pred_result": {...}}` without the braces.
/// `evaluated_by` empty: no technique executed queries (the results are null).
std::string evidence_body(const example& ex, const std::string& evaluated_by, const query_evidence* gold,
                          const query_evidence* pred, const evidence_options& options);

/// The whole line (no newline): id and system, then `body`.
std::string evidence_line(const example& ex, std::string_view body);

/// A value as evidence JSON: integers and reals as numbers (non-finite reals as the strings "NaN",
/// "Infinity", "-Infinity"), text as a string, null, a blob as {"$blob": "<base64>"}.
void append_value_json(std::string& out, const value& v);

}  // namespace sqlmorph::core
