#pragma once
// A technique assembled from registered components: rewriters → normalizers → column matcher →
// row matcher → scorer. Immutable once assembled; shared by every worker.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <sqlmorph/column_matcher.hpp>
#include <sqlmorph/normalizer.hpp>
#include <sqlmorph/row_matcher.hpp>
#include <sqlmorph/scorer.hpp>
#include <sqlmorph/sql_candidates.hpp>
#include <sqlmorph/sql_rewriter.hpp>

#include "plugins/component_registry.hpp"
#include "techniques/technique_spec.hpp"

namespace sqlmorph::core {

/// Early decisions, alignments and row matches already computed for one example, keyed by the
/// result objects matched and the matcher (or scorer) instances: techniques that differ only in
/// their scorer (e.g. the two `penalize_extra_pred_cols` variants) match rows once, and techniques
/// whose normalizers left a result unchanged share its matches. The keys are the results'
/// addresses, so a memo is only valid while the results it saw are alive: one memo per example.
class match_memo {
 public:
  struct entry {
    column_alignment alignment;
    row_match rows;
  };
  const entry& get_or_compute(const match_input& in, std::uint32_t matcher_id,
                              const std::function<entry()>& compute);
  const std::optional<scores>& early_or_compute(const match_input& in, std::uint32_t scorer_id,
                                                const std::function<std::optional<scores>()>& compute);
  void clear() {
    entries_.clear();
    early_.clear();
  }

 private:
  using key = std::tuple<const result*, const result*, std::uint32_t>;
  std::map<key, entry> entries_;
  std::map<key, std::optional<scores>> early_;
};

class technique {
 public:
  /// Instantiates every component of `spec` and checks they fit together (the row matcher accepts
  /// the column matcher's alignments). Throws usage_error naming the technique and the problem.
  static std::shared_ptr<const technique> assemble(const technique_spec& spec,
                                                   const component_registry& registry);

  const technique_spec& spec() const noexcept { return spec_; }
  const std::string& name() const noexcept { return spec_.name; }
  /// The value of the scorer's sweepable option (SQLMORPH_OPTION_SWEEPABLE, e.g. SQLMorph's
  /// `penalize_extra_pred_cols`), reported in records under that name; empty if it has none.
  std::optional<bool> penalize_extra_pred_cols() const noexcept { return penalize_; }
  metric_set metrics() const noexcept { return scorer_->metrics(); }

  const std::vector<std::shared_ptr<const sql_rewriter>>& rewriters() const noexcept { return rewriters_; }
  const std::vector<std::shared_ptr<const normalizer>>& normalizers() const noexcept { return normalizers_; }
  database_scope databases() const noexcept { return spec_.databases; }
  /// The candidates component, or null when only the prediction itself is tried.
  const sql_candidates* candidates() const noexcept { return candidates_.get(); }
  /// Runs over database variants or tries alternatives: the example evaluator loops over both.
  bool is_suite() const noexcept { return spec_.databases == database_scope::variants || candidates_; }
  /// Identify the rewriter and normalizer chains: equal keys mean the same queries are executed and
  /// the same normalized results are matched.
  const std::string& rewriter_key() const noexcept { return rewriter_key_; }
  const std::string& normalizer_key() const noexcept { return normalizer_key_; }
  /// Every component and option of this variant: equal identities score identically.
  const std::string& identity() const noexcept { return identity_; }
  /// No component reads the predicted SQL or times the queries (reads_predicted_sql): the scores
  /// depend only on the two results and the gold SQL, so predictions with equal results share them.
  bool reads_only_results() const noexcept { return reads_only_results_; }

  /// Scores one example whose (rewritten) queries both succeeded and whose results were normalized.
  /// Work already in `memo` for the same result objects is reused.
  scores evaluate(const match_input& in, match_memo& memo) const;

 private:
  // The record fields that explain a matched example: `cells` (the counts of a cell-based scorer)
  // and `alignment` (how the columns were paired).
  void add_match_evidence(const match_input& in, const column_alignment& columns, const row_match& rows,
                          scores& out) const;

  technique_spec spec_;
  std::optional<bool> penalize_;
  std::vector<std::shared_ptr<const sql_rewriter>> rewriters_;
  std::vector<std::shared_ptr<const normalizer>> normalizers_;
  std::shared_ptr<const column_matcher> columns_;
  std::shared_ptr<const row_matcher> rows_;
  std::shared_ptr<const scorer> scorer_;
  std::shared_ptr<const sql_candidates> candidates_;
  std::string rewriter_key_;
  std::string normalizer_key_;
  std::string matcher_key_;
  std::string identity_;
  std::uint32_t matcher_id_ = 0;  // matcher_key_ interned: equal ids, equal alignments and row matches
  std::uint32_t early_id_ = 0;    // the scorer's early-decision key interned
  bool reads_only_results_ = false;
};

}  // namespace sqlmorph::core
