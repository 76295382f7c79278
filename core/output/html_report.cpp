#include "output/html_report.hpp"

#include <cstring>
#include <future>
#include <map>
#include <optional>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "eval/sql_features.hpp"
#include "output/record_json.hpp"
#include "output/report_assets.hpp"
#include "output/report_folders.hpp"
#include "output/run_summary.hpp"

namespace sqlmorph::core {
namespace {

using ordered = nlohmann::ordered_json;
using nlohmann::json;

// Indexes of names, in the order first seen.
struct names {
  std::vector<std::string> list;
  std::unordered_map<std::string, std::size_t> index;
  std::size_t of(const std::string& name) {
    const auto [it, added] = index.try_emplace(name, list.size());
    if (added) list.push_back(name);
    return it->second;
  }
};

std::optional<bool> penalize_of(const json& j) {
  const auto it = j.find("penalize_extra_pred_cols");
  if (it == j.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

std::string system_of(const json& j) {
  return json_text(j, "system");
}

json parse_line(const std::string& line, const std::string& where) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw usage_error(where + ": not a JSON object");
  return j;
}

// A number rounded for the page (4 decimals are what it shows).
ordered rounded(const json& v) {
  if (!v.is_number()) return nullptr;
  return std::round(v.get<double>() * 1e6) / 1e6;
}

// The id without the "SYSTEM:" prefix: the question, shared by the systems' answers.
std::string question_key(const std::string& id, const std::string& system) {
  if (!system.empty() && id.size() > system.size() && id.compare(0, system.size(), system) == 0 &&
      id[system.size()] == ':')
    return id.substr(system.size() + 1);
  return id;
}

// A result side with at most `rows` rows.
ordered trimmed_side(const json& side, std::size_t rows) {
  if (!side.is_object()) return nullptr;
  ordered out = side;
  if (out.contains("rows") && out["rows"].is_array() && out["rows"].size() > rows) {
    ordered kept = ordered::array();
    for (std::size_t i = 0; i < rows; ++i) kept.push_back(out["rows"][i]);
    out["rows"] = std::move(kept);
  }
  return out;
}

// A record of results.jsonl as the page keeps it: its example's labels, and the fields shown —
// [status, EX, EXP, EXR, F1, error] (the variant's index goes in front once known), or for a judge
// [judge, label, confidence, votes, rationales].
struct parsed_record {
  std::string id;
  std::string system;
  std::string technique;
  std::optional<bool> penalize;
  ordered db_id;
  ordered difficulty;
  bool judge = false;
  ordered fields;
};

std::vector<parsed_record> read_records_file(const std::filesystem::path& file) {
  std::vector<parsed_record> out;
  line_reader lines(file);
  for (std::string line; lines.next(line);) {
    if (line.empty()) continue;
    const json r = parse_line(line, lines.where());
    parsed_record rec;
    rec.id = json_id(r);
    rec.system = system_of(r);
    rec.technique = r.value("technique", std::string());
    rec.penalize = penalize_of(r);
    rec.db_id = r.value("db_id", json(nullptr));
    rec.difficulty = r.value("difficulty", json(nullptr));
    if (is_judge_technique(rec.technique)) {
      rec.judge = true;
      rec.fields = {rec.technique.substr(judge_technique_prefix.size()), r.value("label", json(nullptr)),
                    r.value("confidence", json(nullptr)), r.value("votes", json::array()),
                    r.value("rationales", json::array())};
    } else {
      std::string error = json_text(r, "error");
      if (error.size() > 300) error = error.substr(0, 297) + "...";
      rec.fields = {
          r.value("status", std::string()),       rounded(r.value("EX", json(nullptr))),
          rounded(r.value("EXP", json(nullptr))), rounded(r.value("EXR", json(nullptr))),
          rounded(r.value("F1", json(nullptr))),  error.empty() ? ordered(nullptr) : ordered(error)};
    }
    out.push_back(std::move(rec));
  }
  return out;
}

}  // namespace

std::string build_report(const std::vector<std::filesystem::path>& run_dirs, const report_options& options) {
  if (run_dirs.empty()) throw usage_error("report needs at least one run folder");
  names systems;
  names variants;
  std::vector<bool> has_f1;
  ordered summary = ordered::array(), by_difficulty = ordered::array(), by_database = ordered::array(),
          by_feature = ordered::array(), pairwise = ordered::array(), judges = ordered::array();
  ordered examples = ordered::array();
  ordered runs = ordered::array();
  const auto variant_index = [&](const std::string& technique, const std::optional<bool>& penalize) {
    const std::size_t v = variants.of(variant_label(technique, penalize));
    if (has_f1.size() <= v) has_f1.resize(v + 1, false);
    return v;
  };
  const auto variant_of = [&](const json& j) {
    return variant_index(json_text(j, "technique"), penalize_of(j));
  };
  report_folders folders;  // each once, each system in one
  for (const auto& dir : run_dirs) {
    folders.add_folder(dir);
    runs.push_back(dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string());
    const auto summary_path = dir / "summary.json";
    const auto results_path = dir / "results.jsonl";
    for (const auto& p : {summary_path, results_path}) {
      if (!std::filesystem::exists(p))
        throw usage_error(p.string() + " does not exist (not the --out folder of a finished run?)");
    }
    json s = json::parse(read_file(summary_path), nullptr, false);
    if (s.is_discarded() || !s.is_object() || !s.contains("techniques"))
      throw usage_error(summary_path.string() + ": not a summary of sqlmorph");
    folders.add_systems(s, dir);
    // Groups: system and variant as indexes, the rest as written.
    const auto group = [&](const json& g, ordered& into) {
      ordered t;
      t["s"] = systems.of(system_of(g));
      const std::size_t v = variant_of(g);
      t["v"] = v;
      for (const auto& [key, value] : g.items()) {
        if (key == "system" || key == "technique" || key == "penalize_extra_pred_cols") continue;
        if (key == "interval" && value.is_object()) {  // [low, high] per metric, rounded like the means
          ordered interval = ordered::object();
          for (const auto& [metric, pair] : value.items()) {
            interval[metric] = pair.is_array() && pair.size() == 2
                                   ? ordered::array({rounded(pair[0]), rounded(pair[1])})
                                   : ordered(nullptr);
          }
          t[key] = std::move(interval);
          continue;
        }
        t[key] = value.is_number_float() ? rounded(value) : ordered(value);
      }
      if (g.contains("F1") && g["F1"].is_number()) has_f1[v] = true;
      into.push_back(std::move(t));
    };
    for (const json& g : s["techniques"]) group(g, summary);
    for (const char* key : {"by_difficulty", "by_database", "by_feature"}) {
      if (!s.contains(key)) continue;
      ordered& into = std::string(key) == "by_difficulty" ? by_difficulty
                      : std::string(key) == "by_database" ? by_database
                                                          : by_feature;
      for (const json& g : s[key]) group(g, into);
    }
    if (s.contains("statistics") && s["statistics"].contains("pairwise")) {
      for (const json& p : s["statistics"]["pairwise"]) {
        ordered t = p;
        t["v"] = variant_of(p);
        pairwise.push_back(std::move(t));
      }
    }
    if (s.contains("judges"))
      for (const json& j : s["judges"]) judges.push_back(ordered(j));

    std::future<std::vector<parsed_record>> read_records =
        std::async(std::launch::async, [results_path] { return read_records_file(results_path); });
    // The examples: their evidence, then their records.
    std::unordered_map<std::string, std::size_t> position;  // id -> examples index
    const auto examples_path = dir / "examples.jsonl";
    if (std::filesystem::exists(examples_path)) {
      line_reader lines(examples_path);
      for (std::string line; lines.next(line);) {
        if (line.empty()) continue;
        const json e = parse_line(line, lines.where());
        const std::string id = json_id(e);
        const std::string system = system_of(e);
        ordered x;
        x["id"] = id;
        x["s"] = systems.of(system);
        x["q_key"] = question_key(id, system);
        x["db"] = e.value("db_id", json(nullptr));
        x["d"] = e.value("difficulty", json(nullptr));
        x["question"] = e.value("question", json(nullptr));
        x["evidence"] = e.value("evidence", json(nullptr));
        x["g"] = e.value("gold", json(nullptr));
        x["p"] = e.value("pred", json(nullptr));
        sql_features f;
        x["fm"] =
            e.contains("features") && features_from_json(e["features"]["gold"], f) ? feature_mask(f) : 0;
        x["gr"] = trimmed_side(e.value("gold_result", json(nullptr)), options.rows);
        x["pr"] = trimmed_side(e.value("pred_result", json(nullptr)), options.rows);
        x["r"] = ordered::array();
        x["j"] = ordered::array();
        position[id + '\x1f' + system] = examples.size();
        examples.push_back(std::move(x));
      }
    }
    // The records, parsed on another thread while this one reads examples.jsonl (both files are
    // large: a 124-system run has ~250,000 records), then attached to their examples here.
    std::vector<parsed_record> records = read_records.get();
    for (parsed_record& rec : records) {
      auto at = position.find(rec.id + '\x1f' + rec.system);
      if (at == position.end()) {  // a run without examples.jsonl: the records alone
        ordered x;
        x["id"] = rec.id;
        x["s"] = systems.of(rec.system);
        x["q_key"] = question_key(rec.id, rec.system);
        x["db"] = std::move(rec.db_id);
        x["d"] = std::move(rec.difficulty);
        x["g"] = nullptr;
        x["p"] = nullptr;
        x["fm"] = 0;
        x["gr"] = nullptr;
        x["pr"] = nullptr;
        x["r"] = ordered::array();
        x["j"] = ordered::array();
        at = position.emplace(rec.id + '\x1f' + rec.system, examples.size()).first;
        examples.push_back(std::move(x));
      }
      ordered& x = examples[at->second];
      if (rec.judge) {
        x["j"].push_back(std::move(rec.fields));
        continue;
      }
      rec.fields.insert(rec.fields.begin(), variant_index(rec.technique, rec.penalize));
      x["r"].push_back(std::move(rec.fields));
    }
  }
  ordered data;
  data["runs"] = runs;
  data["systems"] = systems.list;
  data["variants"] = variants.list;
  data["has_f1"] = has_f1;
  data["feature_names"] = feature_names;
  data["summary"] = std::move(summary);
  data["by_difficulty"] = std::move(by_difficulty);
  data["by_database"] = std::move(by_database);
  data["by_feature"] = std::move(by_feature);
  data["pairwise"] = std::move(pairwise);
  data["judges"] = std::move(judges);
  data["examples"] = std::move(examples);
  // Inside <script>: "</" would end the element.
  const std::string text = dump_json(data);
  data = nullptr;
  const std::string page = report_assets::page;
  const auto split = [&](std::size_t from, const std::string& marker) {
    const auto at = page.find(marker, from);
    if (at == std::string::npos) throw std::logic_error("report page without " + marker);
    return at;
  };
  const std::string css = "/*SQLMORPH_CSS*/", js = "/*SQLMORPH_JS*/", data_marker = "/*SQLMORPH_DATA*/";
  const std::size_t at_css = split(0, css), at_data = split(at_css, data_marker), at_js = split(at_data, js);
  std::string out;
  out.reserve(page.size() + std::strlen(report_assets::style) + std::strlen(report_assets::script) +
              text.size() + text.size() / 64);
  out.append(page, 0, at_css);
  out += report_assets::style;
  out.append(page, at_css + css.size(), at_data - at_css - css.size());
  for (std::size_t from = 0;;) {
    const std::size_t close = text.find("</", from);
    if (close == std::string::npos) {
      out.append(text, from, std::string::npos);
      break;
    }
    out.append(text, from, close - from);
    out += "<\\/";
    from = close + 2;
  }
  out.append(page, at_data + data_marker.size(), at_js - at_data - data_marker.size());
  out += report_assets::script;
  out.append(page, at_js + js.size(), std::string::npos);
  return out;
}

}  // namespace sqlmorph::core
