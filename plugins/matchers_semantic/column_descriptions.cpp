#include "column_descriptions.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <sqlmorph/value.hpp>

namespace sqlmorph::semantic {
namespace {

constexpr std::size_t sample_values = 10;

struct reference_hasher {
  std::size_t operator()(const value& v) const noexcept {
    return static_cast<std::size_t>(reference_hash(v));
  }
};
struct reference_equality {
  bool operator()(const value& a, const value& b) const noexcept { return reference_equal(a, b); }
};

}  // namespace

std::string_view column_dtype(const result& r, std::size_t column) {
  const std::size_t rows = r.row_count();
  if (rows == 0) return "object";
  bool all_integer = true;
  bool any_number = false;
  bool any_real_or_null = false;
  for (std::size_t row = 0; row < rows; ++row) {
    const value& v = r.cell(row, column);
    switch (v.kind()) {
      case value_kind::integer:
        any_number = true;
        break;
      case value_kind::real:
        any_number = true;
        any_real_or_null = true;
        all_integer = false;
        break;
      case value_kind::null:
        any_real_or_null = true;
        all_integer = false;
        break;
      default:
        return "object";
    }
  }
  if (all_integer) return "int64";
  return any_number && any_real_or_null ? "float64" : "object";
}

std::string column_description(const result& r, std::size_t column) {
  const std::string_view dtype = column_dtype(r, column);
  std::string out = "Column name: " + r.column_names()[column] + ". Data type: " + std::string(dtype) + ". ";
  const std::size_t rows = r.row_count();
  if (rows == 0) return out;
  // pandas' value_counts(): non-NULL values grouped by equality (1 == 1.0 even in an object
  // column), most frequent first; equal counts keep the order of first appearance here.
  const bool as_float = dtype == "float64";
  struct group {
    value first;
    std::size_t count = 0;
    std::size_t order = 0;
  };
  std::unordered_map<value, std::size_t, reference_hasher, reference_equality> index;
  std::vector<group> groups;
  for (std::size_t row = 0; row < rows; ++row) {
    const value& v = r.cell(row, column);
    if (v.is_null()) continue;
    const auto [it, fresh] = index.try_emplace(v, groups.size());
    if (fresh) groups.push_back({v, 0, groups.size()});
    ++groups[it->second].count;
  }
  // A column of NULLs only has no sample values, and then no "Sample values: " either (the
  // reference's text; the Spider dev fixtures tell the two apart).
  if (groups.empty()) return out;
  std::stable_sort(groups.begin(), groups.end(),
                   [](const group& a, const group& b) { return a.count > b.count; });
  out += "Sample values: ";
  for (std::size_t i = 0; i < groups.size() && i < sample_values; ++i) {
    if (i) out += ", ";
    const value& v = groups[i].first;
    if (as_float)
      append_python_float_repr(out, v.as_double());
    else
      append_python_str(out, v);
  }
  return out;
}

std::vector<std::string> column_descriptions(const result& r) {
  std::vector<std::string> out;
  out.reserve(r.column_count());
  for (std::size_t c = 0; c < r.column_count(); ++c) out.push_back(column_description(r, c));
  return out;
}

std::vector<std::string> row_strings(const result& r, const std::vector<std::string>& names) {
  std::map<std::string_view, std::size_t> last;
  for (std::size_t c = 0; c < r.column_count(); ++c) last[r.column_names()[c]] = c;
  std::vector<std::ptrdiff_t> source;  // column of each name, -1 when absent
  source.reserve(names.size());
  for (const std::string& n : names) {
    const auto it = last.find(n);
    source.push_back(it == last.end() ? -1 : static_cast<std::ptrdiff_t>(it->second));
  }
  std::vector<std::string> out;
  out.reserve(r.row_count());
  for (std::size_t row = 0; row < r.row_count(); ++row) {
    std::string s;
    for (std::size_t i = 0; i < source.size(); ++i) {
      if (i) s += " | ";
      if (source[i] < 0)
        s += "N/A";
      else
        append_python_str(s, r.cell(row, static_cast<std::size_t>(source[i])));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace sqlmorph::semantic
