#include "output/record_json.hpp"

#include <cmath>

namespace sqlmorph::core {
namespace {

nlohmann::ordered_json metric(const std::optional<double>& m, bool integral) {
  if (!m) return nullptr;
  if (integral && (*m == 0.0 || *m == 1.0)) return static_cast<int>(*m);
  return *m;
}

nlohmann::ordered_json field_json(const field_value& v) {
  struct visitor {
    nlohmann::ordered_json operator()(std::nullptr_t) const { return nullptr; }
    nlohmann::ordered_json operator()(bool b) const { return b; }
    nlohmann::ordered_json operator()(std::int64_t i) const { return i; }
    nlohmann::ordered_json operator()(double d) const { return d; }
    nlohmann::ordered_json operator()(const std::string& s) const { return s; }
  };
  return std::visit(visitor{}, v);
}

nlohmann::ordered_json milliseconds(const std::optional<double>& ms) {
  if (!ms) return nullptr;
  return std::round(*ms * 1000.0) / 1000.0;
}

}  // namespace

nlohmann::ordered_json record_to_json(const record& r, bool with_example) {
  nlohmann::ordered_json j;
  if (with_example) {
    j["id"] = r.id;
    j["db_id"] = r.db_id;
    j["system"] = r.system.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.system);
  }
  j["technique"] = r.technique;
  j["penalize_extra_pred_cols"] =
      r.penalize_extra_pred_cols ? nlohmann::ordered_json(*r.penalize_extra_pred_cols) : nlohmann::ordered_json(nullptr);
  j["status"] = std::string(example_status_name(r.status));
  j["EX"] = metric(r.scores.ex, true);
  j["EXP"] = metric(r.scores.exp, false);
  j["EXR"] = metric(r.scores.exr, false);
  j["F1"] = metric(r.scores.f1, false);
  j["error"] = r.error.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.error);
  j["gold_ms"] = milliseconds(r.gold_ms);
  j["pred_ms"] = milliseconds(r.pred_ms);
  for (const auto& [name, value] : r.scores.extra) j[name] = field_json(value);
  return j;
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace sqlmorph::core
