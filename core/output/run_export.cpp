#include "output/run_export.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "output/record_json.hpp"

namespace sqlmorph::core {
namespace {

using ordered = nlohmann::ordered_json;
using row = std::vector<std::pair<std::string, ordered>>;

// The columns every export of that kind starts with, in this order.
const std::vector<std::string> record_columns = {
    "id",      "db_id",   "system",      "difficulty", "technique", "penalize_extra_pred_cols",
    "status",  "EX",      "EXP",         "EXR",        "F1",        "error",
    "gold_ms", "pred_ms", "technique_ms"};
const std::vector<std::string> example_columns = {
    "id", "system", "db_id", "difficulty", "question", "evidence", "evaluated_by", "gold", "pred"};
const std::vector<std::string> summary_columns = {
    "level",      "system",  "technique", "penalize_extra_pred_cols",
    "difficulty", "db_id",   "count",     "scored",
    "feature",    "present", "EX",        "EXP",
    "EXR",        "F1",      "R-VES"};

// `value` under `name`, objects flattened to dotted names; a [low, high] pair under "interval.*"
// as .low and .high; other arrays stay arrays (in CSV: their JSON text).
void flatten(const std::string& name, const ordered& value, row& out) {
  if (value.is_object()) {
    for (const auto& [key, member] : value.items())
      flatten(name.empty() ? key : name + "." + key, member, out);
  } else if (value.is_array() && value.size() == 2 && name.rfind("interval.", 0) == 0) {
    out.emplace_back(name + ".low", value[0]);
    out.emplace_back(name + ".high", value[1]);
  } else {
    out.emplace_back(name, value);
  }
}

std::string csv_text(const ordered& v, bool formula_guard) {
  if (v.is_null()) return "";
  if (v.is_string())
    return csv_field(formula_guard ? formula_guarded(v.get<std::string>()) : v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_array()) return csv_field(v.dump());
  return v.dump();
}

// Whether `text` is a plain decimal number ([+-]digits[.digits][e[+-]digits], or .digits): a
// spreadsheet reads it as that number, and no formula can hide in it.
bool plain_decimal(std::string_view text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

// Calls its argument with every row, in order (twice per export: the columns, then the rows).
using row_source = std::function<void(const std::function<void(const row&)>&)>;

// Written with the fixed columns first and the others by name.
void write_rows(const row_source& rows, const std::vector<std::string>& fixed, export_format format,
                bool formula_guard, std::ostream& out) {
  std::set<std::string> others;
  rows([&](const row& r) {
    for (const auto& field : r) {
      if (std::find(fixed.begin(), fixed.end(), field.first) == fixed.end()) others.insert(field.first);
    }
  });
  std::vector<std::string> columns = fixed;
  columns.insert(columns.end(), others.begin(), others.end());
  std::unordered_map<std::string, std::size_t> column_of;
  for (std::size_t i = 0; i < columns.size(); ++i) column_of.emplace(columns[i], i);
  if (format == export_format::csv) {
    for (std::size_t i = 0; i < columns.size(); ++i)
      out << (i ? "," : "") << csv_text(ordered(columns[i]), formula_guard);
    out << "\r\n";
  }
  std::vector<const ordered*> cells(columns.size());
  const ordered null_value(nullptr);
  rows([&](const row& r) {
    std::fill(cells.begin(), cells.end(), &null_value);
    for (const auto& field : r) cells[column_of.at(field.first)] = &field.second;
    if (format == export_format::csv) {
      for (std::size_t i = 0; i < cells.size(); ++i)
        out << (i ? "," : "") << csv_text(*cells[i], formula_guard);
      out << "\r\n";
    } else {
      ordered line = ordered::object();
      for (std::size_t i = 0; i < cells.size(); ++i) line[columns[i]] = *cells[i];
      out << dump_json(line) << "\n";
    }
  });
}

// One row per line of a run's JSON Lines file: results.jsonl (records: `technique` required) or
// examples.jsonl (the evidence).
row_source line_rows(const std::filesystem::path& file, bool records) {
  if (!std::filesystem::exists(file))
    throw usage_error(file.string() + " does not exist (not a run's folder?)");
  return [file, records](const std::function<void(const row&)>& each) {
    line_reader lines(file);
    for (std::string line; lines.next(line);) {
      if (line.empty()) continue;
      ordered j;
      try {
        j = ordered::parse(line);
      } catch (const nlohmann::json::exception& e) {
        throw usage_error(lines.where() + ": not a JSON " + (records ? "record: " : "line: ") + e.what());
      }
      if (!j.is_object() || !j.contains("id") || (records && !j.contains("technique")))
        throw usage_error(lines.where() + (records ? ": not a record of sqlmorph (no id or technique)"
                                                   : ": not an example of sqlmorph (no id)"));
      row r;
      flatten("", j, r);
      each(r);
    }
  };
}

row_source summary_rows(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file))
    throw usage_error(file.string() + " does not exist (not a run's folder?)");
  auto j = std::make_shared<ordered>();
  try {
    *j = ordered::parse(read_file(file));
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(file.string() + ": not JSON: " + e.what());
  }
  for (const char* key : {"techniques", "by_difficulty", "by_database"}) {
    if (!j->is_object() || !j->contains(key) || !(*j)[key].is_array())
      throw usage_error(file.string() + ": no '" + key + "' list (not a summary of sqlmorph)");
  }
  return [j](const std::function<void(const row&)>& each) {
    const std::pair<const char*, const char*> levels[] = {{"techniques", "all"},
                                                          {"by_difficulty", "difficulty"},
                                                          {"by_database", "database"},
                                                          {"by_feature", "feature"}};
    for (const auto& [key, level] : levels) {
      if (!j->contains(key)) continue;  // by_feature: only runs that wrote their examples' facts
      for (const ordered& g : (*j)[key]) {
        row r;
        r.emplace_back("level", level);
        flatten("", g, r);
        each(r);
      }
    }
  };
}

}  // namespace

bool parse_export_format(std::string_view name, export_format& out) {
  if (name == "csv") return out = export_format::csv, true;
  if (name == "jsonl") return out = export_format::jsonl, true;
  return false;
}

bool parse_export_what(std::string_view name, export_what& out) {
  if (name == "records") return out = export_what::records, true;
  if (name == "summary") return out = export_what::summary, true;
  if (name == "examples") return out = export_what::examples, true;
  return false;
}

std::string csv_field(std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string formula_guarded(std::string_view field) {
  if (field.empty() || std::string_view("=+-@\t\r").find(field.front()) == std::string_view::npos ||
      plain_decimal(field))
    return std::string(field);
  return "'" + std::string(field);
}

void export_run(const std::filesystem::path& run_dir, export_what what, export_format format,
                std::ostream& out, bool formula_guard) {
  if (what == export_what::records)
    write_rows(line_rows(run_dir / "results.jsonl", true), record_columns, format, formula_guard, out);
  else if (what == export_what::examples)
    write_rows(line_rows(run_dir / "examples.jsonl", false), example_columns, format, formula_guard, out);
  else
    write_rows(summary_rows(run_dir / "summary.json"), summary_columns, format, formula_guard, out);
}

void refuse_run_file(const std::filesystem::path& run_dir, const std::filesystem::path& output) {
  std::error_code ec;
  const auto target = std::filesystem::weakly_canonical(output, ec);
  for (const char* name :
       {"results.jsonl", "results.jsonl.check", "examples.jsonl", "summary.json", "run.json", "run.lock"}) {
    const auto own = run_dir / name;
    std::error_code own_ec;
    const bool same_path = !ec && target == std::filesystem::weakly_canonical(own, own_ec) && !own_ec;
    // A hard link (or a path weakly_canonical cannot see through) to an existing file of the run.
    std::error_code link_ec;
    const bool same_file = std::filesystem::exists(output, link_ec) &&
                           std::filesystem::exists(own, link_ec) &&
                           std::filesystem::equivalent(output, own, link_ec) && !link_ec;
    if (same_path || same_file)
      throw usage_error("-o " + output.string() + " is the run's own " + name + " in " + run_dir.string() +
                        ": export writes a new file, never over the run it reads");
  }
}

}  // namespace sqlmorph::core
