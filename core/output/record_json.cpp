#include "output/record_json.hpp"

#include <algorithm>
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
    j["difficulty"] = r.difficulty.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.difficulty);
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

bool record_from_json(const nlohmann::json& j, record& out) {
  try {
    if (!j.is_object()) return false;
    const auto text = [&](const char* key) {
      const auto it = j.find(key);
      return it == j.end() || it->is_null() ? std::string() : it->get<std::string>();
    };
    const auto number = [&](const char* key) -> std::optional<double> {
      const auto it = j.find(key);
      if (it == j.end() || it->is_null()) return std::nullopt;
      return it->get<double>();
    };
    out = record{};
    out.id = text("id");
    out.db_id = text("db_id");
    out.system = text("system");
    out.difficulty = text("difficulty");
    out.technique = text("technique");
    if (out.id.empty() || out.technique.empty()) return false;
    const auto p = j.find("penalize_extra_pred_cols");
    if (p != j.end() && p->is_boolean()) out.penalize_extra_pred_cols = p->get<bool>();
    if (!parse_example_status(text("status"), out.status)) return false;
    out.scores.ex = number("EX");
    out.scores.exp = number("EXP");
    out.scores.exr = number("EXR");
    out.scores.f1 = number("F1");
    out.error = text("error");
    out.gold_ms = number("gold_ms");
    out.pred_ms = number("pred_ms");
    static const char* known[] = {"id", "db_id", "system", "difficulty", "technique", "penalize_extra_pred_cols", "status",
                                  "EX", "EXP", "EXR", "F1", "error", "gold_ms", "pred_ms"};
    for (const auto& [key, v] : j.items()) {
      if (std::find(std::begin(known), std::end(known), key) != std::end(known)) continue;
      if (v.is_boolean()) out.scores.extra.push_back({key, v.get<bool>()});
      else if (v.is_number_integer()) out.scores.extra.push_back({key, v.get<std::int64_t>()});
      else if (v.is_number()) out.scores.extra.push_back({key, v.get<double>()});
      else if (v.is_string()) out.scores.extra.push_back({key, v.get<std::string>()});
      else out.scores.extra.push_back({key, nullptr});
    }
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace sqlmorph::core
