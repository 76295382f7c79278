#include "output/exact_match_table.hpp"

#include <cstdio>

namespace sqlmorph::core {

nlohmann::ordered_json exact_match_json(const spider::exact_match_summary& s) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const char* name : spider::exact_match_levels) {
    const spider::exact_match_level level = s.level(name);
    nlohmann::ordered_json l;
    l["count"] = level.count;
    l["EM"] = level.exact;
    l["partial"] = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < spider::partial_clauses.size(); ++c) {
      const auto& p = level.partial[c];
      l["partial"][spider::partial_clauses[c]] = {{"acc", p.acc}, {"rec", p.rec}, {"f1", p.f1}};
    }
    out[name] = std::move(l);
  }
  return out;
}

namespace {

// print_formated_s: "{:20} " then each value as "{:<20.3f}" (or "{:<20d}"), joined by spaces.
std::string row(const std::string& name, const std::vector<std::string>& cells) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-20s ", name.c_str());
  std::string out = buf;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%-20s", cells[i].c_str());
    out += (i == 0 ? "" : " ") + std::string(buf);
  }
  return out + "\n";
}

std::string three_places(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::vector<std::size_t> exact_match_counts(const spider::exact_match_summary& s) {
  std::vector<std::size_t> counts;
  for (const char* name : spider::exact_match_levels) counts.push_back(s.level(name).count);
  return counts;
}

std::string exact_match_text(const spider::exact_match_summary& s, const std::string& count_label) {
  std::vector<spider::exact_match_level> levels;
  std::vector<std::string> counts;
  std::vector<std::string> em;
  for (const char* name : spider::exact_match_levels) {
    levels.push_back(s.level(name));
    counts.push_back(std::to_string(levels.back().count));
    em.push_back(three_places(levels.back().exact));
  }
  std::string out = "\n====================== EXACT MATCHING ACCURACY =====================\n";
  if (!count_label.empty()) out += row(count_label, counts);
  out += row("exact match", em);
  const char* headers[3] = {"\n---------------------PARTIAL MATCHING ACCURACY----------------------\n",
                            "---------------------- PARTIAL MATCHING RECALL ----------------------\n",
                            "---------------------- PARTIAL MATCHING F1 --------------------------\n"};
  for (int kind = 0; kind < 3; ++kind) {
    out += headers[kind];
    for (std::size_t c = 0; c < spider::partial_clauses.size(); ++c) {
      std::vector<std::string> cells;
      for (const auto& level : levels) {
        const auto& p = level.partial[c];
        cells.push_back(three_places(kind == 0 ? p.acc : kind == 1 ? p.rec : p.f1));
      }
      out += row(spider::partial_clauses[c], cells);
    }
  }
  return out;
}

}  // namespace sqlmorph::core
