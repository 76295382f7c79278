#pragma once
// The texts the semantic techniques embed (TECHNIQUES.md §3): a description of each column, and a
// string for each row over the union of both results' column names.

#include <string>
#include <string_view>
#include <vector>

#include <sqlmorph/result.hpp>

namespace sqlmorph::semantic {

/// The pandas dtype name the reference infers for a column: "int64" (rows, every value an
/// integer), "float64" (only integers, reals and NULLs, at least one number and at least one real
/// or NULL) or "object" (anything else: text, blobs, all NULL, no rows).
std::string_view column_dtype(const result& r, std::size_t column);

/// `Column name: {name}. Data type: {dtype}. ` followed, when the column has a non-NULL value, by
/// `Sample values: v1, v2, ...`: the (at most) 10 most frequent non-NULL values, most frequent
/// first, equal counts in order of first appearance, each as Python's `str()` (a float64 column
/// prints its integers as reals: `1.0`).
std::string column_description(const result& r, std::size_t column);

/// The descriptions of every column, in column order.
std::vector<std::string> column_descriptions(const result& r);

/// Each row as `str(v1) | str(v2) | ...` over `names` (sorted union of both results' names), with
/// `N/A` for a name this result lacks; a duplicated name reads its last column.
std::vector<std::string> row_strings(const result& r, const std::vector<std::string>& names);

}  // namespace sqlmorph::semantic
