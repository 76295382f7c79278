#pragma once
// The `semantic_rows` row matcher of unified_column_and_semantic_row.

#include <memory>

#include <sqlmorph/embedder.hpp>
#include <sqlmorph/options.hpp>
#include <sqlmorph/row_matcher.hpp>

namespace sqlmorph::semantic {

/// Field names of what this matcher reports in `row_match::extra`.
inline constexpr const char* similarity_sum_field = "similarity_sum";
inline constexpr const char* coverage_field = "coverage";

/// SQLMorph's unified row matching (TECHNIQUES.md §3): every row of both results becomes the
/// string of its values over the sorted union of column names (`N/A` where a result lacks one);
/// row strings are embedded, compared by float32 cosine (identical strings: 1), and predicted rows
/// are assigned to gold rows maximizing the total similarity. Reports in `extra` the sum of the
/// assigned similarities times the column coverage (`similarity_sum`, possibly negative) and the
/// coverage: |names in both| / |gold names| (the pairs of an `exact_names` alignment), 1 when the
/// gold has at most one distinct name. Cell counts: gold rows, predicted rows.
class semantic_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit semantic_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::paired;
  }
  std::vector<std::string> reported_fields() const override { return {similarity_sum_field, coverage_field}; }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  std::shared_ptr<const embedder> embedder_;
};

}  // namespace sqlmorph::semantic
