#include "output/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <sqlmorph/hash.hpp>

#include "eval/exact_match_metric.hpp"
#include "eval/sql_features.hpp"
#include "output/exact_match_table.hpp"
#include "output/json_object.hpp"
#include "output/summary_statistics.hpp"
#include "output/text_table.hpp"
#include "parallel_for.hpp"

namespace sqlmorph::core {
namespace {
const char* const metric_names[4] = {"EX", "EXP", "EXR", "F1"};

std::string format_metric(const std::optional<double>& m) {
  if (!m) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", *m);
  return buf;
}

nlohmann::ordered_json group_json(const run_summary::group& g, const char* breakdown_key,
                                  const std::string& breakdown,
                                  const group_intervals::of_metrics& intervals) {
  nlohmann::ordered_json t = json_object_with_room(16);
  t["system"] = g.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.system);
  t["technique"] = g.technique;
  t["penalize_extra_pred_cols"] =
      g.penalize ? nlohmann::ordered_json(*g.penalize) : nlohmann::ordered_json(nullptr);
  if (breakdown_key != nullptr)
    t[breakdown_key] =
        breakdown.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(breakdown);
  t["count"] = g.count;
  t["scored"] = g.n[0];
  for (int m = 0; m < 4; ++m) {
    const auto mean = g.mean(m);
    t[metric_names[m]] = mean ? nlohmann::ordered_json(*mean) : nlohmann::ordered_json(nullptr);
  }
  if (const auto ves = g.r_ves()) t["R-VES"] = *ves;
  t["interval"] = intervals_json(intervals);
  t["statuses"] = nlohmann::ordered_json::object();
  for (const auto& [status, n] : g.statuses()) t["statuses"][status] = n;
  return t;
}

// A group's entries of "by_feature": one per SQL feature present and absent, when it has examples.
nlohmann::ordered_json feature_json(const run_summary::group& g, const group_intervals& intervals) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::vector<run_summary::group::slice> slices = g.feature_slices();
  for (std::size_t k = 0; k < slices.size(); ++k) {
    const run_summary::group::slice& s = slices[k];
    if (s.count == 0) continue;
    nlohmann::ordered_json t = json_object_with_room(16);
    t["system"] = g.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.system);
    t["technique"] = g.technique;
    t["penalize_extra_pred_cols"] =
        g.penalize ? nlohmann::ordered_json(*g.penalize) : nlohmann::ordered_json(nullptr);
    t["feature"] = feature_names[k / 2];
    t["present"] = k % 2 == 1;
    t["count"] = s.count;
    t["scored"] = s.n[0];
    for (int m = 0; m < 4; ++m)
      t[metric_names[m]] = s.n[m] ? nlohmann::ordered_json(s.sum[m] / static_cast<double>(s.n[m]))
                                  : nlohmann::ordered_json(nullptr);
    t["interval"] = intervals_json(intervals.slices.at(k));
    out.push_back(std::move(t));
  }
  return out;
}

// A group's entry of "qvt"; null when it has no example sharing its gold query with another.
nlohmann::ordered_json qvt_json(const run_summary::group& g, output::resample_plan& plan) {
  if (g.ex_by_gold.empty()) return nullptr;
  const auto q = g.qvt();
  return {{"system", g.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.system)},
          {"technique", g.technique},
          {"penalize_extra_pred_cols",
           g.penalize ? nlohmann::ordered_json(*g.penalize) : nlohmann::ordered_json(nullptr)},
          {"groups", g.qvt_groups()},
          {"QVT", q ? nlohmann::ordered_json(*q) : nlohmann::ordered_json(nullptr)},
          {"interval", interval_json(g.qvt_shares(), plan)}};
}

// Difficulties in their natural order (Spider's, then BIRD's), others by name.
int difficulty_rank(const std::string& d) {
  static const char* order[] = {"easy", "medium", "hard", "extra", "simple", "moderate", "challenging"};
  const auto it = std::find(std::begin(order), std::end(order), d);
  return it == std::end(order) ? 100 : static_cast<int>(it - std::begin(order));
}

}  // namespace

std::string variant_label(const std::string& technique, const std::optional<bool>& penalize) {
  if (!penalize) return technique;
  return technique + (*penalize ? " (penalize)" : " (no penalize)");
}

std::optional<double> run_summary::group::mean(int metric) const {
  if (n[metric] == 0) return std::nullopt;
  return sum[metric] / static_cast<double>(n[metric]);
}

std::optional<double> run_summary::group::r_ves() const {
  if (ves_n == 0) return std::nullopt;
  return ves_sum / static_cast<double>(ves_n);
}

std::vector<run_summary::group::slice> run_summary::group::feature_slices() const {
  std::vector<slice> out;
  if (mask_slices.empty()) return out;
  out.resize(2 * feature_names.size());
  for (const auto& [mask, of_mask] : mask_slices) {
    if (of_mask.count == 0) continue;
    for (std::size_t f = 0; f < feature_names.size(); ++f) {
      slice& s = out[2 * f + ((mask >> f) & 1u)];
      s.count += of_mask.count;
      for (int m = 0; m < 4; ++m) s.sum[m] += of_mask.sum[m], s.n[m] += of_mask.n[m];
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::size_t>> run_summary::group::statuses() const {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (std::size_t s = 0; s < status_counts.size(); ++s) {
    if (status_counts[s] > 0)
      out.emplace_back(example_status_name(static_cast<example_status>(s)), status_counts[s]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_summary::group::add(const record& r, bool entry) {
  ++count;
  ++status_counts[static_cast<std::size_t>(r.status)];
  const std::optional<double>* metrics[4] = {&r.scores.ex, &r.scores.exp, &r.scores.exr, &r.scores.f1};
  for (int m = 0; m < 4; ++m) {
    if (*metrics[m]) sum[m] += **metrics[m], ++n[m];
  }
  if (entry) {
    group::entry& e = entries.emplace_back();
    for (int m = 0; m < 4; ++m)
      e.metric[m] = *metrics[m] ? static_cast<float>(**metrics[m]) : std::numeric_limits<float>::quiet_NaN();
  }
  for (const auto& [name, v] : r.scores.extra) {
    if (name != "reward") continue;
    const double reward = std::holds_alternative<double>(v) ? std::get<double>(v)
                          : std::holds_alternative<std::int64_t>(v)
                              ? static_cast<double>(std::get<std::int64_t>(v))
                              : -1.0;
    if (reward < 0) continue;
    ves_sum += std::sqrt(reward) * 100.0;
    ++ves_n;
  }
}

std::vector<double> run_summary::group::values_of(int m) const {
  std::vector<double> out;
  out.reserve(n[m]);
  for (const entry& e : entries) {
    if (!std::isnan(e.metric[m])) out.push_back(e.metric[m]);
  }
  return out;
}

std::size_t run_summary::group_key_hash::operator()(const group_key& k) const noexcept {
  std::uint64_t h = 0x67726f7570ULL;
  for (const std::uint32_t part : k) h = hash_combine(h, part);
  return static_cast<std::size_t>(h);
}

std::uint32_t run_summary::number_of(string_ids& ids, std::string_view s) {
  const auto it = ids.find(s);
  if (it != ids.end()) return it->second;
  return ids.emplace(std::string(s), static_cast<std::uint32_t>(ids.size())).first->second;
}

std::size_t run_summary::indexed::index_of(const group_key& key, const record& r) {
  auto it = index.find(key);
  if (it == index.end()) {
    it = index.emplace(key, items.size()).first;
    group g;
    g.system = r.system;
    g.technique = r.technique;
    g.penalize = r.penalize_extra_pred_cols;
    items.push_back(std::move(g));
  }
  return it->second;
}

namespace {
const char* const agreement_names[4] = {"judge1_ex1", "judge1_ex0", "judge0_ex1", "judge0_ex0"};
constexpr const char* ex_technique = "execution_accuracy";

std::uint64_t example_key(std::uint32_t example, std::uint32_t system) {
  return (static_cast<std::uint64_t>(example) << 32) | system;
}

std::string format_share(const std::optional<double>& m, int decimals) {
  if (!m) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, *m);
  return buf;
}
}  // namespace

std::vector<std::pair<std::string, std::size_t>> run_summary::judge_group::statuses() const {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (std::size_t s = 0; s < status_counts.size(); ++s) {
    if (status_counts[s] > 0)
      out.emplace_back(example_status_name(static_cast<example_status>(s)), status_counts[s]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<double> run_summary::judge_group::mean_label() const {
  if (labelled == 0) return std::nullopt;
  return label_sum / static_cast<double>(labelled);
}

std::optional<double> run_summary::judge_group::mean_confidence() const {
  if (labelled == 0) return std::nullopt;
  return confidence_sum / static_cast<double>(labelled);
}

std::optional<double> run_summary::judge_group::agreement() const {
  const std::size_t n = compared();
  if (n == 0) return std::nullopt;
  return static_cast<double>(versus_ex[0] + versus_ex[3]) / static_cast<double>(n);
}

void run_summary::add_judge(const record& r, const example_ids& ids) {
  const std::string name = r.technique.substr(judge_technique_prefix.size());
  const std::uint64_t key = (static_cast<std::uint64_t>(id_of(r.system)) << 32) | id_of(r.technique);
  auto [it, added] = judge_index_.try_emplace(key, judges_.size());
  if (added) {
    judge_group g;
    g.system = r.system;
    g.judge = name;
    judges_.push_back(std::move(g));
  }
  judge_group& g = judges_[it->second];
  ++g.count;
  ++g.status_counts[static_cast<std::size_t>(r.status)];
  if (!r.judgement) return;
  const judge_fields& j = *r.judgement;
  g.prompt_tokens += j.prompt_tokens;
  g.completion_tokens += j.completion_tokens;
  if (r.status != example_status::ok || !j.label) return;
  ++g.labelled;
  g.label_sum += *j.label;
  g.confidence_sum += j.confidence.value_or(0.0);
  g.labels.push_back(static_cast<float>(*j.label));
  g.confidences.push_back(static_cast<float>(j.confidence.value_or(0.0)));
  // The example's EX record comes before its judges' records (same unit, techniques first).
  if (!ex_indexed_) {
    for (const auto& [key, ex] : ex_list_) ex_of_example_[key] = ex;
    ex_list_ = {};
    ex_indexed_ = true;
  }
  const auto ex = ex_of_example_.find(example_key(ids.example, ids.system_id));
  if (ex == ex_of_example_.end() || !ex->second) return;
  const bool judge1 = *j.label == 1;
  const bool ex1 = *ex->second >= 1.0;
  ++g.versus_ex[(judge1 ? 0 : 2) + (ex1 ? 0 : 1)];
}

std::optional<double> run_summary::group::qvt() const {
  // NL2SQL360's QVT: over the gold queries asked by 2 or more questions, at least one answered
  // right, the mean share of right answers.
  double sum = 0;
  std::size_t groups = 0;
  for (const gold_counts& c : ex_by_gold) {
    if (c.records < 2 || c.right == 0) continue;
    sum += static_cast<double>(c.right) / c.records;
    ++groups;
  }
  if (groups == 0) return std::nullopt;
  return sum / static_cast<double>(groups);
}

std::vector<float> run_summary::group::qvt_shares() const {
  // In the order the gold queries were first met (their ids), so that the interval is reproducible.
  std::vector<float> out;
  for (const gold_counts& c : ex_by_gold) {
    if (c.records < 2 || c.right == 0) continue;
    out.push_back(static_cast<float>(static_cast<double>(c.right) / c.records));
  }
  return out;
}

run_summary::group::gold_counts& run_summary::group::counts_of_gold(std::uint32_t gold) {
  if (ex_by_gold.empty() || ex_by_gold.back().gold < gold)
    return ex_by_gold.emplace_back(gold_counts{gold, 0, 0});
  if (ex_by_gold.back().gold == gold) return ex_by_gold.back();
  const auto at = std::lower_bound(ex_by_gold.begin(), ex_by_gold.end(), gold,
                                   [](const gold_counts& c, std::uint32_t g) { return c.gold < g; });
  if (at != ex_by_gold.end() && at->gold == gold) return *at;
  return *ex_by_gold.insert(at, gold_counts{gold, 0, 0});
}

std::size_t run_summary::group::qvt_groups() const {
  std::size_t groups = 0;
  for (const gold_counts& c : ex_by_gold) groups += c.records >= 2 && c.right > 0;
  return groups;
}

void run_summary::add(const record& r, const example_facts* facts, std::size_t slot) {
  // An example's records come together: after its first (slot 0), the ids are the example's.
  const example_ids& ids = slot != no_slot && slot > 0 && has_current_ ? current_ : ids_of(r);
  if (is_judge_technique(r.technique)) return add_judge(r, ids);
  if (r.technique == ex_technique) {
    saw_ex_ = true;
    if (ex_indexed_)
      ex_of_example_[example_key(ids.example, ids.system_id)] = r.scores.ex;
    else
      ex_list_.emplace_back(example_key(ids.example, ids.system_id), r.scores.ex);
  }
  spider::exact_match_scores em;
  if (r.technique == exact_match_technique && r.status == example_status::ok &&
      exact_match_scores_of(r, em)) {
    auto it = std::find_if(exact_match_.begin(), exact_match_.end(),
                           [&](const auto& entry) { return entry.first == r.system; });
    if (it == exact_match_.end()) {
      it = exact_match_.insert(exact_match_.end(), {r.system, {}});
      exact_match_values_.emplace_back();
    }
    it->second.add(r.difficulty, em);
    // The same levels as exact_match_summary::add: the difficulty's (when it is one) and "all".
    auto& values = exact_match_values_[static_cast<std::size_t>(it - exact_match_.begin())];
    const auto& levels = spider::exact_match_levels;
    const std::size_t all = levels.size() - 1;
    const auto level = std::find(levels.begin(), levels.begin() + all, r.difficulty);
    if (level != levels.begin() + all)
      values[static_cast<std::size_t>(level - levels.begin())].push_back(em.exact);
    values[all].push_back(em.exact);
  }
  const std::uint32_t penalize = r.penalize_extra_pred_cols ? (*r.penalize_extra_pred_cols ? 1 : 0) : 2;
  const std::array<group*, 3> found = groups_of_(r, ids, penalize, slot);
  group& top = *found[0];
  top.add(r);
  top.entries.back().question = ids.question;
  top.entries.back().difficulty = ids.difficulty_number;
  top.entries.back().database = ids.db_number;
  if (facts != nullptr) {
    top.entries.back().features = facts->gold_features;
    const std::optional<double>* metrics[4] = {&r.scores.ex, &r.scores.exp, &r.scores.exr, &r.scores.f1};
    const std::uint32_t mask_number = mask_number_of(facts->gold_features);
    if (top.mask_slices.size() <= mask_number) top.mask_slices.resize(mask_number + 1);
    auto& [mask, s] = top.mask_slices[mask_number];
    mask = facts->gold_features;
    ++s.count;
    for (int m = 0; m < 4; ++m) {
      if (*metrics[m]) s.sum[m] += **metrics[m], ++s.n[m];
    }
    // The example's gold query: compared with the last one once per example (its records share
    // it), and numbered when a record with EX meets it (the order QVT's groups keep).
    if (slot == no_slot || !current_.has_gold || current_.gold_example != ids.example) {
      current_.gold_example = ids.example;
      if (!current_.has_gold || current_.gold != facts->gold) {
        current_.gold = facts->gold;
        current_.has_gold = true;
        current_.gold_numbered = false;
      }
    }
    if (r.scores.ex) {
      if (!current_.gold_numbered) {
        current_.gold_id = number_of(gold_ids_, current_.gold);
        current_.gold_numbered = true;
      }
      group::gold_counts& counts = top.counts_of_gold(current_.gold_id);
      ++counts.records;
      counts.right += *r.scores.ex >= 1.0;
    }
  }
  // The breakdown groups keep no entries of their own (breakdown_values).
  const auto top_index = static_cast<std::uint32_t>(found[0] - groups_.items.data());
  group& d = *found[1];
  if (d.count == 0)
    d.difficulty = r.difficulty, d.top = top_index, d.breakdown_number = ids.difficulty_number;
  d.add(r, false);
  group& b = *found[2];
  if (b.count == 0) b.db_id = r.db_id, b.top = top_index, b.breakdown_number = ids.db_number;
  b.add(r, false);
}

std::vector<std::vector<double>> run_summary::breakdown_values(const std::vector<const group*>& of,
                                                               bool database, unsigned threads) const {
  // Where each top-level group's records of a difficulty or database go: the breakdown group's
  // position in `of`, by the difficulty's or database's number.
  constexpr std::uint32_t none = no_group;
  std::vector<std::vector<std::uint32_t>> position(groups_.items.size());
  for (std::size_t i = 0; i < of.size(); ++i) {
    if (of[i]->top >= groups_.items.size()) continue;
    std::vector<std::uint32_t>& of_top = position[of[i]->top];
    if (of_top.size() <= of[i]->breakdown_number) of_top.resize(of[i]->breakdown_number + 1, none);
    of_top[of[i]->breakdown_number] = static_cast<std::uint32_t>(i);
  }
  // One pass over each top-level group's entries, on the threads: a breakdown group has one
  // top-level group, so each set is written by one thread, in record order.
  std::vector<std::vector<double>> sets(4 * of.size());
  parallel_for(groups_.items.size(), threads, [&](std::size_t t) {
    const std::vector<std::uint32_t>& of_top = position[t];
    if (of_top.empty()) return;
    for (const group::entry& e : groups_.items[t].entries) {
      const std::uint32_t number = database ? e.database : e.difficulty;
      if (number < of_top.size() && of_top[number] != none)
        e.append_metrics(&sets[4 * static_cast<std::size_t>(of_top[number])]);
    }
  });
  return sets;
}

std::array<run_summary::group*, 3> run_summary::groups_of_(const record& r, const example_ids& ids,
                                                           std::uint32_t penalize, std::size_t slot) {
  indexed* const tables[3] = {&groups_, &by_difficulty_, &by_database_};
  if (slot == no_slot) {
    const group_key key{ids.system_id, id_of(r.technique), penalize, 0};
    return {&groups_.at(key, r), &by_difficulty_.at({key[0], key[1], key[2], ids.difficulty_number}, r),
            &by_database_.at({key[0], key[1], key[2], ids.db_number}, r)};
  }
  if (ids.system_id >= slots_.size()) slots_.resize(ids.system_id + 1);
  std::vector<slot_groups>& of_system = slots_[ids.system_id];
  if (slot >= of_system.size()) of_system.resize(slot + 1);
  slot_groups& s = of_system[slot];
  if (!s.known || s.penalize != penalize || s.technique != r.technique) {
    s.technique = r.technique;
    s.technique_id = id_of(r.technique);
    s.penalize = penalize;
    s.top = groups_.index_of({ids.system_id, s.technique_id, penalize, 0}, r);
    for (auto& v : s.by_value) v.clear();
    s.known = true;
  }
  std::array<group*, 3> out{&groups_.items[s.top], nullptr, nullptr};
  const std::uint32_t numbers[2] = {ids.difficulty_number, ids.db_number};
  for (std::size_t t = 0; t < 2; ++t) {
    std::vector<std::uint32_t>& known = s.by_value[t];
    if (known.size() <= numbers[t]) known.resize(numbers[t] + 1, no_group);
    std::uint32_t& index = known[numbers[t]];
    if (index == no_group)
      index = static_cast<std::uint32_t>(
          tables[t + 1]->index_of({ids.system_id, s.technique_id, penalize, numbers[t]}, r));
    out[t + 1] = &tables[t + 1]->items[index];
  }
  return out;
}

std::uint32_t run_summary::mask_number_of(std::uint32_t mask) {
  if (last_mask_number_ == no_group || last_mask_ != mask) {
    last_mask_ = mask;
    last_mask_number_ =
        mask_numbers_.try_emplace(mask, static_cast<std::uint32_t>(mask_numbers_.size())).first->second;
  }
  return last_mask_number_;
}

const run_summary::example_ids& run_summary::ids_of(const record& r) {
  if (has_current_ && current_.id == r.id && current_.system == r.system &&
      current_.difficulty == r.difficulty && current_.db_id == r.db_id)
    return current_;
  const bool first = !has_current_;
  has_current_ = true;
  current_.id = r.id;
  current_.example = number_of(record_ids_, r.id);
  if (first || current_.system != r.system) {
    current_.system = r.system;
    current_.system_id = id_of(r.system);
  }
  if (first || current_.difficulty != r.difficulty) {
    current_.difficulty = r.difficulty;
    current_.difficulty_number = number_of(difficulty_numbers_, r.difficulty);
  }
  if (first || current_.db_id != r.db_id) {
    current_.db_id = r.db_id;
    current_.db_number = number_of(database_numbers_, r.db_id);
  }
  // The question: the id without the "SYSTEM:" prefix of benchmark runs.
  std::string_view question = r.id;
  if (!r.system.empty() && question.size() > r.system.size() &&
      question.substr(0, r.system.size()) == r.system && question[r.system.size()] == ':')
    question.remove_prefix(r.system.size() + 1);
  if (first || current_.question_text != question) {
    current_.question_text = question;
    current_.question = number_of(question_ids_, question);
  }
  return current_;
}

std::vector<std::string> run_summary::systems() const {
  std::vector<std::string> out;
  for (const group& g : groups_.items) {
    if (std::find(out.begin(), out.end(), g.system) == out.end()) out.push_back(g.system);
  }
  return out;
}

nlohmann::ordered_json run_summary::to_json(std::size_t examples, double wall_seconds,
                                            unsigned threads) const {
  // (Its values are the whole document: growing its keys would copy them.)
  nlohmann::ordered_json j = json_object_with_room(16);
  j["examples"] = examples;
  j["wall_seconds"] = wall_seconds;
  // The intervals are most of the work: computed first, for all groups at once in batches
  // (group_intervals_of), then each group's entries are made in parallel into their own slots and
  // put in order. One plan serves every thread (its resamplings depend only on the sample size
  // and the seed), so the numbers do not depend on the threads.
  output::resample_plan plan;
  std::vector<const group*> by_difficulty;
  for (const group& g : by_difficulty_.items) by_difficulty.push_back(&g);
  std::stable_sort(by_difficulty.begin(), by_difficulty.end(), [](const group* a, const group* b) {
    return difficulty_rank(a->difficulty) < difficulty_rank(b->difficulty);
  });
  bool sliced = false;
  for (const group& g : groups_.items) sliced = sliced || !g.mask_slices.empty();
  const std::vector<group_intervals> top_intervals = group_intervals_of(groups_.items, sliced, plan, threads);
  // A breakdown group's values are its top-level group's of its difficulty or database.
  std::vector<const group*> by_database;
  for (const group& g : by_database_.items) by_database.push_back(&g);
  const std::vector<group_intervals::of_metrics> difficulty_intervals =
      metric_intervals_of(breakdown_values(by_difficulty, false, threads), plan, threads);
  const std::vector<group_intervals::of_metrics> database_intervals =
      metric_intervals_of(breakdown_values(by_database, true, threads), plan, threads);
  const std::size_t n_groups = groups_.items.size();
  const std::size_t n_difficulty = by_difficulty.size();
  const std::size_t n_database = by_database_.items.size();
  // Slots: techniques, by_difficulty, by_database, then (when sliced) each group's by_feature
  // entries and its qvt entry.
  std::vector<nlohmann::ordered_json> slots(n_groups + n_difficulty + n_database +
                                            (sliced ? 2 * n_groups : 0));
  parallel_for(slots.size(), threads, [&](std::size_t k) {
    if (k < n_groups) {
      slots[k] = group_json(groups_.items[k], nullptr, "", top_intervals[k].metrics);
      return;
    }
    k -= n_groups;
    if (k < n_difficulty) {
      slots[n_groups + k] =
          group_json(*by_difficulty[k], "difficulty", by_difficulty[k]->difficulty, difficulty_intervals[k]);
      return;
    }
    k -= n_difficulty;
    if (k < n_database) {
      const group& g = by_database_.items[k];
      slots[n_groups + n_difficulty + k] = group_json(g, "db_id", g.db_id, database_intervals[k]);
      return;
    }
    k -= n_database;
    nlohmann::ordered_json& slot = slots[n_groups + n_difficulty + n_database + k];
    if (k < n_groups) {
      slot = feature_json(groups_.items[k], top_intervals[k]);
    } else {
      slot = qvt_json(groups_.items[k - n_groups], plan);
    }
  });
  std::size_t at = 0;
  j["techniques"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < n_groups; ++k) j["techniques"].push_back(std::move(slots[at++]));
  j["by_difficulty"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < n_difficulty; ++k) j["by_difficulty"].push_back(std::move(slots[at++]));
  j["by_database"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < n_database; ++k) j["by_database"].push_back(std::move(slots[at++]));
  // Per SQL feature of the gold query (runs whose records came with their examples' facts).
  if (sliced) {
    j["by_feature"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < n_groups; ++k) {
      for (auto& t : slots[at++]) j["by_feature"].push_back(std::move(t));
    }
    j["qvt"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < n_groups; ++k) {
      nlohmann::ordered_json& q = slots[at++];
      if (!q.is_null()) j["qvt"].push_back(std::move(q));
    }
  }
  if (!exact_match_.empty()) {
    j["spider_exact_match"] = nlohmann::ordered_json::array();
    for (std::size_t e = 0; e < exact_match_.size(); ++e) {
      const auto& [system, summary] = exact_match_[e];
      nlohmann::ordered_json t;
      t["system"] = system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(system);
      t["by_difficulty"] = exact_match_json(summary);
      const auto& values = exact_match_values_[e];
      for (std::size_t l = 0; l < spider::exact_match_levels.size(); ++l)
        t["by_difficulty"][spider::exact_match_levels[l]]["interval"] = {
            {"EM", interval_json(values[l], plan)}};
      j["spider_exact_match"].push_back(std::move(t));
    }
  }
  j["judges"] = nlohmann::ordered_json::array();
  for (const judge_group& g : judges_) {
    nlohmann::ordered_json t;
    const auto opt = [](const std::optional<double>& v) {
      return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
    };
    t["system"] = g.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.system);
    t["judge"] = g.judge;
    t["count"] = g.count;
    t["labelled"] = g.labelled;
    t["mean_label"] = opt(g.mean_label());
    t["mean_confidence"] = opt(g.mean_confidence());
    t["interval"] = {{"mean_label", interval_json(g.labels, plan)},
                     {"mean_confidence", interval_json(g.confidences, plan)}};
    t["statuses"] = nlohmann::ordered_json::object();
    for (const auto& [status, n] : g.statuses()) t["statuses"][status] = n;
    t["prompt_tokens"] = g.prompt_tokens;
    t["completion_tokens"] = g.completion_tokens;
    if (saw_ex_) {
      nlohmann::ordered_json counts = nlohmann::ordered_json::object();
      for (int k = 0; k < 4; ++k) counts[agreement_names[k]] = g.versus_ex[static_cast<std::size_t>(k)];
      t["agreement_with_ex"] = {
          {"compared", g.compared()}, {"agreement", opt(g.agreement())}, {"counts", counts}};
    } else {
      t["agreement_with_ex"] = nullptr;
    }
    j["judges"].push_back(std::move(t));
  }
  j["statistics"] = statistics_json(*this, plan, threads);
  return j;
}

std::string run_summary::judges_table() const {
  bool any_system = false;
  for (const judge_group& g : judges_) any_system = any_system || !g.system.empty();
  text_table table;
  std::vector<std::string> header;
  if (any_system) header.push_back("system");
  for (const char* h :
       {"judge", "count", "label=1", "confidence", "agree EX", "1/1 1/0 0/1 0/0", "tokens", "statuses"}) {
    header.emplace_back(h);
  }
  table.set_header(header);
  const std::size_t first = any_system ? 2 : 1;
  table.align_right({first, first + 1, first + 2, first + 3, first + 4, first + 5});
  for (const judge_group& g : judges_) {
    std::vector<std::string> row;
    if (any_system) row.push_back(g.system);
    row.push_back(g.judge);
    row.push_back(std::to_string(g.count));
    row.push_back(format_share(g.mean_label(), 4));
    row.push_back(format_share(g.mean_confidence(), 1));
    row.push_back(saw_ex_ ? format_share(g.agreement(), 4) : "-");
    std::string counts = "-";
    if (saw_ex_) {
      counts.clear();
      for (const std::size_t n : g.versus_ex) counts += (counts.empty() ? "" : " ") + std::to_string(n);
    }
    row.push_back(counts);
    row.push_back(std::to_string(g.prompt_tokens) + "+" + std::to_string(g.completion_tokens));
    std::string statuses;
    for (const auto& [status, n] : g.statuses())
      statuses += (statuses.empty() ? "" : " ") + status + "=" + std::to_string(n);
    row.push_back(statuses);
    table.add_row(std::move(row));
  }
  return table.render();
}

std::string run_summary::to_table() const {
  bool any_system = false;
  for (const group& g : groups_.items) any_system = any_system || !g.system.empty();
  text_table table;
  std::vector<std::string> header;
  if (any_system) header.push_back("system");
  for (const char* h : {"technique", "penalize", "count", "EX", "EXP", "EXR", "F1", "statuses"})
    header.emplace_back(h);
  table.set_header(header);
  const std::size_t first_metric = any_system ? 3 : 2;
  table.align_right({first_metric, first_metric + 1, first_metric + 2, first_metric + 3, first_metric + 4});
  for (const group& g : groups_.items) {
    std::vector<std::string> row;
    if (any_system) row.push_back(g.system);
    row.push_back(g.technique);
    row.push_back(g.penalize ? (*g.penalize ? "true" : "false") : "-");
    row.push_back(std::to_string(g.count));
    for (int m = 0; m < 4; ++m) row.push_back(format_metric(g.mean(m)));
    std::string statuses;
    for (const auto& [status, n] : g.statuses())
      statuses += (statuses.empty() ? "" : " ") + status + "=" + std::to_string(n);
    row.push_back(statuses);
    table.add_row(std::move(row));
  }
  return table.render();
}

std::string run_summary::systems_table() const {
  const std::vector<std::string> systems = this->systems();
  if (systems.size() > max_side_by_side) return ranked_systems_table();
  text_table table;
  std::vector<std::string> header = {"technique", "metric"};
  header.insert(header.end(), systems.begin(), systems.end());
  table.set_header(header);
  std::set<std::size_t> right;
  for (std::size_t i = 0; i < systems.size(); ++i) right.insert(i + 2);
  table.align_right(right);
  std::vector<std::string> labels;
  std::map<std::string, std::vector<std::string>> rows;
  for (const group& g : groups_.items) {
    const std::string label = variant_label(g.technique, g.penalize);
    auto [it, added] = rows.try_emplace(label, std::vector<std::string>(systems.size() + 2, "-"));
    if (added) {
      labels.push_back(label);
      it->second[0] = label;
      it->second[1] = g.n[3] > 0 ? "F1" : "EX";
    }
    const auto s = std::find(systems.begin(), systems.end(), g.system) - systems.begin();
    it->second[static_cast<std::size_t>(s) + 2] = format_metric(g.headline());
  }
  for (const std::string& label : labels) table.add_row(rows[label]);
  return table.render();
}

std::string run_summary::ranked_systems_table() const {
  // The technique variants in order, and each system's headline per variant.
  std::vector<std::string> labels;
  std::vector<std::string> metrics;
  std::map<std::string, std::map<std::string, std::optional<double>>> headline;  // system -> label -> value
  for (const group& g : groups_.items) {
    const std::string label = variant_label(g.technique, g.penalize);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
      labels.push_back(label);
      metrics.push_back(g.n[3] > 0 ? "F1" : "EX");
    }
    headline[g.system][label] = g.headline();
  }
  const std::size_t shown = std::min<std::size_t>(labels.size(), max_ranked_columns);
  std::vector<std::string> systems = this->systems();
  std::stable_sort(systems.begin(), systems.end(), [&](const std::string& a, const std::string& b) {
    return headline[a][labels.front()].value_or(-1) > headline[b][labels.front()].value_or(-1);
  });
  text_table table;
  std::vector<std::string> header = {"rank", "system"};
  for (std::size_t i = 0; i < shown; ++i) header.push_back(labels[i] + " " + metrics[i]);
  table.set_header(header);
  std::set<std::size_t> right = {0};
  for (std::size_t i = 0; i < shown; ++i) right.insert(i + 2);
  table.align_right(right);
  for (std::size_t r = 0; r < systems.size(); ++r) {
    std::vector<std::string> row = {std::to_string(r + 1), systems[r]};
    for (std::size_t i = 0; i < shown; ++i) row.push_back(format_metric(headline[systems[r]][labels[i]]));
    table.add_row(std::move(row));
  }
  std::string out =
      std::to_string(systems.size()) + " systems, ranked by " + labels.front() + " " + metrics.front() +
      (shown < labels.size()
           ? " (" + std::to_string(labels.size() - shown) + " more technique variants in summary.json)"
           : std::string()) +
      ":\n" + table.render();
  return out;
}

std::string run_summary::difficulty_table(const std::string& system) const {
  std::vector<std::string> difficulties;
  for (const group& g : by_difficulty_.items) {
    if (g.system == system && !g.difficulty.empty() &&
        std::find(difficulties.begin(), difficulties.end(), g.difficulty) == difficulties.end()) {
      difficulties.push_back(g.difficulty);
    }
  }
  if (difficulties.empty()) return {};
  std::stable_sort(difficulties.begin(), difficulties.end(), [](const std::string& a, const std::string& b) {
    return difficulty_rank(a) < difficulty_rank(b);
  });
  text_table table;
  std::vector<std::string> header = {"technique", "metric"};
  for (const std::string& d : difficulties) header.push_back(d);
  header.emplace_back("all");
  table.set_header(header);
  std::set<std::size_t> right;
  for (std::size_t i = 0; i < difficulties.size() + 1; ++i) right.insert(i + 2);
  table.align_right(right);
  std::size_t rows = 0;
  for (const group& g : groups_.items) {
    if (g.system != system) continue;
    // Exact set match has no EX/F1: its numbers per difficulty are in its own official table.
    if (g.technique == exact_match_technique) continue;
    ++rows;
    std::vector<std::string> row = {variant_label(g.technique, g.penalize), g.n[3] > 0 ? "F1" : "EX"};
    for (const std::string& d : difficulties) {
      std::string cell = "-";
      for (const group& dg : by_difficulty_.items) {
        if (dg.system == g.system && dg.technique == g.technique && dg.penalize == g.penalize &&
            dg.difficulty == d) {
          cell = format_metric(dg.headline());
        }
      }
      row.push_back(cell);
    }
    row.push_back(format_metric(g.headline()));
    table.add_row(std::move(row));
  }
  if (rows == 0) return {};
  // The number of examples per difficulty, as the official evaluator prints it.
  std::vector<std::string> counts = {"count", ""};
  std::size_t total = 0;
  for (const std::string& d : difficulties) {
    std::size_t n = 0;
    for (const group& dg : by_difficulty_.items) {
      if (dg.system == system && dg.difficulty == d) n = std::max(n, dg.count);
    }
    counts.push_back(std::to_string(n));
    total += n;
  }
  counts.push_back(std::to_string(total));
  table.add_row(std::move(counts));
  return table.render();
}

}  // namespace sqlmorph::core
