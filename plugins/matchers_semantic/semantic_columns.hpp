#pragma once
// The `semantic` column matcher: columns paired by the meaning of their descriptions.

#include <memory>

#include <sqlmorph/column_matcher.hpp>
#include <sqlmorph/embedder.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::semantic {

/// SQLMorph's semantic column matching (TECHNIQUES.md §3), with the reference's bugs fixed: each
/// column's description is embedded; predicted and gold columns are paired by an optimal
/// assignment maximizing the total cosine similarity (whichever side has more columns); pairs with
/// similarity > `threshold` are kept and sorted by (predicted name, gold name), and rows are then
/// compared in that pair order. Duplicate names are described and paired one column at a time.
class semantic_columns final : public column_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit semantic_columns(const option_values& o);
  column_alignment::mode produces() const noexcept override { return column_alignment::mode::paired; }

 protected:
  column_alignment do_align_(const match_input& in) const override;

 private:
  std::shared_ptr<const embedder> embedder_;
  double threshold_;
};

}  // namespace sqlmorph::semantic
