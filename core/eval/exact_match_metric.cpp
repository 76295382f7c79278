#include "eval/exact_match_metric.hpp"

#include <algorithm>
#include <unordered_map>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "runner/content_hash.hpp"

namespace sqlmorph::core {

namespace {

constexpr const char* partial_fields[5] = {"acc", "rec", "f1", "label_total", "pred_total"};

int* field_of(spider::partial_score& s, int k) {
  int* fields[5] = {&s.acc, &s.rec, &s.f1, &s.label_total, &s.pred_total};
  return fields[k];
}

std::string partial_key(std::size_t clause, int field) {
  return std::string("partial.") + spider::partial_clauses[clause] + "." + partial_fields[field];
}

record labelled(const example& ex) {
  return record_of(ex, exact_match_technique);
}

}  // namespace

exact_match_metric::exact_match_metric(const std::filesystem::path& tables_file) {
  const std::string text = read_file(tables_file);
  schemas_ = parse_spider_tables(text, tables_file.string());
  // The file's XXH3-128, the specified hash of every persisted digest (it enters run fingerprints).
  identity_ = std::string(exact_match_technique) + " tables " + text_content_hash(text);
}

record exact_match_metric::evaluate(const example& ex) const {
  const stopwatch scoring;
  record r = evaluate_(ex);
  if (r.status != example_status::db_missing) r.technique_ms = scoring.elapsed_ms();
  return r;
}

record exact_match_metric::evaluate_(const example& ex) const {
  record r = labelled(ex);
  std::string db_id = ex.db_id;
  if (db_id.empty()) db_id = std::filesystem::path(ex.db).parent_path().filename().string();
  const auto it = schemas_.find(db_id);
  if (it == schemas_.end()) {
    r.status = example_status::db_missing;
    r.error = "database '" + db_id + "' is not in tables.json";
    return r;
  }
  const spider::exact_match_outcome o = spider::score_exact_match(ex.gold, ex.pred, it->second);
  if (!o.gold_error.empty()) {
    r.status = example_status::gold_error;
    r.error = o.gold_error;
    return r;
  }
  if (r.difficulty.empty()) r.difficulty = o.hardness;
  r.scores.extra.emplace_back("EM", std::int64_t{o.scores.exact ? 1 : 0});
  r.scores.extra.emplace_back("pred_parsed", o.pred_parsed);
  if (!o.pred_parsed) r.scores.extra.emplace_back("pred_parse_error", o.pred_error);
  for (std::size_t c = 0; c < spider::partial_clauses.size(); ++c) {
    spider::partial_score s = o.scores.partial[c];
    for (int k = 0; k < 5; ++k) r.scores.extra.emplace_back(partial_key(c, k), std::int64_t{*field_of(s, k)});
  }
  return r;
}

record exact_match_metric::missing(const example& ex) const {
  record r = labelled(ex);
  r.status = example_status::pred_missing;
  r.error = "no prediction for this example" + (ex.origin.empty() ? std::string() : " (" + ex.origin + ")");
  return r;
}

std::shared_ptr<const exact_match_metric> take_exact_match(
    std::vector<std::string>& names, const std::optional<std::filesystem::path>& tables,
    const std::optional<std::filesystem::path>& gold_file, const std::string& tables_option) {
  const auto listed = std::find(names.begin(), names.end(), exact_match_technique);
  if (listed == names.end()) {
    if (tables)
      throw usage_error(tables_option + " is read by " + exact_match_technique +
                        " only, which the techniques do not list");
    return nullptr;
  }
  names.erase(std::remove(names.begin(), names.end(), exact_match_technique), names.end());
  if (tables) return std::make_shared<const exact_match_metric>(*tables);
  const std::string needs =
      std::string(exact_match_technique) + " needs Spider's tables.json: " + tables_option;
  if (!gold_file) throw usage_error(needs + " FILE");
  const std::filesystem::path beside = gold_file->parent_path() / "tables.json";
  if (!std::filesystem::exists(beside))
    throw usage_error(needs + " FILE (" + beside.string() + " does not exist)");
  return std::make_shared<const exact_match_metric>(beside);
}

bool exact_match_scores_of(const record& r, spider::exact_match_scores& out) {
  // Field name -> (clause, metric); -1 is EM.
  static const std::unordered_map<std::string, std::pair<int, int>> slots = [] {
    std::unordered_map<std::string, std::pair<int, int>> m;
    m.emplace("EM", std::pair{-1, 0});
    for (std::size_t c = 0; c < spider::partial_clauses.size(); ++c) {
      for (int k = 0; k < 5; ++k) m.emplace(partial_key(c, k), std::pair{static_cast<int>(c), k});
    }
    return m;
  }();
  std::size_t found = 0;
  for (const auto& [name, value] : r.scores.extra) {
    const auto* v = std::get_if<std::int64_t>(&value);
    if (v == nullptr) continue;
    const auto it = slots.find(name);
    if (it == slots.end()) continue;
    ++found;
    if (it->second.first < 0)
      out.exact = *v != 0;
    else
      *field_of(out.partial[static_cast<std::size_t>(it->second.first)], it->second.second) =
          static_cast<int>(*v);
  }
  return found == slots.size();
}

}  // namespace sqlmorph::core
