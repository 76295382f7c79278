#include "techniques/technique.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "errors.hpp"

namespace sqlmorph::core {
namespace {
// A small process-wide id for a key string: techniques assembled anywhere (any worker, any
// catalog) get the same id for the same key.
std::uint32_t intern_key(const std::string& key) {
  static std::mutex mutex;
  static std::map<std::string, std::uint32_t, std::less<>> ids;
  const std::lock_guard lock(mutex);
  return ids.try_emplace(key, static_cast<std::uint32_t>(ids.size())).first->second;
}
}  // namespace

const match_memo::entry& match_memo::get_or_compute(const match_input& in, std::uint32_t matcher_id,
                                                    const std::function<entry()>& compute) {
  const key k{&in.gold, &in.pred, matcher_id};
  if (auto it = entries_.find(k); it != entries_.end()) return it->second;
  return entries_.emplace(k, compute()).first->second;
}

const std::optional<scores>& match_memo::early_or_compute(
    const match_input& in, std::uint32_t scorer_id, const std::function<std::optional<scores>()>& compute) {
  const key k{&in.gold, &in.pred, scorer_id};
  if (auto it = early_.find(k); it != early_.end()) return it->second;
  return early_.emplace(k, compute()).first->second;
}

std::shared_ptr<const technique> technique::assemble(const technique_spec& spec,
                                                     const component_registry& registry) {
  auto t = std::make_shared<technique>();
  t->spec_ = spec;
  const std::string who =
      "technique '" + spec.name + "'" + (spec.origin.empty() ? "" : " (" + spec.origin + ")");
  try {
    for (const component_spec& r : spec.rewriters) {
      t->rewriters_.push_back(registry.create<sql_rewriter>(r));
      t->rewriter_key_ += registry.instance_key(sql_rewriter::kind_name, r) + "|";
    }
    for (const component_spec& n : spec.normalizers) {
      t->normalizers_.push_back(registry.create<normalizer>(n));
      t->normalizer_key_ += registry.instance_key(normalizer::kind_name, n) + "|";
    }
    t->columns_ = registry.create<column_matcher>(spec.columns);
    t->rows_ = registry.create<row_matcher>(spec.rows);
    t->scorer_ = registry.create<scorer>(spec.scorer);
    if (spec.candidates) {
      t->candidates_ = registry.create<sql_candidates>(*spec.candidates);
      t->rewriter_key_ +=
          "candidates:" + registry.instance_key(sql_candidates::kind_name, *spec.candidates) + "|";
    }
    t->matcher_key_ = registry.instance_key(column_matcher::kind_name, spec.columns) + "|" +
                      registry.instance_key(row_matcher::kind_name, spec.rows);
  } catch (const usage_error& e) {
    throw usage_error(who + ": " + e.what());
  }
  const std::string scorer_key = registry.instance_key(scorer::kind_name, spec.scorer);
  t->identity_ = spec.name + "|" + (spec.databases == database_scope::variants ? "variants|" : "") +
                 t->rewriter_key_ + "|" + t->normalizer_key_ + "|" + t->matcher_key_ + "|" + scorer_key;
  t->matcher_id_ = intern_key("matchers:" + t->matcher_key_);
  const std::string early_key = t->scorer_->early_decision_key();
  t->early_id_ =
      intern_key(early_key.empty() ? "scorer:" + scorer_key : "early:" + spec.scorer.name + ":" + early_key);
  t->reads_only_results_ = !t->is_suite() && !t->columns_->reads_predicted_sql() &&
                           !t->rows_->reads_predicted_sql() && !t->scorer_->reads_predicted_sql();
  const column_alignment::mode mode = t->columns_->produces();
  if (!t->rows_->accepts(mode)) {
    throw usage_error(who + ": row matcher '" + spec.rows.name + "' does not accept the '" +
                      std::string(alignment_mode_name(mode)) + "' alignments of column matcher '" +
                      spec.columns.name + "'");
  }
  const std::vector<std::string> reported = t->rows_->reported_fields();
  for (const std::string& field : t->scorer_->required_row_fields()) {
    if (std::find(reported.begin(), reported.end(), field) == reported.end()) {
      throw usage_error(who + ": scorer '" + spec.scorer.name + "' reads the row field '" + field +
                        "', which row matcher '" + spec.rows.name + "' does not report");
    }
  }
  if (t->is_suite()) {
    const metric_set m = t->scorer_->metrics();
    if (m.exp || m.exr || m.f1) {
      throw usage_error(who +
                        ": running over database variants or trying alternative predictions needs a "
                        "scorer whose only metric is EX (a verdict), and '" +
                        spec.scorer.name + "' also defines EXP/EXR/F1");
    }
  }
  if (const component_info* info = registry.find(scorer::kind_name, spec.scorer.name); info != nullptr) {
    if (const option_decl* swept = info->sweepable_option()) {
      const auto it = spec.scorer.options.find(swept->name);
      if (it != spec.scorer.options.end() && std::holds_alternative<bool>(it->second)) {
        t->penalize_ = std::get<bool>(it->second);
      } else {
        t->penalize_ = swept->default_value.value_or("true") == "true";
      }
    }
  }
  return t;
}

scores technique::evaluate(const match_input& in, match_memo& memo) const {
  if (const auto& early = memo.early_or_compute(in, early_id_, [&] { return scorer_->decide_early(in); }))
    return *early;
  const match_memo::entry& m = memo.get_or_compute(in, matcher_id_, [&] {
    match_memo::entry e;
    e.alignment = columns_->align(in);
    e.rows = rows_->match(in, e.alignment);
    return e;
  });
  scores out = scorer_->score(in, m.alignment, m.rows);
  add_match_evidence(in, m.alignment, m.rows, out);
  return out;
}

void technique::add_match_evidence(const match_input& in, const column_alignment& columns,
                                   const row_match& rows, scores& out) const {
  // What explains a cell-based number: the cells it counted (`cells: {matched, gold, pred,
  // pred_aligned}`; EXP = matched / pred or pred_aligned, EXR = matched / gold) ...
  const cell_counts& c = rows.counts;
  if (scorer_->metrics().exp && (c.gold_cells > 0 || c.pred_cells > 0)) {
    out.extra.emplace_back("cells.matched", c.matched);
    out.extra.emplace_back("cells.gold", c.gold_cells);
    out.extra.emplace_back("cells.pred", c.pred_cells);
    out.extra.emplace_back("cells.pred_aligned", c.pred_cells_aligned);
  }
  // ... and how the columns were paired: "gold→pred" (with the similarity where it is not 1).
  std::string alignment;
  switch (columns.how) {
    case column_alignment::mode::ignored:
      alignment = "(column names ignored)";
      break;
    case column_alignment::mode::permutable:
      alignment = "(any column order)";
      break;
    case column_alignment::mode::paired:
      for (const column_pair& p : columns.pairs) {
        if (!alignment.empty()) alignment += ", ";
        const auto name = [](const result& r, std::size_t i) {
          return i < r.column_count() ? r.column_names()[i] : "#" + std::to_string(i);
        };
        alignment += name(in.gold, p.gold) + "→" + name(in.pred, p.pred);
        if (p.similarity < 1.0) {
          char buf[16];
          std::snprintf(buf, sizeof buf, " (%.2f)", p.similarity);
          alignment += buf;
        }
      }
      if (alignment.empty()) alignment = "(no column paired)";
      break;
  }
  out.extra.emplace_back("alignment", alignment);
}

}  // namespace sqlmorph::core
