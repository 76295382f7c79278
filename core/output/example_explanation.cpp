#include "output/example_explanation.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "output/id_suggestions.hpp"
#include "output/record_json.hpp"
#include "output/terminal_text.hpp"
#include "output/text_table.hpp"

namespace sqlmorph::core {
namespace {

using nlohmann::json;

// `object[key]`, or null when `object` is not an object or has no such member (a line of
// examples.jsonl is read as it is: a field it lacks is shown as missing, never a crash).
const json& member(const json& object, const char* key) {
  static const json null_value;
  if (!object.is_object()) return null_value;
  const auto it = object.find(key);
  return it == object.end() ? null_value : *it;
}

// `array[i]`, or null past its end.
const json& element(const json& array, std::size_t i) {
  static const json null_value;
  return array.is_array() && i < array.size() ? array[i] : null_value;
}

// A JSON value as text: a string as it is, anything else as its JSON text ("" for null).
std::string text_of(const json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string cell_text(const json& v) {
  if (v.is_null()) return "NULL";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("$blob")) return "<blob " + text_of(v["$blob"]) + ">";
  return v.dump();
}

std::string number_text(const json& v) {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v.get<double>());
  return buf;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& x : items) out += (out.empty() ? "" : ", ") + terminal_text(x);
  return out;
}

bool executed_ok(const json& side) {
  return member(side, "status") == "ok";
}

// The columns of each side paired by name (case-insensitive), in gold order.
using column_pairs = std::vector<std::pair<std::size_t, std::size_t>>;
column_pairs paired_columns(const json& gold, const json& pred) {
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    return s;
  };
  column_pairs pairs;
  std::vector<bool> used(pred.size(), false);
  for (std::size_t g = 0; g < gold.size(); ++g) {
    for (std::size_t p = 0; p < pred.size(); ++p) {
      if (!used[p] && lower(text_of(gold[g])) == lower(text_of(pred[p]))) {
        pairs.emplace_back(g, p);
        used[p] = true;
        break;
      }
    }
  }
  return pairs;
}

// For each of `rows`, whether no row of `others` (each taken once) has the same key.
using row_key = std::function<std::string(const json&)>;
std::vector<bool> rows_without_partner(const json& rows, const row_key& key, const json& others,
                                       const row_key& other_key) {
  std::multiset<std::string> left;
  for (const json& row : others) left.insert(other_key(row));
  std::vector<bool> out;
  for (const json& row : rows) {
    const auto it = left.find(key(row));
    out.push_back(it == left.end());
    if (it != left.end()) left.erase(it);
  }
  return out;
}

// The rows of each side marked unmatched (`*`); empty when the sides are not compared (either
// query failed, or was not executed).
struct unmatched_rows {
  std::vector<bool> gold;
  std::vector<bool> pred;
};

// Compares the kept rows of two executed results over their paired columns; returns the lines
// that say how the columns were paired.
std::string compare_rows(const json& gold, const json& pred, unmatched_rows& marks) {
  const json& gold_columns = member(gold, "columns");
  const json& pred_columns = member(pred, "columns");
  const json& gold_rows = member(gold, "rows");
  const json& pred_rows = member(pred, "rows");
  if (!gold_columns.is_array() || !pred_columns.is_array() || !gold_rows.is_array() || !pred_rows.is_array())
    return "";
  const column_pairs pairs = paired_columns(gold_columns, pred_columns);
  const auto key = [&](bool gold_side) {
    return [&pairs, gold_side](const json& row) {
      std::string k;
      for (const auto& [g, p] : pairs) k += element(row, gold_side ? g : p).dump() + '\x1f';
      return k;
    };
  };
  marks.gold = rows_without_partner(gold_rows, key(true), pred_rows, key(false));
  marks.pred = rows_without_partner(pred_rows, key(false), gold_rows, key(true));

  std::vector<std::string> paired, only_gold, only_pred;
  for (const auto& [g, p] : pairs) paired.push_back(text_of(gold_columns[g]));
  for (std::size_t p = 0; p < pred_columns.size(); ++p)
    if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& x) { return x.second == p; }))
      only_pred.push_back(text_of(pred_columns[p]));
  for (std::size_t g = 0; g < gold_columns.size(); ++g)
    if (std::none_of(pairs.begin(), pairs.end(), [&](const auto& x) { return x.first == g; }))
      only_gold.push_back(text_of(gold_columns[g]));
  std::string out = "\ncolumns paired by name: " + (paired.empty() ? std::string("none") : joined(paired));
  if (!only_gold.empty()) out += "; only in the gold: " + joined(only_gold);
  if (!only_pred.empty()) out += "; only in the prediction: " + joined(only_pred);
  return out +
         "\n(* a kept row with no equal row among the other side's kept rows, over the paired columns)\n";
}

// A side's kept rows as a table; `unmatched[r]` marks row r (no mark past its end).
std::string rows_table(const json& side, const std::vector<bool>& unmatched) {
  text_table t;
  t.max_cell_width(explained_cell_chars);
  std::vector<std::string> header = {""};
  for (const json& c : member(side, "columns")) header.push_back(text_of(c));
  t.set_header(header);
  const json& rows = member(side, "rows");
  for (std::size_t r = 0; rows.is_array() && r < rows.size(); ++r) {
    std::vector<std::string> row = {r < unmatched.size() && unmatched[r] ? "*" : ""};
    for (const json& v : rows[r]) row.push_back(cell_text(v));
    t.add_row(std::move(row));
  }
  return t.render();
}

std::string side_text(const char* title, const json& side, const std::vector<bool>& unmatched) {
  std::string out = std::string(title) + ": ";
  if (!side.is_object()) return out + "not executed\n";
  const std::string status = text_of(member(side, "status"));
  if (status != "ok") {
    const json& error = member(side, "error");
    return out + terminal_text(status) +
           (error.is_string() ? ": " + terminal_text(error.get<std::string>()) : "") + "\n";
  }
  const json& count_field = member(side, "row_count");
  const std::size_t kept = member(side, "rows").is_array() ? member(side, "rows").size() : 0;
  const std::size_t count = count_field.is_number_unsigned() ? count_field.get<std::size_t>() : kept;
  out += std::to_string(count) + (count == 1 ? " row" : " rows") +
         (member(side, "truncated") == true ? " (truncated at the row or byte cap)" : "");
  if (kept < count) out += ", the first " + std::to_string(kept) + " kept (--keep-rows)";
  return out + "\n" + rows_table(side, unmatched);
}

// The example's header: id, system, database, difficulty, question, evidence, both queries.
std::string question_lines(const json& e) {
  const auto text = [&](const char* key) { return terminal_text(json_text(e, key)); };
  const std::string database = text("db_id").empty() ? text("db") : text("db_id");  // compare: its --db
  std::string out = terminal_text(json_id(e)) + (text("system").empty() ? "" : "  system " + text("system")) +
                    (database.empty() ? "" : "  database " + database) +
                    (text("difficulty").empty() ? "" : "  difficulty " + text("difficulty")) + "\n";
  if (!text("question").empty()) out += "question: " + text("question") + "\n";
  if (!text("evidence").empty()) out += "evidence: " + text("evidence") + "\n";
  out += "gold: " + text("gold") + "\n";
  out += "pred: " + (member(e, "pred").is_null() ? std::string("(no prediction)") : text("pred")) + "\n";
  if (!text("evaluated_by").empty()) out += "(queries as " + text("evaluated_by") + " executed them)\n";
  return out;
}

// Every technique's numbers (only `technique`'s when given).
std::string scores_table(const std::vector<json>& records, const std::optional<std::string>& technique) {
  text_table t;
  t.max_cell_width(explained_cell_chars);
  t.set_header({"technique", "penalize", "status", "EX", "EXP", "EXR", "F1", "error"});
  t.align_right({3, 4, 5, 6});
  std::size_t shown = 0;
  for (const json& r : records) {
    const std::string name = text_of(member(r, "technique"));
    if (technique && name != *technique) continue;
    const json& p = member(r, "penalize_extra_pred_cols");
    std::string error = text_of(member(r, "error"));
    if (r.contains("EM")) error = "EM " + r["EM"].dump() + (error.empty() ? "" : "; " + error);
    if (r.contains("label")) error = "label " + r["label"].dump() + (error.empty() ? "" : "; " + error);
    t.add_row({name, p.is_boolean() ? (p.get<bool>() ? "true" : "false") : "-", text_of(member(r, "status")),
               number_text(member(r, "EX")), number_text(member(r, "EXP")), number_text(member(r, "EXR")),
               number_text(member(r, "F1")), error});
    ++shown;
  }
  return shown ? t.render() : std::string("no record of this example in results.jsonl\n");
}

}  // namespace

std::string explain_example(const json& e, const std::vector<json>& records,
                            const std::optional<std::string>& technique) {
  const json& gold = member(e, "gold_result");
  const json& pred = member(e, "pred_result");
  std::string out = question_lines(e);
  unmatched_rows marks;
  if (executed_ok(gold) && executed_ok(pred)) out += compare_rows(gold, pred, marks);
  out += "\n" + side_text("gold result", gold, marks.gold);
  out += "\n" + side_text("predicted result", pred, marks.pred);
  return out + "\n" + scores_table(records, technique);
}

std::vector<std::string> record_techniques(const std::vector<json>& records) {
  std::vector<std::string> names;
  for (const json& r : records) {
    const std::string name = text_of(member(r, "technique"));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
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
  id_suggestions suggestions(id);
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
      suggestions.consider(at);
    }
  }
  if (!evidence) {
    const std::vector<std::string> near = suggestions.best();
    std::string hint;
    if (!near.empty())
      hint = " (nearest ids: " + joined(near) + ")";
    else if (!suggestions.first().empty())
      hint = " (no id is near it; the first is " + terminal_text(suggestions.first()) + ")";
    throw usage_error("no example '" + terminal_text(id) + "' in " + examples_path.string() + hint);
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
