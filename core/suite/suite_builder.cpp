#include "suite/suite_builder.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <system_error>
#include <thread>

#include <spdlog/spdlog.h>

#include "datasets/cases_file.hpp"
#include "datasets/database_folder.hpp"
#include "datasets/json_input.hpp"
#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "parallel_for.hpp"

namespace sqlmorph::core::suite {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

constexpr const char* report_name = "distillation.json";

double rounded(double v, double unit) {
  return static_cast<double>(static_cast<long long>(v / unit + 0.5)) * unit;
}

void add_gold(std::map<std::string, database_golds>& by_db, const std::string& db_id,
              const fs::path& original, gold_query g) {
  database_golds& d = by_db[db_id];
  d.db_id = db_id;
  d.original = original;
  d.golds.push_back(std::move(g));
}

void read_spider_gold(const fs::path& file, const fs::path& root,
                      std::map<std::string, database_golds>& by_db) {
  line_reader lines(file);
  std::string line;
  while (lines.next(line)) {
    if (trim(line).empty()) continue;
    const std::size_t tab = line.rfind('\t');
    const std::string db_id = tab == std::string::npos ? std::string() : trim(line.substr(tab + 1));
    const std::string sql = tab == std::string::npos ? std::string() : trim(line.substr(0, tab));
    if (db_id.empty() || sql.empty())
      throw input_error(lines.where() + ": expected 'SQL<TAB>db_id' (Spider's gold format)");
    add_gold(by_db, db_id, database_file_in(root, db_id, lines.where()), {lines.where(), sql});
  }
}

void read_bird_gold(const fs::path& file, const fs::path& root,
                    std::map<std::string, database_golds>& by_db) {
  const nlohmann::json questions = parse_input_json(read_file(file), file.string());
  if (!questions.is_array())
    throw input_error(file.string() + ": expected a JSON list of questions (BIRD's dev.json)");
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const std::string at = file.string() + " question " + std::to_string(i);
    const nlohmann::json& q = questions[i];
    if (!q.is_object()) throw input_error(at + ": expected an object");
    const auto sql = q.find("SQL");
    const auto db = q.find("db_id");
    if (sql == q.end() || !sql->is_string() || trim(sql->get<std::string>()).empty())
      throw input_error(at + ": missing field 'SQL' (a string)");
    if (db == q.end() || !db->is_string()) throw input_error(at + ": missing field 'db_id' (a string)");
    const std::string db_id = db->get<std::string>();
    add_gold(by_db, db_id, database_file_in(root, db_id, at), {at, trim(sql->get<std::string>())});
  }
}

void write_json(const fs::path& file, const json& j) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, file);
}

json coverage_json(const gold_coverage& g) {
  json j;
  j["origin"] = g.origin;
  j["gold"] = g.sql;
  if (!g.gold_error.empty()) j["gold_error"] = g.gold_error;
  j["neighbours"] = g.neighbours;
  j["distinguished"] = g.distinguished;
  json families = json::object();
  for (const auto& [name, counts] : g.families) families[name] = {counts.first, counts.second};
  j["families"] = std::move(families);
  json equivalent = json::array();
  for (const neighbour_query& n : g.equivalent) equivalent.push_back({{"family", n.family}, {"sql", n.sql}});
  j["equivalent"] = std::move(equivalent);
  return j;
}

json database_report(const database_golds& d, const distillation_result& r, const suite_request& request,
                     double seconds) {
  json j;
  j["db_id"] = d.db_id;
  j["seed"] = request.seed;
  j["max_candidates"] = request.max_candidates;
  j["variants"] = r.variants;
  j["candidates_tried"] = r.candidates_tried;
  j["candidates_failing_gold"] = r.candidates_failing_gold;
  j["candidates_order_dependent"] = r.candidates_order_dependent;
  j["gold_queries"] = d.golds.size();
  j["neighbours"] = r.neighbours();
  j["distinguished"] = r.distinguished();
  j["seconds"] = rounded(seconds, 0.001);
  json golds = json::array();
  for (const gold_coverage& g : r.golds) golds.push_back(coverage_json(g));
  j["golds"] = std::move(golds);
  return j;
}

// The manifest's line for one database, from its report.
json database_summary(const json& report, bool resumed) {
  json j;
  j["db_id"] = report["db_id"];
  j["variants"] = report["variants"].size();
  j["candidates_tried"] = report["candidates_tried"];
  j["gold_queries"] = report["gold_queries"];
  std::size_t errors = 0;
  for (const auto& g : report["golds"])
    if (g.contains("gold_error")) ++errors;
  j["gold_errors"] = errors;
  j["neighbours"] = report["neighbours"];
  j["distinguished"] = report["distinguished"];
  const double n = report["neighbours"].get<double>();
  j["coverage"] = n > 0 ? rounded(report["distinguished"].get<double>() / n, 0.0001) : 1.0;
  j["seconds"] = report["seconds"];
  j["resumed"] = resumed;
  return j;
}

// Leaves in `by_db` only the databases the request names (all when it names none).
void keep_selected(std::map<std::string, database_golds>& by_db, const suite_request& request) {
  if (request.databases.empty()) return;
  for (const std::string& db_id : request.databases) {
    if (by_db.count(db_id) != 0) continue;
    std::string known;
    for (const auto& [name, d] : by_db) known += (known.empty() ? "" : ", ") + name;
    const fs::path source = request.cases ? *request.cases : *request.gold;
    throw usage_error("--databases: no gold query of " + source.string() + " is on '" + db_id +
                      "'; its databases: " + known);
  }
  for (auto it = by_db.begin(); it != by_db.end();) {
    const bool selected =
        std::find(request.databases.begin(), request.databases.end(), it->first) != request.databases.end();
    it = selected ? std::next(it) : by_db.erase(it);
  }
}

// The settings a suite is built with, which every database of its folder shares.
json suite_settings(const suite_request& request, const technique& comparison) {
  json j;
  j["suite"] = "sqlmorph suite build";
  j["benchmark"] = request.cases ? std::string("cases") : request.benchmark;
  j["gold"] = request.cases ? request.cases->string() : request.gold->string();
  j["seed"] = request.seed;
  j["max_candidates"] = request.max_candidates;
  j["comparison"] = comparison.name();
  return j;
}

// Makes SUITE_DIR the suite's: a new or empty folder gets suite.json with the settings (not yet
// complete); a folder that has one already must have the same settings. Anything else is refused.
void claim_suite_folder(const suite_request& request, const json& settings) {
  const fs::path& out = request.out;
  const fs::path manifest = out / "suite.json";
  std::error_code ec;
  const bool exists = fs::exists(out, ec);
  if (exists && !fs::is_directory(out, ec))
    throw std::runtime_error(out.string() + " is not a folder; choose another --out");
  if (!exists || fs::is_empty(out, ec)) {
    fs::create_directories(out);
    json marker = settings;
    marker["complete"] = false;
    write_json(manifest, marker);
    return;
  }
  const json made =
      fs::is_regular_file(manifest, ec) ? json::parse(read_file(manifest), nullptr, false) : json();
  if (!made.is_object() || made.value("suite", std::string()) != "sqlmorph suite build")
    throw std::runtime_error(out.string() + " is not empty and was not made by `sqlmorph suite build` (no " +
                             manifest.filename().string() + " of one): choose a new or empty --out");
  const auto require_same = [&](const char* key, const std::string& what) {
    if (made.contains(key) && made[key] == settings[key]) return;
    throw std::runtime_error(out.string() + " was built with " + what + " " +
                             (made.contains(key) ? made[key].dump() : std::string("unknown")) + ", not " +
                             settings[key].dump() +
                             ": its databases must share them; remove it or choose another --out");
  };
  require_same("seed", "seed");
  require_same("max_candidates", "--max-candidates");
  require_same("comparison", "the comparison");
}

// The manifest's lines of the databases the folder holds besides those of this build (built by an
// earlier one, e.g. with other --databases).
std::vector<json> other_databases(const fs::path& out, const std::vector<database_golds>& built) {
  std::vector<json> out_lines;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec)) {
    const std::string db_id = entry.path().filename().string();
    if (!entry.is_directory(ec) || db_id.starts_with(".")) continue;
    if (std::any_of(built.begin(), built.end(), [&](const database_golds& d) { return d.db_id == db_id; }))
      continue;
    if (!fs::is_regular_file(entry.path() / report_name, ec)) continue;
    out_lines.push_back(database_summary(json::parse(read_file(entry.path() / report_name)), true));
  }
  return out_lines;
}

}  // namespace

std::vector<database_golds> read_suite_golds(const suite_request& request) {
  std::map<std::string, database_golds> by_db;
  if (request.cases) {
    if (request.gold || !request.benchmark.empty())
      throw usage_error("give either --cases or --benchmark with --gold, not both");
    for (const example& ex : read_cases_file(*request.cases, request.db_root)) {
      const fs::path db = ex.db;
      const std::string db_id = ex.db_id.empty() ? db.stem().string() : ex.db_id;
      auto it = by_db.find(db_id);
      if (it != by_db.end() && it->second.original != db)
        throw input_error(ex.origin + ": db_id '" + db_id + "' names two database files (" +
                          it->second.original.string() + " and " + db.string() + ")");
      add_gold(by_db, db_id, db, {ex.origin, ex.gold});
    }
  } else {
    if (request.benchmark != "spider" && request.benchmark != "bird")
      throw usage_error("--benchmark must be spider or bird (or give --cases FILE)");
    if (!request.gold || !request.db_root)
      throw usage_error("--benchmark " + request.benchmark + " needs --gold FILE and --db-root DIR");
    std::error_code ec;
    if (!fs::is_directory(*request.db_root, ec))
      throw usage_error("--db-root " + request.db_root->string() + " is not a directory");
    if (request.benchmark == "spider")
      read_spider_gold(*request.gold, *request.db_root, by_db);
    else
      read_bird_gold(*request.gold, *request.db_root, by_db);
  }
  if (by_db.empty()) throw input_error("no gold query to build a suite for");
  keep_selected(by_db, request);
  std::vector<database_golds> out;
  for (auto& [db_id, d] : by_db) {
    std::error_code ec;
    if (!fs::is_regular_file(d.original, ec) && request.skip_missing) {
      spdlog::warn("{}: the database of db_id '{}' is missing ({}): its {} gold queries are left out",
                   d.golds.front().origin, db_id, d.original.string(), d.golds.size());
      continue;
    }
    if (!fs::is_regular_file(d.original, ec))
      throw input_error(d.golds.front().origin + ": the database of db_id '" + db_id + "' is missing (" +
                        d.original.string() + ")");
    out.push_back(std::move(d));
  }
  if (out.empty()) throw input_error("no database to build a suite for: every database is missing");
  return out;
}

nlohmann::ordered_json build_suite(const suite_request& request, std::shared_ptr<const technique> comparison,
                                   std::shared_ptr<const backend_routes> routes) {
  if (comparison->databases() == database_scope::variants)
    throw usage_error("the comparison of a suite build must run on one database, not on a suite like '" +
                      comparison->name() + "'");
  const std::vector<database_golds> databases = read_suite_golds(request);
  const json settings = suite_settings(request, *comparison);
  claim_suite_folder(request, settings);
  const auto started = std::chrono::steady_clock::now();

  distillation_options options;
  options.seed = request.seed;
  options.max_candidates = request.max_candidates;

  std::vector<json> summaries(databases.size());
  std::vector<std::string> failures(databases.size());
  std::atomic<std::size_t> done{0};
  std::mutex progress_mutex;
  const auto say = [&](const std::string& line) {
    if (request.progress == nullptr) return;
    std::lock_guard<std::mutex> lock(progress_mutex);
    *request.progress << line << std::endl;
  };
  const auto build_one = [&](std::size_t index) {
    const database_golds& d = databases[index];
    const fs::path final_dir = request.out / d.db_id;
    std::error_code ec;
    if (fs::exists(final_dir, ec)) {
      if (!fs::is_regular_file(final_dir / report_name, ec))
        throw std::runtime_error(final_dir.string() +
                                 " exists but was not built by `sqlmorph suite build` (no " + report_name +
                                 "); remove it or choose another --out");
      const json report = json::parse(read_file(final_dir / report_name));
      for (const char* key : {"seed", "max_candidates"}) {
        if (report.value(key, json()) != settings[key])
          throw std::runtime_error(final_dir.string() + " was built with " + key + " " +
                                   report.value(key, json()).dump() + ", not " + settings[key].dump() +
                                   "; remove it or choose another --out");
      }
      summaries[index] = database_summary(report, true);
      return std::string("already built");
    }
    const auto t0 = std::chrono::steady_clock::now();
    const fs::path partial = request.out / ("." + d.db_id + ".partial");
    fs::remove_all(partial, ec);
    fs::create_directories(partial);
    fs::copy_file(d.original, partial / (d.db_id + ".sqlite"));
    const distillation_result r =
        distill_database(d.db_id, d.original, d.golds, partial, comparison, routes, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const json report = database_report(d, r, request, seconds);
    write_json(partial / report_name, report);
    fs::rename(partial, final_dir);
    summaries[index] = database_summary(report, false);
    std::ostringstream line;
    line << r.variants.size() << " variants, " << r.distinguished() << "/" << r.neighbours()
         << " neighbours told apart, " << r.candidates_tried << " candidates, " << rounded(seconds, 0.1)
         << " s";
    return line.str();
  };
  const unsigned jobs =
      std::max(1u, std::min<unsigned>(request.jobs, static_cast<unsigned>(databases.size())));
  parallel_for(databases.size(), jobs, [&](std::size_t i) {
    std::string line;
    try {
      line = build_one(i);
    } catch (const std::exception& e) {
      failures[i] = e.what();
      line = std::string("failed: ") + e.what();
    }
    say("suite: [" + std::to_string(++done) + "/" + std::to_string(databases.size()) + "] " +
        databases[i].db_id + ": " + line);
  });

  std::string failed;
  for (std::size_t i = 0; i < databases.size(); ++i)
    if (!failures[i].empty()) failed += "\n  " + databases[i].db_id + ": " + failures[i];
  if (!failed.empty()) throw std::runtime_error("the suite of some databases could not be built:" + failed);

  for (json& other : other_databases(request.out, databases)) summaries.push_back(std::move(other));
  std::sort(summaries.begin(), summaries.end(), [](const json& a, const json& b) {
    return a["db_id"].get<std::string>() < b["db_id"].get<std::string>();
  });

  json manifest = settings;
  manifest["complete"] = true;
  manifest["jobs"] = jobs;
  std::size_t variants = 0;
  std::size_t golds = 0;
  std::size_t gold_errors = 0;
  std::size_t neighbours = 0;
  std::size_t distinguished = 0;
  double database_seconds = 0;
  for (const json& s : summaries) {
    variants += s["variants"].get<std::size_t>();
    golds += s["gold_queries"].get<std::size_t>();
    gold_errors += s["gold_errors"].get<std::size_t>();
    neighbours += s["neighbours"].get<std::size_t>();
    distinguished += s["distinguished"].get<std::size_t>();
    database_seconds += s["seconds"].get<double>();
  }
  json totals;
  totals["databases"] = summaries.size();
  totals["variants"] = variants;
  totals["gold_queries"] = golds;
  totals["gold_errors"] = gold_errors;
  totals["neighbours"] = neighbours;
  totals["distinguished"] = distinguished;
  totals["coverage"] =
      neighbours > 0 ? rounded(static_cast<double>(distinguished) / neighbours, 0.0001) : 1.0;
  totals["database_seconds"] = rounded(database_seconds, 0.001);
  totals["seconds"] =
      rounded(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 0.001);
  manifest["totals"] = std::move(totals);
  manifest["databases"] = summaries;
  write_json(request.out / "suite.json", manifest);
  return manifest;
}

}  // namespace sqlmorph::core::suite
