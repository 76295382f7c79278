#include "output/record_json.hpp"

#include <algorithm>
#include <cmath>

#include "output/json_writer.hpp"

namespace sqlmorph::core {
namespace {

void metric(json_writer& w, const std::optional<double>& m, bool integral) {
  if (!m) return w.null();
  if (integral && (*m == 0.0 || *m == 1.0)) return w.integer(static_cast<int>(*m));
  w.real(*m);
}

void milliseconds(json_writer& w, const std::optional<double>& ms) {
  if (!ms) return w.null();
  w.real(std::round(*ms * 1000.0) / 1000.0);
}

void text_or_null(json_writer& w, const std::string& s) {
  if (s.empty()) return w.null();
  w.string(s);
}

void extra_value(json_writer& w, const sqlmorph::field_value& value) {
  struct visitor {
    json_writer& w;
    void operator()(std::nullptr_t) const { w.null(); }
    void operator()(bool b) const { w.boolean(b); }
    void operator()(std::int64_t i) const { w.integer(i); }
    void operator()(double d) const { w.real(d); }
    void operator()(const std::string& s) const { w.string(s); }
  };
  std::visit(visitor{w}, value);
}

std::string_view head_of(std::string_view name) {
  const auto dot = name.find('.');
  return dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
}

// extra[begin, end) share `prefix` (with its dot): each written as a member of one object, the
// names' next dotted part nested again.
void nested_fields(json_writer& w, const sqlmorph::fields& extra, std::size_t begin, std::size_t end,
                   std::size_t prefix) {
  w.begin_object();
  for (std::size_t i = begin; i < end;) {
    const std::string_view rest = std::string_view(extra[i].first).substr(prefix);
    const std::string_view head = head_of(rest);
    std::size_t j = i + 1;
    const bool nestable =
        !head.empty() && std::none_of(extra.begin() + begin, extra.begin() + end, [&](const auto& e) {
          return std::string_view(e.first).substr(prefix) == head;
        });
    if (nestable) {
      while (j < end && head_of(std::string_view(extra[j].first).substr(prefix)) == head) ++j;
      w.key(head);
      nested_fields(w, extra, i, j, prefix + head.size() + 1);
    } else {
      w.key(rest);
      extra_value(w, extra[i].second);
    }
    i = j;
  }
  w.end_object();
}

// The extra fields; consecutive ones named `a.b...` with the same `a` form one object member `a`
// (record_from_json reads them back flat), unless a field is also named `a` itself.
void write_extra_fields(json_writer& w, const sqlmorph::fields& extra) {
  for (std::size_t i = 0; i < extra.size();) {
    const std::string_view head = head_of(extra[i].first);
    const bool nestable = !head.empty() && std::none_of(extra.begin(), extra.end(),
                                                        [&](const auto& e) { return e.first == head; });
    std::size_t j = i + 1;
    if (nestable) {
      while (j < extra.size() && head_of(extra[j].first) == head) ++j;
      w.key(head);
      nested_fields(w, extra, i, j, head.size() + 1);
    } else {
      w.key(extra[i].first);
      extra_value(w, extra[i].second);
    }
    i = j;
  }
}

// A member of a record beyond the known fields, as extra fields: an object's members flattened
// to dotted names (as write_extra_fields nests them).
void read_extra_field(const std::string& key, const nlohmann::json& v, sqlmorph::fields& out) {
  if (v.is_boolean())
    out.push_back({key, v.get<bool>()});
  else if (v.is_number_integer())
    out.push_back({key, v.get<std::int64_t>()});
  else if (v.is_number())
    out.push_back({key, v.get<double>()});
  else if (v.is_string())
    out.push_back({key, v.get<std::string>()});
  else if (v.is_object() && !v.empty())
    for (const auto& [member, value] : v.items()) read_extra_field(key + "." + member, value, out);
  else
    out.push_back({key, nullptr});
}

}  // namespace

void append_record_json(std::string& out, const record& r, bool with_example) {
  json_writer w(out);
  w.begin_object();
  if (with_example) {
    w.key("id");
    if (r.id_is_number)
      w.raw(r.id);  // digits, as the cases file gave them
    else
      w.string(r.id);
    w.key("db_id");
    w.string(r.db_id);
    w.key("system");
    text_or_null(w, r.system);
    w.key("difficulty");
    text_or_null(w, r.difficulty);
  }
  w.key("technique");
  w.string(r.technique);
  w.key("penalize_extra_pred_cols");
  if (r.penalize_extra_pred_cols)
    w.boolean(*r.penalize_extra_pred_cols);
  else
    w.null();
  w.key("status");
  w.string(example_status_name(r.status));
  w.key("EX");
  metric(w, r.scores.ex, true);
  w.key("EXP");
  metric(w, r.scores.exp, false);
  w.key("EXR");
  metric(w, r.scores.exr, false);
  w.key("F1");
  metric(w, r.scores.f1, false);
  w.key("error");
  text_or_null(w, r.error);
  w.key("gold_ms");
  milliseconds(w, r.gold_ms);
  w.key("pred_ms");
  milliseconds(w, r.pred_ms);
  w.key("technique_ms");
  milliseconds(w, r.technique_ms);
  if (r.judgement) {
    const judge_fields& j = *r.judgement;
    w.key("label");
    if (j.label)
      w.integer(*j.label);
    else
      w.null();
    w.key("confidence");
    if (j.confidence)
      w.real(*j.confidence);
    else
      w.null();
    w.key("votes");
    w.begin_array();
    for (const int v : j.votes) w.integer(v);
    w.end_array();
    w.key("rationales");
    w.begin_array();
    for (const std::string& t : j.rationales) w.string(t);
    w.end_array();
    w.key("prompt_tokens");
    w.integer(static_cast<std::int64_t>(j.prompt_tokens));
    w.key("completion_tokens");
    w.integer(static_cast<std::int64_t>(j.completion_tokens));
    w.key("judge_ms");
    milliseconds(w, j.judge_ms);
  }
  write_extra_fields(w, r.scores.extra);
  w.end_object();
}

nlohmann::ordered_json record_to_json(const record& r, bool with_example) {
  std::string text;
  append_record_json(text, r, with_example);
  return nlohmann::ordered_json::parse(text);
}

std::string json_id(const nlohmann::json& line, bool* is_number) {
  if (is_number != nullptr) *is_number = false;
  if (!line.is_object()) return {};
  const auto it = line.find("id");
  if (it == line.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (is_number != nullptr) *is_number = it->is_number_integer();
  if (it->is_number_unsigned()) return std::to_string(it->get<std::uint64_t>());
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  return {};
}

std::string json_text(const nlohmann::json& line, const char* key) {
  if (!line.is_object()) return {};
  const auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
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
    out.id = json_id(j, &out.id_is_number);
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
    out.technique_ms = number("technique_ms");
    static const char* known[] = {
        "id",      "db_id",   "system",      "difficulty", "technique", "penalize_extra_pred_cols",
        "status",  "EX",      "EXP",         "EXR",        "F1",        "error",
        "gold_ms", "pred_ms", "technique_ms"};
    static const char* judge_known[] = {
        "label", "votes", "rationales", "confidence", "prompt_tokens", "completion_tokens", "judge_ms"};
    const bool judged = is_judge_technique(out.technique);
    if (judged) {
      judge_fields jf;
      if (const auto it = j.find("label"); it != j.end() && it->is_number_integer())
        jf.label = it->get<int>();
      jf.confidence = number("confidence");
      if (const auto it = j.find("votes"); it != j.end() && it->is_array())
        jf.votes = it->get<std::vector<int>>();
      if (const auto it = j.find("rationales"); it != j.end() && it->is_array()) {
        jf.rationales = it->get<std::vector<std::string>>();
      }
      jf.prompt_tokens = static_cast<std::uint64_t>(number("prompt_tokens").value_or(0));
      jf.completion_tokens = static_cast<std::uint64_t>(number("completion_tokens").value_or(0));
      jf.judge_ms = number("judge_ms");
      out.judgement = std::move(jf);
    }
    for (const auto& [key, v] : j.items()) {
      if (std::find(std::begin(known), std::end(known), key) != std::end(known)) continue;
      if (judged && std::find(std::begin(judge_known), std::end(judge_known), key) != std::end(judge_known))
        continue;
      read_extra_field(key, v, out.scores.extra);
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
