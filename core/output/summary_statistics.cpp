#include "output/summary_statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "eval/sql_features.hpp"
#include "output/json_object.hpp"
#include "parallel_for.hpp"

namespace sqlmorph::core {
namespace {

const char* const metric_names[4] = {"EX", "EXP", "EXR", "F1"};

using group = run_summary::group;

// The systems of one technique variant, compared pair by pair.
struct pair_comparison {
  std::size_t compared = 0;
  bool by_f1 = false;
  double sum_a = 0;
  double sum_b = 0;
  output::pairwise_counts counts;
  std::size_t ex_compared = 0;
  std::size_t a_only = 0;
  std::size_t b_only = 0;
  std::vector<double> a_f1;
  std::vector<double> b_f1;
};

bool has_f1(const group& g) {
  return g.n[3] > 0;
}

pair_comparison compare(const group& a, const group& b) {
  // Question ids are small numbers (the summary numbers questions in the order first met), so
  // "where is this question among b's records" and "was it compared" are vectors indexed by id.
  std::uint32_t most = 0;
  for (const group::entry& e : a.entries) most = std::max(most, e.question);
  for (const group::entry& e : b.entries) most = std::max(most, e.question);
  constexpr std::uint32_t absent = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> in_b(std::size_t{most} + 1, absent);  // b's first record of each question
  for (std::size_t i = b.entries.size(); i-- > 0;)
    in_b[b.entries[i].question] = static_cast<std::uint32_t>(i);
  std::vector<char> done(std::size_t{most} + 1, 0);
  pair_comparison c;
  c.by_f1 = has_f1(a) && has_f1(b);
  std::vector<double> ha;
  std::vector<double> hb;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const std::uint32_t q = a.entries[i].question;
    if (in_b[q] == absent || done[q]) continue;
    done[q] = 1;
    const std::size_t j = in_b[q];
    const float ea = a.entries[i].metric[0];
    const float eb = b.entries[j].metric[0];
    if (!std::isnan(ea) && !std::isnan(eb)) {
      ++c.ex_compared;
      if (ea >= 1 && eb < 1) ++c.a_only;
      if (ea < 1 && eb >= 1) ++c.b_only;
    }
    const float va = c.by_f1 ? a.entries[i].metric[3] : ea;
    const float vb = c.by_f1 ? b.entries[j].metric[3] : eb;
    if (std::isnan(va) || std::isnan(vb)) continue;
    ha.push_back(va);
    hb.push_back(vb);
  }
  c.compared = ha.size();
  for (std::size_t i = 0; i < ha.size(); ++i) c.sum_a += ha[i], c.sum_b += hb[i];
  c.counts = output::count_pairwise(ha, hb);
  if (c.by_f1) {
    c.a_f1 = std::move(ha);
    c.b_f1 = std::move(hb);
  }
  return c;
}

nlohmann::ordered_json system_name(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

// [low, high] of the mean of `values`, null when there are none.
nlohmann::ordered_json interval_of(std::span<const double> values, output::resample_plan& plan) {
  if (values.empty()) return nullptr;
  const output::interval i = plan.mean_interval(values);
  return {i.low, i.high};
}

// The values of a feature slice: per metric (EX, EXP, EXR, F1), the non-null values of the
// records of `g` whose gold query has (`present`) or lacks feature number `feature`, in record
// order.
std::array<std::vector<double>, 4> slice_values(const group& g, std::size_t feature, bool present) {
  std::array<std::vector<double>, 4> values;  // the four metrics' in one pass over the entries
  for (const group::entry& e : g.entries) {
    if (((e.features >> feature) & 1u) == (present ? 1u : 0u)) e.append_metrics(values.data());
  }
  return values;
}

}  // namespace

std::vector<group_intervals::of_metrics> metric_intervals_of(std::vector<std::vector<double>> sets,
                                                             output::resample_plan& plan, unsigned threads) {
  const std::vector<output::interval> got = plan.compute_intervals(sets, threads);
  std::vector<group_intervals::of_metrics> out(sets.size() / 4);
  for (std::size_t k = 0; k < sets.size(); ++k) {
    if (!sets[k].empty()) out[k / 4][k % 4] = got[k];
  }
  return out;
}

std::vector<group_intervals> group_intervals_of(std::span<const group> groups, bool slices,
                                                output::resample_plan& plan, unsigned threads) {
  std::vector<group_intervals> out(groups.size());
  // Each group's values are gathered on the threads into slots of their own; a set without values
  // has no interval.
  std::vector<std::vector<double>> sets(groups.size() * 4);
  parallel_for(groups.size(), threads, [&](std::size_t k) {
    for (int m = 0; m < 4; ++m) sets[k * 4 + static_cast<std::size_t>(m)] = groups[k].values_of(m);
  });
  std::vector<group_intervals::of_metrics> metrics = metric_intervals_of(std::move(sets), plan, threads);
  for (std::size_t k = 0; k < groups.size(); ++k) out[k].metrics = metrics[k];
  if (!slices) return out;
  // A few features at a time, up to about 64 MB of values (a feature's slices hold every value of
  // the groups: all features at once would be hundreds of MB in a run of many systems). Fewer
  // calls, fewer waits for the last batch of each.
  std::size_t values_per_feature = 0;  // both slices, four metrics
  for (std::size_t k = 0; k < groups.size(); ++k) {
    if (groups[k].mask_slices.empty()) continue;
    out[k].slices.resize(2 * feature_names.size());
    values_per_feature += 4 * groups[k].entries.size();
  }
  constexpr std::size_t most_values = std::size_t{8} << 20;
  const std::size_t features_at_once = std::clamp<std::size_t>(
      most_values / std::max<std::size_t>(1, values_per_feature), 1, feature_names.size());
  for (std::size_t first = 0; first < feature_names.size(); first += features_at_once) {
    const std::size_t count = std::min(features_at_once, feature_names.size() - first);
    // Per group, per feature of this call, absent then present, four metrics each.
    const std::size_t per_group = count * 8;
    sets.assign(groups.size() * per_group, {});
    parallel_for(groups.size(), threads, [&](std::size_t k) {
      if (groups[k].mask_slices.empty()) return;  // (no facts: no slices)
      for (std::size_t f = 0; f < count; ++f) {
        for (const bool present : {false, true}) {
          std::array<std::vector<double>, 4> values = slice_values(groups[k], first + f, present);
          for (std::size_t m = 0; m < 4; ++m)
            sets[k * per_group + f * 8 + (present ? 4 : 0) + m] = std::move(values[m]);
        }
      }
    });
    // (four sets per slice: the slice of group k, feature first + f, present p is number
    // k * 2 * count + 2 * f + p)
    const std::vector<group_intervals::of_metrics> sliced =
        metric_intervals_of(std::move(sets), plan, threads);
    for (std::size_t k = 0; k < groups.size(); ++k) {
      if (out[k].slices.empty()) continue;
      for (std::size_t slice = 0; slice < 2 * count; ++slice)
        out[k].slices[2 * first + slice] = sliced[k * 2 * count + slice];
    }
  }
  return out;
}

nlohmann::ordered_json intervals_json(const group_intervals::of_metrics& intervals) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t m = 0; m < 4; ++m) {
    out[metric_names[m]] = intervals[m] ? nlohmann::ordered_json{intervals[m]->low, intervals[m]->high}
                                        : nlohmann::ordered_json();
  }
  return out;
}

nlohmann::ordered_json interval_json(std::span<const float> values, output::resample_plan& plan) {
  const std::vector<double> v(values.begin(), values.end());
  return interval_of(v, plan);
}

nlohmann::ordered_json statistics_json(const run_summary& s, output::resample_plan& plan, unsigned threads) {
  nlohmann::ordered_json out = json_object_with_room(8);
  out["method"] = "percentile bootstrap of the mean over the scored examples";
  out["confidence"] = 0.95;
  out["resamples"] = plan.resamples();
  out["seed"] = plan.seed();
  // The groups of each technique variant, in the order first seen.
  std::vector<std::pair<std::string, std::vector<const group*>>> variants;
  std::map<std::string, std::size_t> variant_index;
  for (const group& g : s.groups()) {
    const std::string key = g.technique + '\x1f' + (g.penalize ? (*g.penalize ? "1" : "0") : "-");
    const auto [it, added] = variant_index.try_emplace(key, variants.size());
    if (added) variants.push_back({key, {}});
    variants[it->second].second.push_back(&g);
  }
  std::size_t most = 0;
  for (const auto& v : variants) most = std::max(most, v.second.size());
  const bool all_pairs = most <= all_pairs_up_to;
  out["pairs"] = all_pairs ? "all" : "adjacent in ranking";
  // Every pair first, then their comparisons in parallel, each into its slot.
  std::vector<std::pair<const group*, const group*>> pairs;
  for (auto& [key, groups] : variants) {
    if (groups.size() < 2) continue;
    if (all_pairs) {
      for (std::size_t i = 0; i < groups.size(); ++i)
        for (std::size_t j = i + 1; j < groups.size(); ++j) pairs.emplace_back(groups[i], groups[j]);
    } else {
      std::vector<const group*> ranked = groups;
      std::stable_sort(ranked.begin(), ranked.end(), [](const group* x, const group* y) {
        return x->headline().value_or(-1) > y->headline().value_or(-1);
      });
      for (std::size_t i = 0; i + 1 < ranked.size(); ++i) pairs.emplace_back(ranked[i], ranked[i + 1]);
    }
  }
  std::vector<nlohmann::ordered_json> compared(pairs.size());
  parallel_for(pairs.size(), threads, [&](std::size_t k) {
    const group* a = pairs[k].first;
    const group* b = pairs[k].second;
    {
      const pair_comparison c = compare(*a, *b);
      nlohmann::ordered_json p = json_object_with_room(16);
      p["technique"] = a->technique;
      p["penalize_extra_pred_cols"] =
          a->penalize ? nlohmann::ordered_json(*a->penalize) : nlohmann::ordered_json(nullptr);
      p["a"] = system_name(a->system);
      p["b"] = system_name(b->system);
      p["compared"] = c.compared;
      p["metric"] = c.by_f1 ? "F1" : "EX";
      const auto mean = [&](double sum) {
        return c.compared ? nlohmann::ordered_json(sum / static_cast<double>(c.compared))
                          : nlohmann::ordered_json(nullptr);
      };
      p["mean_a"] = mean(c.sum_a);
      p["mean_b"] = mean(c.sum_b);
      p["wins"] = c.counts.wins;
      p["losses"] = c.counts.losses;
      p["ties"] = c.counts.ties;
      if (c.ex_compared > 0)
        p["mcnemar"] = {
            {"a_only", c.a_only}, {"b_only", c.b_only}, {"p", output::mcnemar_exact_p(c.a_only, c.b_only)}};
      else
        p["mcnemar"] = nullptr;
      p["paired_bootstrap_p"] =
          c.by_f1 && c.compared > 0 ? nlohmann::ordered_json(plan.paired_p(c.a_f1, c.b_f1)) : nullptr;
      compared[k] = std::move(p);
    }
  });
  out["pairwise"] = nlohmann::ordered_json::array();
  for (auto& p : compared) out["pairwise"].push_back(std::move(p));
  return out;
}

}  // namespace sqlmorph::core
