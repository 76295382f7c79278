#pragma once
// Row matchers of the reference techniques.

#include <memory>

#include <sqlmorph/cell_matcher.hpp>
#include <sqlmorph/options.hpp>
#include <sqlmorph/row_matcher.hpp>

#include "value_equivalence.hpp"

namespace sqlmorph::reference {

/// The value equivalence of an equivalence cell matcher (reference equality for `exact`).
/// Throws std::invalid_argument when the matcher is not an equivalence.
value_equivalence equivalence_of(const std::shared_ptr<const cell_matcher>& cells, const char* who);

/// Decides whether the *sets* of rows are equal under a full alignment (execution accuracy).
/// Rows of results whose columns are not all aligned one-to-one never compare equal.
class set_equality_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit set_equality_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::paired;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  value_equivalence eq_;
};

/// SQLMorph exact-cell counting: matched = |pairs| · Σ min(count_gold(t), count_pred(t)) over
/// projected tuples t.
class multiset_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit multiset_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::paired;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  value_equivalence eq_;
};

/// SQLMorph partial-cell counting: the multiset intersection, then leftover rows paired greedily
/// by their share of equal cells (the reference's rule, see greedy_overlap.hpp). With a cell matcher
/// that is not an equivalence, every pair of rows is scored by the mean cell similarity and paired
/// greedily in the same order (quadratic).
class greedy_partial_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit greedy_partial_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::paired;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  std::shared_ptr<const cell_matcher> cells_;
  bool equivalence_;
  value_equivalence eq_;
};

/// SQLMorph's no-column partial counting: each row is the set of `str()` of its values; equal sets
/// are paired one-to-one in order, then leftovers greedily by Jaccard similarity.
class value_set_partial_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit value_set_partial_rows(const option_values&) {}
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::ignored;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;
};

/// Permutation / multiset equivalence (the official Spider `result_eq`, and the Malloy-style
/// evaluator with other options): equal iff some column bijection makes the rows equal, as lists
/// when order matters, else as multisets.
class permutation_equivalence_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  enum class order_rule { sql_substring, sql_tokens, never, always };

  explicit permutation_equivalence_rows(const option_values& o);
  bool accepts(column_alignment::mode m) const noexcept override {
    return m == column_alignment::mode::permutable;
  }

 protected:
  row_match do_match_(const match_input& in, const column_alignment& columns) const override;

 private:
  order_rule order_;
  bool quick_reject_;
  value_equivalence eq_;
};

/// Matches nothing: for techniques whose scorer looks at the results itself (e.g. a Lua scorer).
class no_rows final : public row_matcher {
 public:
  bool reads_predicted_sql() const noexcept override { return false; }
  explicit no_rows(const option_values&) {}
  bool accepts(column_alignment::mode) const noexcept override { return true; }

 protected:
  row_match do_match_(const match_input&, const column_alignment&) const override { return {}; }
};

/// The official evaluator's quick rejection: rows with their values sorted by `str(v) + str(type(v))`
/// must be equal as lists (ordered) or as sets.
bool spider_quick_reject_passes(const result& gold, const result& pred, bool ordered,
                                const value_equivalence& eq);

}  // namespace sqlmorph::reference
