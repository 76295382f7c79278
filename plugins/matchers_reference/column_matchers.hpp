#pragma once
// Column matchers of the reference techniques.

#include <sqlmorph/column_matcher.hpp>
#include <sqlmorph/options.hpp>

namespace sqlmorph::reference {

/// Column i of the gold result against column i of the prediction (as far as both have columns).
class positional_columns final : public column_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit positional_columns(const option_values&) {}
  column_alignment::mode produces() const noexcept override { return column_alignment::mode::paired; }

 protected:
  column_alignment do_align_(const match_input& in) const override;
};

/// SQLMorph's exact-name matching: the names present in both results, sorted by code point
/// (case-sensitive); a duplicated name is taken at its last position in each result.
class exact_name_columns final : public column_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit exact_name_columns(const option_values&) {}
  column_alignment::mode produces() const noexcept override { return column_alignment::mode::paired; }

 protected:
  column_alignment do_align_(const match_input& in) const override;
};

/// Column identity is ignored (rows compared as bags of values).
class ignore_name_columns final : public column_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit ignore_name_columns(const option_values&) {}
  column_alignment::mode produces() const noexcept override { return column_alignment::mode::ignored; }

 protected:
  column_alignment do_align_(const match_input&) const override {
    return column_alignment::ignoring_columns();
  }
};

/// Any one-to-one column mapping may be chosen by the row matcher (permutation equivalence).
class any_order_columns final : public column_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit any_order_columns(const option_values&) {}
  column_alignment::mode produces() const noexcept override { return column_alignment::mode::permutable; }

 protected:
  column_alignment do_align_(const match_input&) const override {
    return column_alignment::any_permutation();
  }
};

}  // namespace sqlmorph::reference
