// `sqlmorph export`: a run's records and summary as RFC 4180 CSV and flat JSON Lines — every field
// of every record comes back from the CSV (parsed here by an independent reader), nested fields as
// dotted columns, a stable header; bad folders and files are errors naming them.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

// RFC 4180: records end with CRLF, fields quoted when they hold a comma, quote or line break.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  bool field_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"' && !field_started) {
      quoted = field_started = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
      field_started = false;
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      rows.back().push_back(field);
      field.clear();
      field_started = false;
      rows.emplace_back();
      ++i;
    } else {
      REQUIRE_MESSAGE(c != '\n', "a bare LF outside quotes at byte " << i);
      field += c;
      field_started = true;
    }
  }
  REQUIRE(rows.back().empty());
  rows.pop_back();
  return rows;
}

// A record's fields flattened as the export names them.
void flatten(const std::string& name, const json& v, std::map<std::string, json>& out) {
  if (v.is_object()) {
    for (const auto& [k, m] : v.items()) flatten(name.empty() ? k : name + "." + k, m, out);
  } else {
    out[name] = v;
  }
}

std::string as_csv_text(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) return v.dump();
  return v.dump();
}

std::filesystem::path make_run(const test::temp_dir& dir) {
  write_file(dir.path() / "gold.sql",
             "SELECT name FROM employees WHERE dept = 'eng'\tdemo\nSELECT count(*) FROM projects\tdemo\n"
             "SELECT name FROM employees\tdemo\n");
  write_file(
      dir.path() / "good.sql",
      "SELECT name FROM employees WHERE dept = 'eng'\nSELECT count(*) FROM projects\nSELECT name, dept FROM "
      "employees\n");
  // An error message with a comma and quotes: no such table: x,"y
  write_file(dir.path() / "poor.sql", "SELECT name FROM employees\nSELECT * FROM \"x,\"\"y\"\n");
  write_file(dir.path() / "tables.json",
             R"([{"db_id": "demo", "table_names_original": ["employees", "projects"],
  "column_names_original": [[-1, "*"], [0, "name"], [0, "dept"], [1, "id"]], "foreign_keys": []}])");
  std::filesystem::create_directories(dir.path() / "dbs/demo");
  std::filesystem::copy_file(test::build_dir() / "examples/demo/demo.sqlite",
                             dir.path() / "dbs/demo/demo.sqlite");
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph(
      {"--config", (test::source_dir() / "sqlmorph.toml").string(), "-q", "eval", "--benchmark", "spider",
       "--gold", (dir.path() / "gold.sql").string(), "--pred", "good=" + (dir.path() / "good.sql").string(),
       "--pred", "poor=" + (dir.path() / "poor.sql").string(), "--db-root", (dir.path() / "dbs").string(),
       "--techniques", "execution_accuracy,exact_column_and_partial_cell,spider_exact_match", "--out",
       out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return out;
}

}  // namespace

TEST_CASE("export --what records: every field of every record, as CSV and as flat JSON Lines") {
  test::temp_dir dir;
  const auto out = make_run(dir);
  const auto records = test::read_jsonl(out / "results.jsonl");
  const auto r = run_sqlmorph({"export", out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto rows = parse_csv(r.out);
  REQUIRE(rows.size() == records.size() + 1);
  const std::vector<std::string>& header = rows[0];
  const std::vector<std::string> fixed = {
      "id",      "db_id",   "system",      "difficulty", "technique", "penalize_extra_pred_cols",
      "status",  "EX",      "EXP",         "EXR",        "F1",        "error",
      "gold_ms", "pred_ms", "technique_ms"};
  REQUIRE(header.size() > fixed.size());
  CHECK(std::vector<std::string>(header.begin(), header.begin() + static_cast<long>(fixed.size())) == fixed);
  CHECK(std::is_sorted(header.begin() + static_cast<long>(fixed.size()), header.end()));
  CHECK(std::find(header.begin(), header.end(), "partial.select.acc") != header.end());
  bool saw_quoted_error = false;
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::map<std::string, json> fields;
    flatten("", records[i], fields);
    const auto& cells = rows[i + 1];
    REQUIRE(cells.size() == header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
      const auto it = fields.find(header[c]);
      CHECK_MESSAGE(cells[c] == (it == fields.end() ? std::string() : as_csv_text(it->second)),
                    "record " << i << " column " << header[c]);
      if (header[c] == "error" && cells[c].find("x,\"y") != std::string::npos) saw_quoted_error = true;
    }
    CHECK(fields.size() <= header.size());
  }
  CHECK(saw_quoted_error);

  const auto j =
      run_sqlmorph({"export", out.string(), "--format", "jsonl", "-o", (dir.path() / "r.jsonl").string()});
  REQUIRE_MESSAGE(j.exit_code == 0, j.err);
  CHECK(j.out.empty());
  const auto flat = test::read_jsonl(dir.path() / "r.jsonl");
  REQUIRE(flat.size() == records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::map<std::string, json> fields;
    flatten("", records[i], fields);
    CHECK(flat[i].size() == header.size());
    for (const auto& [name, value] : fields) CHECK(flat[i][name] == value);
  }
}

TEST_CASE("export --what summary: one row per group with its level and interval columns") {
  test::temp_dir dir;
  const auto out = make_run(dir);
  const json summary = json::parse(test::file_bytes(out / "summary.json"));
  const auto r = run_sqlmorph({"export", out.string(), "--what", "summary"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto rows = parse_csv(r.out);
  REQUIRE(summary.contains("by_feature"));
  const std::size_t groups = summary["techniques"].size() + summary["by_difficulty"].size() +
                             summary["by_database"].size() + summary["by_feature"].size();
  REQUIRE(rows.size() == groups + 1);
  const auto& header = rows[0];
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE_MESSAGE(it != header.end(), name);
    return static_cast<std::size_t>(it - header.begin());
  };
  CHECK(header[0] == "level");
  const std::size_t level = column("level");
  const std::size_t ex = column("EX");
  const std::size_t low = column("interval.EX.low");
  const std::size_t high = column("interval.EX.high");
  CHECK(rows[1][level] == "all");
  CHECK(rows[1 + groups - summary["by_feature"].size() - 1][level] == "database");
  CHECK(rows.back()[level] == "feature");
  const json& last = summary["by_feature"].back();
  CHECK(rows.back()[column("feature")] == last["feature"].get<std::string>());
  CHECK(rows.back()[column("present")] == (last["present"].get<bool>() ? "true" : "false"));
  const json& first = summary["techniques"][0];
  CHECK(rows[1][ex] == first["EX"].dump());
  CHECK(rows[1][low] == first["interval"]["EX"][0].dump());
  CHECK(rows[1][high] == first["interval"]["EX"][1].dump());
}

TEST_CASE("export --what examples: one row per example and system, its evidence flattened") {
  test::temp_dir dir;
  const auto out = make_run(dir);
  const auto examples = test::read_jsonl(out / "examples.jsonl");
  const auto r = run_sqlmorph({"export", out.string(), "--what", "examples"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto rows = parse_csv(r.out);
  REQUIRE(rows.size() == examples.size() + 1);
  const auto& header = rows[0];
  const std::vector<std::string> first = {"id",       "system",       "db_id", "difficulty", "question",
                                          "evidence", "evaluated_by", "gold",  "pred"};
  CHECK(std::vector<std::string>(header.begin(), header.begin() + 9) == first);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE_MESSAGE(it != header.end(), name);
    return static_cast<std::size_t>(it - header.begin());
  };
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const json& e = examples[i];
    const auto& row = rows[i + 1];
    CHECK(row[column("id")] == e["id"].get<std::string>());
    CHECK(row[column("gold")] == e["gold"].get<std::string>());
    CHECK(row[column("features.gold.joins")] == e["features"]["gold"]["joins"].dump());
    if (e["gold_result"].is_object() && e["gold_result"].contains("rows")) {
      CHECK(row[column("gold_result.row_count")] == e["gold_result"]["row_count"].dump());
      CHECK(json::parse(row[column("gold_result.rows")]) == e["gold_result"]["rows"]);  // JSON text
    }
  }
  // The same rows as flat JSON Lines.
  const auto jsonl = run_sqlmorph({"export", out.string(), "--what", "examples", "--format", "jsonl"});
  REQUIRE(jsonl.exit_code == 0);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = jsonl.out.find('\n', at)) != std::string::npos; ++at) ++lines;
  CHECK(lines == examples.size());
}

TEST_CASE("export: a folder without a run, a malformed record, unknown options are errors naming them") {
  test::temp_dir dir;
  const auto none = run_sqlmorph({"export", dir.path().string()});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find((dir.path() / "results.jsonl").string() + " does not exist") != std::string::npos);
  write_file(dir.path() / "results.jsonl", "{\"id\": \"a\", \"technique\": \"t\"}\n{\"id\": \n");
  const auto bad = run_sqlmorph({"export", dir.path().string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("results.jsonl:2: not a JSON record") != std::string::npos);
  const auto format = run_sqlmorph({"export", dir.path().string(), "--format", "xlsx"});
  CHECK(format.exit_code == 2);
  CHECK(format.err.find("--format must be csv or jsonl, not 'xlsx'") != std::string::npos);
  const auto what = run_sqlmorph({"export", dir.path().string(), "--what", "rows"});
  CHECK(what.exit_code == 2);
  CHECK(what.err.find("--what must be records, examples or summary, not 'rows'") != std::string::npos);
  const auto no_examples = run_sqlmorph({"export", dir.path().string(), "--what", "examples"});
  CHECK(no_examples.exit_code == 2);
  CHECK(no_examples.err.find((dir.path() / "examples.jsonl").string() + " does not exist") !=
        std::string::npos);
  const auto missing = run_sqlmorph({"export", (dir.path() / "nope").string()});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("is not a folder") != std::string::npos);
}
