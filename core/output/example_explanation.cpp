#include "output/example_explanation.hpp"

#include <algorithm>
#include <map>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"
#include "output/text_table.hpp"

namespace sqlmorph::core {
namespace {

using nlohmann::json;

std::string cell_text(const json& v) {
  if (v.is_null()) return "NULL";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("$blob")) return "<blob " + v["$blob"].get<std::string>() + ">";
  return v.dump();
}

std::string number_text(const json& v) {
  if (v.is_null()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v.get<double>());
  return buf;
}

// The columns of each side paired by name (case-insensitive), in gold order.
std::vector<std::pair<std::size_t, std::size_t>> paired_columns(const json& gold, const json& pred) {
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return s;
  };
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<bool> used(pred.size(), false);
  for (std::size_t g = 0; g < gold.size(); ++g) {
    for (std::size_t p = 0; p < pred.size(); ++p) {
      if (!used[p] && lower(gold[g].get<std::string>()) == lower(pred[p].get<std::string>())) {
        pairs.emplace_back(g, p);
        used[p] = true;
        break;
      }
    }
  }
  return pairs;
}

// A side's kept rows as a table; `unmatched[r]` marks row r.
std::string rows_table(const json& side, const std::vector<bool>& unmatched) {
  text_table t;
  std::vector<std::string> header = {""};
  for (const json& c : side["columns"]) header.push_back(c.get<std::string>());
  t.set_header(header);
  for (std::size_t r = 0; r < side["rows"].size(); ++r) {
    std::vector<std::string> row = {unmatched[r] ? "*" : ""};
    for (const json& v : side["rows"][r]) row.push_back(cell_text(v));
    t.add_row(std::move(row));
  }
  return t.render();
}

std::string side_text(const char* title, const json& side, const std::vector<bool>& unmatched) {
  std::string out = std::string(title) + ": ";
  if (side.is_null()) return out + "not executed\n";
  const std::string status = side["status"].get<std::string>();
  if (status != "ok")
    return out + status + (side["error"].is_string() ? ": " + side["error"].get<std::string>() : "") + "\n";
  const std::size_t count = side["row_count"].get<std::size_t>();
  const std::size_t kept = side["rows"].size();
  out += std::to_string(count) + (count == 1 ? " row" : " rows") +
         (side["truncated"].get<bool>() ? " (truncated at the row or byte cap)" : "");
  if (kept < count) out += ", the first " + std::to_string(kept) + " kept (--keep-rows)";
  out += "\n" + rows_table(side, unmatched);
  return out;
}

}  // namespace

std::string explain_example(const json& e, const std::vector<json>& records,
                            const std::optional<std::string>& technique) {
  std::string out;
  const auto text = [&](const char* key) { return json_text(e, key); };
  out += json_id(e) + (text("system").empty() ? "" : "  system " + text("system")) + "  database " +
         text("db_id") + (text("difficulty").empty() ? "" : "  difficulty " + text("difficulty")) + "\n";
  if (!text("question").empty()) out += "question: " + text("question") + "\n";
  if (!text("evidence").empty()) out += "evidence: " + text("evidence") + "\n";
  out += "gold: " + text("gold") + "\n";
  out += "pred: " + (e["pred"].is_null() ? std::string("(no prediction)") : text("pred")) + "\n";
  if (!text("evaluated_by").empty()) out += "(queries as " + text("evaluated_by") + " executed them)\n";

  // Rows of one side without an equal row on the other, over the columns paired by name.
  const json& gold = e["gold_result"];
  const json& pred = e["pred_result"];
  const bool both = gold.is_object() && pred.is_object() && gold.value("status", "") == "ok" &&
                    pred.value("status", "") == "ok";
  std::vector<bool> gold_unmatched(both ? gold["rows"].size() : 0, false);
  std::vector<bool> pred_unmatched(both ? pred["rows"].size() : 0, false);
  if (both) {
    const auto pairs = paired_columns(gold["columns"], pred["columns"]);
    const auto key = [&](const json& row, bool gold_side) {
      std::string k;
      for (const auto& [g, p] : pairs) k += row[gold_side ? g : p].dump() + '\x1f';
      return k;
    };
    std::multiset<std::string> gold_keys, pred_keys;
    for (const json& row : gold["rows"]) gold_keys.insert(key(row, true));
    for (const json& row : pred["rows"]) pred_keys.insert(key(row, false));
    std::multiset<std::string> left = pred_keys;
    for (std::size_t r = 0; r < gold["rows"].size(); ++r) {
      const auto it = left.find(key(gold["rows"][r], true));
      if (it == left.end())
        gold_unmatched[r] = true;
      else
        left.erase(it);
    }
    left = gold_keys;
    for (std::size_t r = 0; r < pred["rows"].size(); ++r) {
      const auto it = left.find(key(pred["rows"][r], false));
      if (it == left.end())
        pred_unmatched[r] = true;
      else
        left.erase(it);
    }
    std::string paired;
    for (const auto& [g, p] : pairs)
      paired += (paired.empty() ? "" : ", ") + gold["columns"][g].get<std::string>();
    std::vector<std::string> only_pred;
    for (std::size_t p = 0; p < pred["columns"].size(); ++p)
      if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& x) { return x.second == p; }))
        only_pred.push_back(pred["columns"][p].get<std::string>());
    std::vector<std::string> only_gold;
    for (std::size_t g = 0; g < gold["columns"].size(); ++g)
      if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& x) { return x.first == g; }))
        only_gold.push_back(gold["columns"][g].get<std::string>());
    out += "\ncolumns paired by name: " + (paired.empty() ? std::string("none") : paired);
    const auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
      return s;
    };
    if (!only_gold.empty()) out += "; only in the gold: " + list(only_gold);
    if (!only_pred.empty()) out += "; only in the prediction: " + list(only_pred);
    out += "\n(* a kept row with no equal row among the other side's kept rows, over the paired columns)\n";
  }
  out += "\n" + side_text("gold result", gold, gold_unmatched);
  out += "\n" + side_text("predicted result", pred, pred_unmatched);

  text_table t;
  t.set_header({"technique", "penalize", "status", "EX", "EXP", "EXR", "F1", "error"});
  t.align_right({3, 4, 5, 6});
  std::size_t shown = 0;
  for (const json& r : records) {
    const std::string name = r.value("technique", std::string());
    if (technique && name != *technique) continue;
    const json& p = r["penalize_extra_pred_cols"];
    std::string error = r["error"].is_string() ? r["error"].get<std::string>() : "";
    if (error.size() > 60) error = error.substr(0, 57) + "...";
    if (r.contains("EM")) error = "EM " + r["EM"].dump() + (error.empty() ? "" : "; " + error);
    if (r.contains("label")) error = "label " + r["label"].dump() + (error.empty() ? "" : "; " + error);
    t.add_row({name, p.is_null() ? "-" : (p.get<bool>() ? "true" : "false"), r.value("status", std::string()),
               number_text(r["EX"]), number_text(r["EXP"]), number_text(r["EXR"]), number_text(r["F1"]),
               error});
    ++shown;
  }
  out += "\n" + (shown ? t.render() : std::string("no record of technique ") + technique.value_or("") + "\n");
  return out;
}

bool rows_not_kept(const json& evidence) {
  for (const char* key : {"gold_result", "pred_result"}) {
    const auto side = evidence.find(key);
    if (side == evidence.end() || !side->is_object()) continue;
    const auto count = side->find("row_count");
    const auto kept = side->find("rows_kept");
    if (count != side->end() && count->is_number_unsigned() && count->get<std::uint64_t>() > 0 &&
        kept != side->end() && kept->is_number_unsigned() && kept->get<std::uint64_t>() == 0)
      return true;
  }
  return false;
}

run_example find_run_example(const std::filesystem::path& run_dir, const std::string& id) {
  const auto examples_path = run_dir / "examples.jsonl";
  const auto results_path = run_dir / "results.jsonl";
  for (const auto& p : {examples_path, results_path}) {
    if (!std::filesystem::exists(p))
      throw usage_error(p.string() + " does not exist (not the --out folder of a run?)");
  }
  std::optional<json> evidence;
  std::vector<std::string> ids;
  {
    line_reader lines(examples_path);
    for (std::string line; lines.next(line);) {
      if (line.empty()) continue;
      const json j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        throw usage_error(lines.where() + ": not an examples.jsonl line");
      const std::string at = json_id(j);
      if (at == id) {
        evidence = j;
        break;
      }
      if (ids.size() < 100000) ids.push_back(at);
    }
  }
  if (!evidence) {
    // The ids that share the longest prefix with the one asked for.
    std::size_t best = 0;
    for (const auto& x : ids)
      best = std::max(best, static_cast<std::size_t>(
                                std::mismatch(x.begin(), x.end(), id.begin(), id.end()).first - x.begin()));
    std::string near;
    std::size_t shown = 0;
    for (const auto& x : ids) {
      if (static_cast<std::size_t>(std::mismatch(x.begin(), x.end(), id.begin(), id.end()).first -
                                   x.begin()) == best &&
          shown++ < 5)
        near += (near.empty() ? "" : ", ") + x;
    }
    throw usage_error("no example '" + id + "' in " + examples_path.string() +
                      (near.empty() ? "" : " (nearest ids: " + near + ")"));
  }
  std::vector<json> records;
  line_reader lines(results_path);
  for (std::string line; lines.next(line);) {
    if (line.find(id) == std::string::npos) continue;  // cheap filter before parsing
    const json j = json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object() && json_id(j) == id) records.push_back(j);
  }
  return {std::move(*evidence), std::move(records)};
}

}  // namespace sqlmorph::core
