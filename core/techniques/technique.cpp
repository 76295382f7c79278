#include "techniques/technique.hpp"

#include "errors.hpp"

namespace sqlmorph::core {

const match_memo::entry& match_memo::get_or_compute(const std::string& key, const std::function<entry()>& compute) {
  if (auto it = entries_.find(key); it != entries_.end()) return it->second;
  return entries_.emplace(key, compute()).first->second;
}

std::shared_ptr<const technique> technique::assemble(const technique_spec& spec, const component_registry& registry) {
  auto t = std::make_shared<technique>();
  t->spec_ = spec;
  const std::string who = "technique '" + spec.name + "'" + (spec.origin.empty() ? "" : " (" + spec.origin + ")");
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
    t->matcher_key_ = registry.instance_key(column_matcher::kind_name, spec.columns) + "|" +
                      registry.instance_key(row_matcher::kind_name, spec.rows);
  } catch (const usage_error& e) {
    throw usage_error(who + ": " + e.what());
  }
  t->identity_ = spec.name + "|" + t->rewriter_key_ + "|" + t->normalizer_key_ + "|" + t->matcher_key_ + "|" +
                 registry.instance_key(scorer::kind_name, spec.scorer);
  const column_alignment::mode mode = t->columns_->produces();
  if (!t->rows_->accepts(mode)) {
    throw usage_error(who + ": row matcher '" + spec.rows.name + "' does not accept the '" +
                      std::string(alignment_mode_name(mode)) + "' alignments of column matcher '" +
                      spec.columns.name + "'");
  }
  if (const component_info* info = registry.find(scorer::kind_name, spec.scorer.name);
      info != nullptr && info->find_option(penalize_option) != nullptr) {
    const auto it = spec.scorer.options.find(penalize_option);
    if (it != spec.scorer.options.end() && std::holds_alternative<bool>(it->second)) {
      t->penalize_ = std::get<bool>(it->second);
    } else {
      t->penalize_ = info->find_option(penalize_option)->default_value.value_or("true") == "true";
    }
  }
  return t;
}

scores technique::evaluate(const match_input& in, const std::string& input_key, match_memo& memo) const {
  if (auto early = scorer_->decide_early(in)) return *early;
  const match_memo::entry& m = memo.get_or_compute(input_key + "#" + matcher_key_, [&] {
    match_memo::entry e;
    e.alignment = columns_->align(in);
    e.rows = rows_->match(in, e.alignment);
    return e;
  });
  return scorer_->score(in, m.alignment, m.rows);
}

}  // namespace sqlmorph::core
