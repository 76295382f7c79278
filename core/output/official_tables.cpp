#include "output/official_tables.hpp"

#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "output/exact_match_table.hpp"

namespace sqlmorph::core {
namespace {

// Python's str.format for the few specs the official scripts use.
std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}
std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// The groups of one system and technique: the whole run and each difficulty.
struct technique_groups {
  const run_summary::group* all = nullptr;
  std::vector<const run_summary::group*> by_difficulty;
  const run_summary::group* at(const std::string& difficulty) const {
    for (const run_summary::group* g : by_difficulty) {
      if (g->difficulty == difficulty) return g;
    }
    return nullptr;
  }
};

technique_groups groups_of(const run_summary& s, const std::string& system, const std::string& technique) {
  technique_groups out;
  for (const run_summary::group& g : s.groups()) {
    if (g.system == system && g.technique == technique && !g.penalize) out.all = &g;
  }
  for (const run_summary::group& g : s.by_difficulty()) {
    if (g.system == system && g.technique == technique && !g.penalize) out.by_difficulty.push_back(&g);
  }
  return out;
}

bool has_any_level(const technique_groups& t, const std::vector<std::string>& levels) {
  for (const std::string& level : levels) {
    if (t.at(level) != nullptr) return true;
  }
  return false;
}

// Whether the technique judged any prediction: a record ok, or one whose prediction failed, timed
// out or was too large (scored 0, as the official scripts count it). A technique that could not
// run at all (spider_test_suite on a backend that opens no database files: technique_error on
// every record) gets no row rather than a row of zeros.
bool judged_any(const technique_groups& t) {
  if (t.all == nullptr) return false;
  for (const example_status s : {example_status::ok, example_status::pred_error, example_status::timeout,
                                 example_status::truncated, example_status::pred_missing}) {
    if (t.all->status_counts[static_cast<std::size_t>(s)] > 0) return true;
  }
  return false;
}

// One row's numbers: per level (the last is the whole run) the value and the number of scored
// examples, 0 where there are none.
using metric_of = std::function<std::optional<double>(const run_summary::group&)>;
struct row_values {
  std::vector<double> values;
  std::vector<std::size_t> counts;
};
row_values values_of(const technique_groups& t, const std::vector<std::string>& levels,
                     const metric_of& metric,
                     const std::function<std::size_t(const run_summary::group&)>& count) {
  row_values out;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const run_summary::group* g = i + 1 == levels.size() ? t.all : t.at(levels[i]);
    out.values.push_back(g != nullptr ? metric(*g).value_or(0.0) : 0.0);
    out.counts.push_back(g != nullptr ? count(*g) : 0);
  }
  return out;
}

}  // namespace

std::string spider_official_table(const run_summary& summary, const std::string& system) {
  const std::vector<std::string> levels = {"easy", "medium", "hard", "extra", "all"};
  const std::vector<std::string> hardness(levels.begin(), levels.end() - 1);
  const std::array<std::pair<const char*, const char*>, 2> rows = {
      {{"execution", "spider_official_exec"}, {"test-suite", "spider_test_suite"}}};
  // print_scores(etype="all"): the levels, one count row, the execution block, the exact-match block.
  std::string exec_block;
  std::optional<std::vector<std::size_t>> counts;
  for (const auto& [label, technique] : rows) {
    const technique_groups t = groups_of(summary, system, technique);
    if (!judged_any(t) || !has_any_level(t, hardness)) continue;
    const row_values v = values_of(
        t, levels, [](const run_summary::group& g) { return g.mean(0); },
        [](const run_summary::group& g) { return g.n[0]; });
    if (!counts) {
      counts = v.counts;
      exec_block = "=====================   EXECUTION ACCURACY     =====================\n";
    }
    exec_block += padded(label, 20) + " ";
    for (std::size_t i = 0; i < levels.size(); ++i)
      exec_block += (i ? " " : "") + padded(fixed(v.values[i], 3), 20);
    exec_block += "\n";
  }
  const spider::exact_match_summary* em = nullptr;
  for (const auto& [name, s] : summary.exact_match()) {
    if (name == system) em = &s;
  }
  if (!counts && em == nullptr) return "";
  std::string em_count_label;
  if (em != nullptr) {
    const std::vector<std::size_t> em_counts = exact_match_counts(*em);
    // Exact match needs tables.json only, execution a database file: where the counts differ
    // (a database absent), the exact-match block gets its own count row.
    if (!counts)
      counts = em_counts;
    else if (*counts != em_counts)
      em_count_label = "count (exact match)";
  }
  // print_formated_s: "{:20} " + ' '.join([fmt] * len(l))
  std::string out = padded("", 20) + " ";
  for (std::size_t i = 0; i < levels.size(); ++i) out += (i ? " " : "") + padded(levels[i], 20);
  out += "\n" + padded("count", 20) + " ";
  for (std::size_t i = 0; i < levels.size(); ++i)
    out += (i ? " " : "") + padded(std::to_string((*counts)[i]), 20);
  out += "\n" + exec_block;
  if (em != nullptr) out += exact_match_text(*em, em_count_label);
  return out;
}

std::string bird_official_table(const run_summary& summary, const std::string& system) {
  const std::vector<std::string> levels = {"simple", "moderate", "challenging", "total"};
  const std::vector<std::string> difficulties(levels.begin(), levels.end() - 1);
  const auto scored_ex = [](const run_summary::group& g) { return g.n[0]; };
  struct block {
    const char* metric;
    std::vector<const char*> techniques;  // the first the run has
    metric_of value;
    std::function<std::size_t(const run_summary::group&)> count;
  };
  const std::vector<block> blocks = {
      {"EX",
       {"execution_accuracy", "bird_soft_f1"},
       [](const run_summary::group& g) { return g.mean(0); },
       scored_ex},
      {"Soft-F1",
       {"bird_soft_f1"},
       [](const run_summary::group& g) { return g.mean(3); },
       [](const run_summary::group& g) { return g.n[3]; }},
      {"R-VES",
       {"bird_ves"},
       [](const run_summary::group& g) { return g.r_ves(); },
       [](const run_summary::group& g) { return g.ves_n; }},
  };
  std::string out;
  for (const block& b : blocks) {
    for (const char* technique : b.techniques) {
      const technique_groups t = groups_of(summary, system, technique);
      if (!judged_any(t) || !has_any_level(t, difficulties)) continue;
      const row_values v = values_of(
          t, levels,
          [&](const run_summary::group& g) -> std::optional<double> {
            const auto m = b.value(g);
            return m ? std::optional<double>(std::string(b.metric) == "R-VES" ? *m : *m * 100.0)
                     : std::nullopt;
          },
          b.count);
      // print_data: "{:20} {:20} {:20} {:20} {:20}", then "{:20} {:<20} ..." for the counts.
      out += padded("", 20);
      for (const std::string& level : levels) out += " " + padded(level, 20);
      out += "\n" + padded("count", 20);
      for (const std::size_t n : v.counts) out += " " + padded(std::to_string(n), 20);
      out += "\n======================================    " + std::string(b.metric) +
             "    =====================================\n" + padded(b.metric, 20);
      for (const double x : v.values) out += " " + padded(fixed(x, 2), 20);
      out += "\n";
      break;
    }
  }
  return out;
}

std::string official_tables_text(const run_summary& summary) {
  std::string out;
  for (const std::string& system : summary.systems()) {
    const std::string label = system.empty() ? std::string() : " (" + system + ")";
    if (const std::string t = spider_official_table(summary, system); !t.empty())
      out += "\nSpider, as the official evaluator prints it" + label + ":\n" + t;
    if (const std::string t = bird_official_table(summary, system); !t.empty())
      out += "\nBIRD, as its evaluation scripts print it" + label + ":\n" + t;
  }
  return out;
}

}  // namespace sqlmorph::core
