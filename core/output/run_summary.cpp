#include "output/run_summary.hpp"

#include "output/text_table.hpp"

namespace sqlmorph::core {
namespace {
const char* const metric_names[4] = {"EX", "EXP", "EXR", "F1"};

std::string format_metric(const std::optional<double>& m) {
  if (!m) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", *m);
  return buf;
}
}  // namespace

std::optional<double> run_summary::group::mean(int metric) const {
  if (n[metric] == 0) return std::nullopt;
  return sum[metric] / static_cast<double>(n[metric]);
}

void run_summary::add(const record& r) {
  const int p = r.penalize_extra_pred_cols ? (*r.penalize_extra_pred_cols ? 1 : 0) : -1;
  const auto key = std::make_tuple(r.system, r.technique, p);
  auto it = index_.find(key);
  if (it == index_.end()) {
    it = index_.emplace(key, groups_.size()).first;
    group g;
    g.system = r.system;
    g.technique = r.technique;
    g.penalize = r.penalize_extra_pred_cols;
    groups_.push_back(std::move(g));
  }
  group& g = groups_[it->second];
  ++g.count;
  ++g.statuses[std::string(example_status_name(r.status))];
  const std::optional<double>* metrics[4] = {&r.scores.ex, &r.scores.exp, &r.scores.exr, &r.scores.f1};
  for (int m = 0; m < 4; ++m) {
    if (*metrics[m]) {
      g.sum[m] += **metrics[m];
      ++g.n[m];
    }
  }
}

nlohmann::ordered_json run_summary::to_json(std::size_t examples, double wall_seconds) const {
  nlohmann::ordered_json j;
  j["examples"] = examples;
  j["wall_seconds"] = wall_seconds;
  j["techniques"] = nlohmann::ordered_json::array();
  for (const group& g : groups_) {
    nlohmann::ordered_json t;
    t["system"] = g.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.system);
    t["technique"] = g.technique;
    t["penalize_extra_pred_cols"] = g.penalize ? nlohmann::ordered_json(*g.penalize) : nlohmann::ordered_json(nullptr);
    t["count"] = g.count;
    t["scored"] = g.n[0];
    for (int m = 0; m < 4; ++m) {
      const auto mean = g.mean(m);
      t[metric_names[m]] = mean ? nlohmann::ordered_json(*mean) : nlohmann::ordered_json(nullptr);
    }
    t["statuses"] = nlohmann::ordered_json::object();
    for (const auto& [status, n] : g.statuses) t["statuses"][status] = n;
    j["techniques"].push_back(std::move(t));
  }
  return j;
}

std::string run_summary::to_table() const {
  bool any_system = false;
  for (const group& g : groups_) any_system = any_system || !g.system.empty();
  text_table table;
  std::vector<std::string> header;
  if (any_system) header.push_back("system");
  for (const char* h : {"technique", "penalize", "count", "EX", "EXP", "EXR", "F1", "statuses"}) header.emplace_back(h);
  table.set_header(header);
  table.align_right({any_system ? 3u : 2u, any_system ? 4u : 3u, any_system ? 5u : 4u, any_system ? 6u : 5u,
                     any_system ? 7u : 6u});
  for (const group& g : groups_) {
    std::vector<std::string> row;
    if (any_system) row.push_back(g.system);
    row.push_back(g.technique);
    row.push_back(g.penalize ? (*g.penalize ? "true" : "false") : "-");
    row.push_back(std::to_string(g.count));
    for (int m = 0; m < 4; ++m) row.push_back(format_metric(g.mean(m)));
    std::string statuses;
    for (const auto& [status, n] : g.statuses) statuses += (statuses.empty() ? "" : " ") + status + "=" + std::to_string(n);
    row.push_back(statuses);
    table.add_row(std::move(row));
  }
  return table.render();
}

}  // namespace sqlmorph::core
