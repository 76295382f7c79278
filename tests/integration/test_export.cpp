// `sqlmorph export`: a run's records and summary as RFC 4180 CSV and flat JSON Lines — every field
// of every record comes back from the CSV (parsed here by an independent reader), nested fields as
// dotted columns, a stable header; bad folders and files are errors naming them; formula-like cells
// guarded for spreadsheets (--csv-formula-guard); -o never over the run's own files, and a device
// or a pipe written in place.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

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

namespace {

// A run whose ids, questions and SQL texts begin as spreadsheet formulas do.
std::filesystem::path formula_run(const test::temp_dir& dir) {
  const std::string db = (test::build_dir() / "examples/demo/demo.sqlite").string();
  std::string cases;
  const auto add = [&](const json& id, const std::string& question, const std::string& pred) {
    cases += json{{"id", id},           {"db", db},    {"db_id", "demo"}, {"question", question},
                  {"gold", "SELECT 1"}, {"pred", pred}}
                 .dump() +
             "\n";
  };
  add("=HYPERLINK(\"http://evil\",\"x\")", "=1+1", "SELECT 1");
  add("+cmd", "@SUM(A1)", "-- a comment first\nSELECT 1");
  add("-2+3", "\tcmd", "SELECT 1");
  add("@x", "\rcmd", "SELECT 1");
  add("-1.5", "+2e3", "SELECT 1");    // plain numbers, as text
  add(-5, "a question", "SELECT 1");  // a number
  write_file(dir.path() / "cases.jsonl", cases);
  const auto out = dir.path() / "out";
  const auto r = run_sqlmorph({"--config", (test::source_dir() / "sqlmorph.toml").string(), "-q", "eval",
                               "--cases", (dir.path() / "cases.jsonl").string(), "--techniques",
                               "execution_accuracy", "--out", out.string()});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return out;
}

// Column `name` of the rows of a CSV text, header left out.
std::vector<std::string> csv_column(const std::string& text, const std::string& name) {
  const auto rows = parse_csv(text);
  const auto at = std::find(rows[0].begin(), rows[0].end(), name);
  REQUIRE_MESSAGE(at != rows[0].end(), name);
  std::vector<std::string> out;
  for (std::size_t i = 1; i < rows.size(); ++i)
    out.push_back(rows[i][static_cast<std::size_t>(at - rows[0].begin())]);
  return out;
}

}  // namespace

TEST_CASE(
    "export --csv-formula-guard: on by default a formula-like cell gets a quote in front, numbers stay "
    "numbers") {
  test::temp_dir dir;
  const auto out = formula_run(dir);
  const auto guarded = run_sqlmorph({"export", out.string(), "--what", "examples"});
  REQUIRE_MESSAGE(guarded.exit_code == 0, guarded.err);
  const std::vector<std::string> ids = {
      "'=HYPERLINK(\"http://evil\",\"x\")", "'+cmd", "'-2+3", "'@x", "-1.5", "-5"};
  CHECK(csv_column(guarded.out, "id") == ids);
  CHECK(csv_column(guarded.out, "question") ==
        std::vector<std::string>{"'=1+1", "'@SUM(A1)", "'\tcmd", "'\rcmd", "+2e3", "a question"});
  CHECK(csv_column(guarded.out, "pred")[1] == "'-- a comment first\nSELECT 1");
  const auto on = run_sqlmorph({"export", out.string(), "--what", "examples", "--csv-formula-guard", "on"});
  REQUIRE(on.exit_code == 0);
  CHECK(on.out == guarded.out);
  // Records: the ids guarded, the scores numbers.
  const auto records = run_sqlmorph({"export", out.string()});
  REQUIRE(records.exit_code == 0);
  CHECK(csv_column(records.out, "id") == ids);
  CHECK(csv_column(records.out, "EX") == std::vector<std::string>(6, "1"));

  // off: every cell as it is.
  const auto off = run_sqlmorph({"export", out.string(), "--what", "examples", "--csv-formula-guard", "off"});
  REQUIRE_MESSAGE(off.exit_code == 0, off.err);
  CHECK(csv_column(off.out, "id") ==
        std::vector<std::string>{"=HYPERLINK(\"http://evil\",\"x\")", "+cmd", "-2+3", "@x", "-1.5", "-5"});
  CHECK(csv_column(off.out, "question") ==
        std::vector<std::string>{"=1+1", "@SUM(A1)", "\tcmd", "\rcmd", "+2e3", "a question"});

  // JSON Lines are never changed; the option is refused with them, and a value other than on/off.
  const auto jsonl = run_sqlmorph({"export", out.string(), "--what", "examples", "--format", "jsonl"});
  REQUIRE(jsonl.exit_code == 0);
  CHECK(json::parse(jsonl.out.substr(0, jsonl.out.find('\n')))["id"] == "=HYPERLINK(\"http://evil\",\"x\")");
  const auto both = run_sqlmorph({"export", out.string(), "--format", "jsonl", "--csv-formula-guard", "on"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--csv-formula-guard applies to --format csv only") != std::string::npos);
  const auto bad = run_sqlmorph({"export", out.string(), "--csv-formula-guard", "maybe"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--csv-formula-guard must be on or off, not 'maybe'") != std::string::npos);
}

TEST_CASE("export -o never writes over the run's own files, a device or a pipe is written in place") {
  test::temp_dir dir;
  const auto out = make_run(dir);
  std::map<std::string, std::string> before;
  for (const char* name :
       {"results.jsonl", "results.jsonl.check", "examples.jsonl", "summary.json", "run.json"})
    before[name] = test::file_bytes(out / name);
  std::filesystem::create_symlink(out / "summary.json", dir.path() / "link.json");
  std::filesystem::create_hard_link(out / "results.jsonl", dir.path() / "hard.csv");
  for (const auto& target :
       {out / "summary.json", out / "results.jsonl", out / "examples.jsonl", out / "run.json",
        out / "run.lock", out / "results.jsonl.check", out / ".." / out.filename() / "summary.json",
        dir.path() / "link.json", dir.path() / "hard.csv"}) {
    const auto r = run_sqlmorph({"export", out.string(), "--what", "summary", "-o", target.string()});
    CHECK_MESSAGE(r.exit_code == 2, target);
    CHECK_MESSAGE(r.err.find("is the run's own") != std::string::npos, target << ": " << r.err);
  }
  // A path relative to the working folder.
  const auto relative = run_sqlmorph({"export", ".", "--what", "summary", "-o", "summary.json"}, out);
  CHECK(relative.exit_code == 2);
  CHECK(relative.err.find("is the run's own summary.json") != std::string::npos);
  for (const auto& [name, bytes] : before) CHECK_MESSAGE(test::file_bytes(out / name) == bytes, name);
  CHECK(std::filesystem::is_symlink(dir.path() / "link.json"));

  // A new file in the run's folder is fine.
  const auto beside = run_sqlmorph({"export", out.string(), "-o", (out / "records.csv").string()});
  REQUIRE_MESSAGE(beside.exit_code == 0, beside.err);
  CHECK(test::file_bytes(out / "records.csv") == run_sqlmorph({"export", out.string()}).out);

  // A character device and a named pipe are written in place (nothing to replace atomically).
  const auto null = run_sqlmorph({"export", out.string(), "-o", "/dev/null"});
  CHECK_MESSAGE(null.exit_code == 0, null.err);
  CHECK(std::filesystem::is_character_file("/dev/null"));
  const auto fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string piped;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    piped.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  const auto to_pipe = run_sqlmorph({"export", out.string(), "--what", "summary", "-o", fifo.string()});
  // Had the export not opened the pipe, the reader would wait for a writer: this one lets it go.
  const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (writer >= 0) ::close(writer);
  reader.join();
  CHECK_MESSAGE(to_pipe.exit_code == 0, to_pipe.err);
  CHECK(piped == run_sqlmorph({"export", out.string(), "--what", "summary"}).out);
  CHECK(std::filesystem::is_fifo(fifo));
  // A folder is not a file to write.
  const auto folder = run_sqlmorph({"export", out.string(), "-o", dir.path().string()});
  CHECK(folder.exit_code == 2);
  CHECK(folder.err.find("it is a folder") != std::string::npos);
}
