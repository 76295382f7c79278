// Builds the seed corpora of the fuzz targets, at fuzz time, from the project's own inputs (demo
// cases, configuration files, technique scripts, the examples in docs/) and from the benchmarks in
// ../shared (Spider dev and BIRD mini-dev: gold files, predictions, questions) — small pieces of
// each, so that the fuzzers start from real shapes. Nothing of ../shared is copied into the
// repository: the seeds live in the build folder.
//
//   make_seeds SOURCE_DIR SHARED_DIR|- OUT_DIR
//
// With SQLMORPH_REQUIRE_SHARED=1 a missing SHARED_DIR is an error (as in the test suite).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "runner/gold_disk_cache.hpp"
#include "runner/results_file.hpp"
#include "runner/shard_plan.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class seeds {
 public:
  explicit seeds(fs::path out) : out_(std::move(out)) {}
  void add(const std::string& target, const std::string& bytes) {
    const fs::path dir = out_ / target;
    fs::create_directories(dir);
    std::ofstream(dir / ("seed-" + std::to_string(++count_[target])), std::ios::binary) << bytes;
  }
  void report() const {
    for (const auto& [target, n] : count_) std::printf("seeds: %-16s %zu\n", target.c_str(), n);
  }

 private:
  fs::path out_;
  std::map<std::string, std::size_t> count_;
};

// `count` windows of `width` consecutive lines spread over `lines`, joined with newlines.
std::vector<std::string> windows(const std::vector<std::string>& lines, std::size_t width,
                                 std::size_t count) {
  std::vector<std::string> out;
  if (lines.empty()) return out;
  const std::size_t step = std::max<std::size_t>(1, lines.size() / count);
  for (std::size_t start = 0; start < lines.size() && out.size() < count; start += step) {
    std::string text;
    for (std::size_t i = start; i < std::min(lines.size(), start + width); ++i) text += lines[i] + "\n";
    out.push_back(std::move(text));
  }
  return out;
}

// The fenced blocks of `language` in a Markdown file.
std::vector<std::string> fenced(const fs::path& file, const std::string& language) {
  std::vector<std::string> out;
  std::string block;
  bool inside = false;
  for (const std::string& line : lines_of(slurp(file))) {
    if (!inside && line == "```" + language) {
      inside = true;
      block.clear();
    } else if (inside && line.rfind("```", 0) == 0) {
      inside = false;
      out.push_back(block);
    } else if (inside) {
      block += line + "\n";
    }
  }
  return out;
}

std::vector<fs::path> files_under(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == extension) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void project_seeds(const fs::path& src, seeds& s) {
  const std::string demo = slurp(src / "examples/demo/cases.jsonl");
  s.add("cases_reader", demo);
  for (const std::string& line : lines_of(demo)) {
    s.add("cases_reader", line + "\n");
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    for (const char* key : {"gold", "pred"}) {
      if (!j.contains(key) || !j[key].is_string()) continue;
      s.add("sql_text", j[key].get<std::string>());
      s.add("spider_hardness", j[key].get<std::string>());
    }
  }
  for (const fs::path& f : files_under(src / "examples", ".toml")) s.add("toml_config", slurp(f));
  s.add("toml_config", slurp(src / "sqlmorph.toml"));
  for (const fs::path& md : files_under(src / "docs", ".md")) {
    for (const std::string& b : fenced(md, "toml")) s.add("toml_config", b);
    for (const std::string& b : fenced(md, "lua")) s.add("lua_techniques", b);
    for (const std::string& b : fenced(md, "sql")) s.add("sql_text", b);
  }
  for (const fs::path& f : files_under(src / "scripts", ".lua")) s.add("lua_techniques", slurp(f));
  for (const fs::path& f : files_under(src / "examples", ".lua")) s.add("lua_techniques", slurp(f));
  // Values: each pair of kinds, with a few payloads (the bytes FuzzedDataProvider reads).
  for (int a = 0; a < 6; ++a) {
    for (int b = 0; b < 6; ++b) {
      std::string bytes = "1.5\x00\x01\xff" + std::string(1, static_cast<char>(a)) + "0123456789abcdef";
      bytes += std::string(1, static_cast<char>(b));
      s.add("value", bytes);
    }
  }
}

void spider_seeds(const fs::path& spider, seeds& s) {
  const auto gold = lines_of(slurp(spider / "dev_gold.sql"));
  for (const std::string& w : windows(gold, 6, 40)) s.add("spider_files", w);
  for (std::size_t i = 0; i < gold.size(); i += 5) {
    const std::string sql = gold[i].substr(0, gold[i].rfind('\t'));
    s.add("sql_text", sql);
    s.add("spider_hardness", sql);
    s.add("spider_exact_match", sql + "\n" + sql);
  }
  // Some of the prediction files (nl2sql360 alone has a hundred): windows of twenty of them.
  const auto predictions = files_under(spider / "predictions", ".sql");
  for (std::size_t i = 0; i < predictions.size(); i += std::max<std::size_t>(1, predictions.size() / 20)) {
    for (const std::string& w : windows(lines_of(slurp(predictions[i])), 6, 10)) s.add("spider_files", w);
  }
  for (const fs::path& f : files_under(spider / "predictions", ".csv")) {
    const std::string text = slurp(f);
    s.add("spider_files", text.substr(0, text.find('\n', 3000) + 1));
  }
  // Cases files made of gold and predicted SQL.
  const auto dail = lines_of(slurp(spider / "predictions" / "dail-sql-gpt4.sql"));
  for (std::size_t start = 0; start + 4 < gold.size() && start < 400; start += 40) {
    std::string text;
    for (std::size_t i = start; i < start + 4 && i < dail.size(); ++i) {
      const auto tab = gold[i].rfind('\t');
      text += json{{"id", i},
                   {"db", gold[i].substr(tab + 1) + ".sqlite"},
                   {"gold", gold[i].substr(0, tab)},
                   {"pred", dail[i]}}
                  .dump() +
              "\n";
    }
    s.add("cases_reader", text);
  }
}

void bird_seeds(const fs::path& bird, seeds& s) {
  for (const fs::path& q : files_under(bird, ".json")) {
    if (q.filename().string().rfind("mini_dev_", 0) != 0) continue;
    const json questions = json::parse(slurp(q), nullptr, false);
    if (!questions.is_array()) continue;
    for (const fs::path& p : files_under(bird / "predictions", ".json")) {
      const json predictions = json::parse(slurp(p), nullptr, false);
      if (!predictions.is_object()) continue;
      for (std::size_t start = 0; start + 2 < questions.size() && start < 300; start += 60) {
        json part = json::array(), pred = json::object();
        for (std::size_t i = 0; i < 2; ++i) {
          part.push_back(questions[start + i]);
          const std::string key = std::to_string(start + i);
          if (predictions.contains(key)) pred[std::to_string(i)] = predictions[key];
        }
        s.add("bird_files", part.dump(2) + std::string(1, '\0') + pred.dump());
      }
    }
    for (std::size_t i = 0; i < questions.size(); i += 25) {
      if (questions[i].contains("SQL") && questions[i]["SQL"].is_string())
        s.add("sql_text", questions[i]["SQL"]);
    }
  }
}

// Gold-cache entries written by the cache's own writer: results of each kind of cell, failures, a
// truncated and an empty result.
void gold_cache_seeds(seeds& s) {
  using namespace sqlmorph;
  const auto add = [&](const query_outcome& o) {
    s.add("gold_cache_entry", core::cache_entry_bytes(fuzz::gold_cache_key, o));
  };
  query_outcome rows;
  rows.elapsed_ms = 1.25;
  rows.rows.set_columns({"id", "name", "score", "photo", "note"}, {"INTEGER", "TEXT", "REAL", "BLOB", ""});
  for (int r = 0; r < 3; ++r) {
    rows.rows.append_integer(r);
    rows.rows.append_text("name " + std::to_string(r));
    rows.rows.append_real(r / 3.0);
    rows.rows.append_blob(std::string("\x00\xff", 2));
    rows.rows.append_null();
  }
  add(rows);
  rows.rows.set_truncated(true);
  add(rows);
  query_outcome empty;
  empty.rows.set_columns({"x"}, {"INTEGER"});
  add(empty);
  add(query_outcome::failure(query_status::error, "no such table: t", 0.5));
  add(query_outcome::failure(query_status::timeout, "interrupted after 5 s", 5000));
}

// A shard run's folder as eval --shard writes it, made by the runner's own writers: three units of
// one example (system "a", two techniques each), as run_files' resume readers expect them.
void run_file_seeds(seeds& s) {
  using namespace sqlmorph;
  core::shard_run shard;
  shard.spec = {0, 1};
  shard.run_fingerprint = "0123456789abcdef0123456789abcdef";
  shard.run_examples = 3;
  shard.run_units = 3;
  shard.databases["/dbs/demo.sqlite"] = "fedcba9876543210fedcba9876543210";
  std::string results, checks, examples;
  for (std::size_t u = 0; u < 3; ++u) {
    std::vector<core::record> records;
    std::vector<core::record_key> keys;
    for (const char* technique : {"execution_accuracy", "exact_column_and_partial_cell"}) {
      core::record r;
      r.id = "q" + std::to_string(u);
      r.system = "a";
      r.db_id = "demo";
      r.technique = technique;
      r.scores.ex = static_cast<double>(u % 2);
      records.push_back(r);
      keys.push_back({r.id, r.system, r.technique, std::nullopt});
    }
    const core::results_unit_text text = core::format_results_unit(records);
    results += text.lines;
    checks += text.check;
    examples += json{{"id", "q" + std::to_string(u)}, {"system", "a"}, {"gold", "SELECT 1"}}.dump() + "\n";
    shard.units.push_back({u, 1, core::unit_keys_digest(keys)});
  }
  json run = {{"status", "complete"},
              {"fingerprint", "00112233445566778899aabbccddeeff"},
              {"techniques", json::array({json{{"name", "execution_accuracy"}},
                                          json{{"name", "exact_column_and_partial_cell"}}})},
              {"database_hashes", {{"/dbs/demo.sqlite", "fedcba9876543210fedcba9876543210"}}},
              {"shard", json::parse(shard.to_json().dump())}};
  const std::string nul(1, '\0');
  s.add("run_files", run.dump(2) + nul + results + nul + checks + nul + examples);
  s.add("run_files", run.dump() + nul + results + nul + checks);
  run.erase("shard");
  s.add("run_files", run.dump(2) + nul + results + nul + checks + nul + examples);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: make_seeds SOURCE_DIR SHARED_DIR|- OUT_DIR\n");
    return 2;
  }
  const fs::path src = argv[1], out = argv[3];
  const std::string shared = argv[2];
  fs::remove_all(out);
  seeds s(out);
  project_seeds(src, s);
  gold_cache_seeds(s);
  run_file_seeds(s);
  std::error_code ec;
  if (shared != "-" && fs::is_directory(fs::path(shared) / "benchmarks", ec)) {
    spider_seeds(fs::path(shared) / "benchmarks/spider-dev", s);
    bird_seeds(fs::path(shared) / "benchmarks/bird-minidev", s);
  } else {
    const char* required = std::getenv("SQLMORPH_REQUIRE_SHARED");
    if (required != nullptr && std::string(required) == "1") {
      std::fprintf(stderr, "make_seeds: %s/benchmarks is missing (SQLMORPH_REQUIRE_SHARED=1)\n",
                   shared.c_str());
      return 1;
    }
    std::printf("make_seeds: no ../shared benchmarks; seeds from the project's own inputs only\n");
  }
  s.report();
  return 0;
}
