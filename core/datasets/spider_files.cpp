#include "datasets/spider_files.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <sqlmorph/unicode.hpp>

#include "datasets/csv.hpp"
#include "datasets/database_folder.hpp"
#include "datasets/json_input.hpp"
#include "datasets/spider_hardness.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"

namespace sqlmorph::core {
namespace {

std::string lower_ascii(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

std::vector<std::string> read_csv_predictions(line_reader& lines) {
  const std::string name = lines.name();
  // A quoted field may span lines: the rows are parsed from the whole text, read within the bounds.
  std::string text, line;
  while (lines.next_raw(line)) text += line;
  const std::vector<csv_row> rows = parse_csv(text, name);
  if (rows.empty()) throw usage_error(name + ": empty CSV file");
  const auto& header = rows[0].fields;
  std::optional<std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string h = lower_ascii(trim(header[i]));
    if (h == "predicted sql" || h == "predicted_sql" || h == "pred" || h == "prediction") column = i;
  }
  if (!column) {
    throw usage_error(name +
                      ":1: no prediction column in the CSV header (expected one named "
                      "\"PREDICTED SQL\", \"predicted_sql\", \"pred\" or \"prediction\")");
  }
  std::vector<std::string> out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (*column >= rows[r].fields.size()) {
      throw usage_error(name + ":" + std::to_string(rows[r].line) + ": row has " +
                        std::to_string(rows[r].fields.size()) + " fields, the header has " +
                        std::to_string(header.size()));
    }
    out.push_back(rows[r].fields[*column]);
  }
  return out;
}

}  // namespace

prediction_tabs parse_prediction_tabs(const std::string& text) {
  if (text == "official") return prediction_tabs::official;
  if (text == "keep") return prediction_tabs::keep;
  throw usage_error("--pred-tabs must be 'official' or 'keep', not '" + text + "'");
}

std::vector<std::string> read_spider_predictions(const std::filesystem::path& file,
                                                 const std::vector<std::string>& gold_db_ids,
                                                 prediction_tabs tabs) {
  line_reader reader(file);
  return read_spider_predictions(reader, lower_ascii(file.extension().string()) == ".csv", gold_db_ids, tabs);
}

std::vector<std::string> read_spider_predictions(line_reader& reader, bool csv,
                                                 const std::vector<std::string>& gold_db_ids,
                                                 prediction_tabs tabs) {
  if (csv) return read_csv_predictions(reader);
  std::vector<std::string> lines;
  bool seen_text = false;
  for (std::string line; reader.next(line);) {
    if (!seen_text && !trim(line).empty()) {
      seen_text = true;
      if (looks_like_json(line)) {
        throw usage_error(reader.where() +
                          ": this is JSON, not Spider predictions (one SQL per line): BIRD predictions go "
                          "with --benchmark bird, a JSONL cases file with --cases");
      }
    }
    lines.push_back(std::move(line));
  }
  const std::string file = reader.name();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string& line = lines[i];
    const std::string expected_db = i < gold_db_ids.size() ? gold_db_ids[i] : std::string();
    if (tabs == prediction_tabs::official) {
      line = trim(line);
      const std::size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      if (trim(std::string_view(line).substr(tab + 1)) != expected_db) {
        spdlog::warn(
            "{}:{}: tab inside the SQL; as the official evaluator reads the file, the SQL ends at the first "
            "tab (--pred-tabs keep keeps the whole line)",
            file, i + 1);
      }
      line = trim(std::string_view(line).substr(0, tab));
      continue;
    }
    const std::size_t tab = line.rfind('\t');
    if (tab == std::string::npos) continue;
    const std::string suffix = trim(std::string_view(line).substr(tab + 1));
    // Only a trailing tab followed by the line's db_id is a separator; other tabs belong to the SQL.
    if (suffix == expected_db) {
      line.resize(tab);
    } else if (!suffix.empty() &&
               std::find(gold_db_ids.begin(), gold_db_ids.end(), suffix) != gold_db_ids.end()) {
      spdlog::warn(
          "{}:{}: prediction ends with db_id '{}' but the gold line is for '{}'; is the file aligned?", file,
          i + 1, suffix, expected_db.empty() ? "?" : expected_db);
      line.resize(tab);
    }
  }
  return lines;
}

spider_gold read_spider_gold(const std::filesystem::path& file, const std::filesystem::path& db_root) {
  const std::vector<std::string> gold_lines = read_lines(file);
  spider_gold gold;
  gold.file = file;
  std::vector<std::string>& gold_sql = gold.sql;
  std::vector<std::string>& db_ids = gold.db_ids;
  for (std::size_t i = 0; i < gold_lines.size(); ++i) {
    const std::size_t tab = gold_lines[i].rfind('\t');
    const std::string db_id = tab == std::string::npos ? std::string() : trim(gold_lines[i].substr(tab + 1));
    if (db_id.empty()) {
      throw usage_error(file.string() + ":" + std::to_string(i + 1) +
                        ": expected 'SQL<TAB>db_id' (Spider's gold format)" +
                        (looks_like_json(gold_lines[i])
                             ? "; this is JSON: BIRD questions go with --benchmark bird, a JSONL cases file "
                               "with --cases"
                             : ""));
    }
    gold_sql.push_back(gold_lines[i].substr(0, tab));
    db_ids.push_back(db_id);
  }
  if (gold_sql.empty()) throw usage_error(file.string() + ": no gold query in the file (it is empty)");
  // What every system's examples share, once: a run of many systems reads the gold file once.
  gold.db_paths.reserve(gold_sql.size());
  gold.difficulty.reserve(gold_sql.size());
  for (std::size_t i = 0; i < gold_sql.size(); ++i) {
    gold.db_paths.push_back(
        database_file_in(db_root, db_ids[i], file.string() + ":" + std::to_string(i + 1)).string());
    gold.difficulty.push_back(spider_hardness(gold_sql[i]));
  }
  return gold;
}

std::vector<example> spider_examples(const spider_gold& gold, const std::filesystem::path& pred,
                                     const std::optional<std::string>& system_name, prediction_tabs tabs) {
  const std::vector<std::string>& gold_sql = gold.sql;
  const std::vector<std::string>& db_ids = gold.db_ids;
  const std::vector<std::string> preds = read_spider_predictions(pred, db_ids, tabs);
  if (preds.size() < gold_sql.size()) {
    spdlog::warn(
        "{} has {} predictions but {} has {} gold queries: the last {} examples are pred_missing (is the "
        "file "
        "aligned line by line?)",
        pred.string(), preds.size(), gold.file.string(), gold_sql.size(), gold_sql.size() - preds.size());
  } else if (preds.size() > gold_sql.size()) {
    spdlog::warn(
        "{} has {} predictions but {} has {} gold queries: the extra {} lines are ignored (is the file "
        "aligned "
        "line by line?)",
        pred.string(), preds.size(), gold.file.string(), gold_sql.size(), preds.size() - gold_sql.size());
  }
  const std::string system = system_name ? *system_name : pred.stem().string();
  std::vector<example> out;
  out.reserve(gold_sql.size());
  std::size_t invalid_utf8 = 0;
  for (std::size_t i = 0; i < gold_sql.size(); ++i) {
    example ex;
    ex.id = system + ":" + std::to_string(i);
    ex.item = std::to_string(i);
    ex.db_id = db_ids[i];
    ex.db = gold.db_paths[i];
    ex.gold = gold_sql[i];
    ex.difficulty = gold.difficulty[i];
    ex.system = system;
    ex.origin = pred.string() + ":" + std::to_string(i + 1);
    if (i < preds.size()) {
      ex.pred = preds[i];
      if (!valid_utf8(ex.pred) && invalid_utf8++ < 5) {
        spdlog::warn("{}: the prediction is not valid UTF-8; it is executed byte for byte", ex.origin);
      }
    } else {
      ex.pred_missing = true;
    }
    out.push_back(std::move(ex));
  }
  if (invalid_utf8 > 5)
    spdlog::warn("{}: {} predictions in all are not valid UTF-8", pred.string(), invalid_utf8);
  return out;
}

std::vector<example> read_spider_files(const spider_files& files) {
  return spider_examples(read_spider_gold(files.gold, files.db_root), files.pred, files.system, files.tabs);
}

}  // namespace sqlmorph::core
