#include "runner/evaluation_runner.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <unordered_map>

#include <spdlog/spdlog.h>
#include <sqlmorph/version.hpp>

#include "config/run_values.hpp"
#include "errors.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/sql_features.hpp"
#include "judges/judge_panel.hpp"
#include "output/atomic_file.hpp"
#include "output/record_json.hpp"
#include "output/sqlmorph_logs.hpp"
#include "runner/content_hash.hpp"
#include "runner/examples_file.hpp"
#include "runner/gold_disk_cache.hpp"
#include "runner/output_lock.hpp"
#include "runner/results_file.hpp"
#include "runner/run_manifest.hpp"
#include "runner/shared_query_cache.hpp"
#include "runner/unit_evaluation.hpp"
#include "runner/work_plan.hpp"
#include "runner/worker_queries.hpp"

namespace sqlmorph::core {
namespace {

std::atomic<bool> interrupt_requested{false};

void on_interrupt(int) {
  interrupt_requested = true;
}

// Installs the interrupt handlers for the duration of a run; a second interrupt kills as usual.
class interrupt_scope {
 public:
  explicit interrupt_scope(bool install) : installed_(install) {
    if (!install) return;
    interrupt_requested = false;
    struct sigaction sa {};
    sa.sa_handler = &on_interrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~interrupt_scope() {
    if (!installed_) return;
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  bool installed_;
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string limits_text(const exec_limits& l) {
  return std::to_string(l.timeout_seconds) + "/" + std::to_string(l.max_rows) + "/" +
         std::to_string(l.max_bytes);
}

}  // namespace

script_error_policy parse_script_error_policy(const std::string& text) {
  if (text == "mark") return script_error_policy::mark;
  if (text == "abort") return script_error_policy::abort;
  throw usage_error("on_script_error must be 'mark' or 'abort', not '" + text + "'");
}

std::string run_fingerprint(const std::vector<example>& examples, const evaluation_settings& settings) {
  field_digest digest;  // XXH3-128 (runner/content_hash.hpp)
  const auto add = [&](std::string_view s) { digest.add(s); };
  add(settings.routes->fingerprint());
  add(limits_text(settings.gold_limits));
  add(limits_text(settings.pred_limits));
  for (const auto& t : settings.techniques) add(t->identity());
  if (settings.exact_match) add(settings.exact_match->identity());
  // What a judge reads of an example beyond the SQL (question, evidence) counts only when judges run,
  // so runs without judges keep their fingerprints.
  for (const auto& j : settings.judges) add(j.technique() + "\x1f" + j.identity);
  // What examples.jsonl keeps, when not the default (so default runs keep their fingerprints).
  const evidence_options default_evidence;
  if (settings.evidence.keep_rows != default_evidence.keep_rows ||
      settings.evidence.max_bytes != default_evidence.max_bytes)
    add("evidence " + std::to_string(settings.evidence.keep_rows) + " " +
        std::to_string(settings.evidence.max_bytes));
  for (const example& ex : examples) {
    add(ex.id);
    add(ex.system);
    add(ex.db);
    add(ex.gold);
    add(ex.pred);
    add(ex.gold_backend);
    add(ex.pred_backend);
    add(ex.pred_missing ? "missing" : "present");
    add(ex.item);
    if (!settings.judges.empty()) {
      add(ex.question);
      add(ex.evidence);
    }
  }
  return digest.hex();
}

evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<work_unit> units = plan_work(examples);
  const auto& techniques = settings.techniques;
  const auto& judges = settings.judges;
  check_unique_judge_names(judges);
  // The requested workers (checked against max_jobs where they were read: config/run_values.hpp);
  // the run starts no more than it has units left to evaluate.
  const unsigned jobs = std::min(
      max_jobs, settings.jobs > 0 ? settings.jobs : std::max(1u, std::thread::hardware_concurrency()));
  if (settings.resume && !settings.out_dir)
    throw usage_error("--resume needs the output folder of the run to continue");
  if (!settings.routes) throw std::logic_error("run_evaluation: no backend routes");
  // Every example's backends are known before anything runs (an unknown one is a usage error).
  std::set<std::string> server_backends;
  for (const example& ex : examples) {
    for (const query_role role : {query_role::gold, query_role::pred}) {
      const configured_backend& b = settings.routes->for_role(ex, role);
      if (!b.file_targets()) server_backends.insert(b.name);
    }
  }
  if (settings.cache_dir && !server_backends.empty()) {
    std::string names;
    for (const auto& n : server_backends) names += (names.empty() ? "" : ", ") + n;
    spdlog::info(
        "gold cache: results of {} are not cached on disk (a server database has no content hash to "
        "notice changes by)",
        names);
  }

  evaluation_outcome out;
  out.examples = examples.size();
  out.stats.units = units.size();
  out.stats.jobs = jobs;

  // Output files; with resume, what is already there.
  const std::string fingerprint = run_fingerprint(examples, settings);
  std::unique_ptr<examples_file> evidence;
  std::unique_ptr<sqlmorph_log_writer> sqlmorph_logs;
  if (settings.sqlmorph_logs) sqlmorph_logs = std::make_unique<sqlmorph_log_writer>(*settings.sqlmorph_logs);
  std::unique_ptr<results_file> results;
  std::unique_ptr<run_manifest> manifest;
  std::unique_ptr<output_lock> lock;
  if (settings.out_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*settings.out_dir, ec);
    if (ec)
      throw usage_error("cannot create output directory " + settings.out_dir->string() + ": " + ec.message());
    lock = std::make_unique<output_lock>(*settings.out_dir);
    const auto manifest_file = *settings.out_dir / "run.json";
    // A folder holding a run is continued (--resume) or replaced (--overwrite), never silently
    // started over: that would throw away what an interrupted run had finished.
    if (!settings.resume && !settings.overwrite) {
      const auto results_path = *settings.out_dir / "results.jsonl";
      const bool has_results = std::filesystem::exists(results_path, ec) &&
                               std::filesystem::file_size(results_path, ec) > 0 && !ec;
      if (has_results || std::filesystem::exists(manifest_file, ec)) {
        throw usage_error(settings.out_dir->string() +
                          " already holds a run; pass --resume to continue it, --overwrite to replace it, or "
                          "choose another --out");
      }
    }
    if (settings.resume) {
      const std::string previous = run_manifest::previous_fingerprint(manifest_file);
      if (previous.empty()) {
        spdlog::warn("--resume: no run.json in {}; starting from what results.jsonl holds",
                     settings.out_dir->string());
      } else if (previous != fingerprint) {
        throw usage_error(
            "cannot resume the run in " + settings.out_dir->string() +
            ": it was made with other examples, techniques, limits or backend (run.json fingerprint " +
            previous + ", this run " + fingerprint + ")");
      }
    }
    // examples.jsonl first: results.jsonl resumes no further than the evidence of its units.
    evidence = std::make_unique<examples_file>(*settings.out_dir / "examples.jsonl", settings.resume,
                                               units.size(), [&](std::size_t u) {
                                                 std::vector<std::pair<std::string, std::string>> ids;
                                                 for (const std::size_t i : units[u].examples)
                                                   ids.emplace_back(examples[i].id, examples[i].system);
                                                 return ids;
                                               });
    if (settings.resume && evidence->complete_units() == 0 &&
        std::filesystem::exists(*settings.out_dir / "results.jsonl", ec))
      spdlog::warn("resume: {} holds no complete unit: every unit is evaluated again",
                   (*settings.out_dir / "examples.jsonl").string());
    results = std::make_unique<results_file>(
        *settings.out_dir / "results.jsonl", settings.resume,
        settings.resume ? evidence->complete_units() : units.size(), [&](std::size_t u) {
          return unit_record_keys(units[u], examples, techniques, settings.exact_match != nullptr, judges);
        });
    evidence->keep_units(results->resumed_units());
    manifest = std::make_unique<run_manifest>(manifest_file, fingerprint);
    auto& m = manifest->data();
    m["sqlmorph"] = SQLMORPH_VERSION_STRING;
    for (const auto& [key, v] : settings.manifest.items()) m[key] = v;
    m["machine"] = machine_description();
    m["settings"] = {
        {"jobs", jobs},
        {"backends", settings.routes->describe()},
        {"gold_limits",
         {{"timeout_seconds", settings.gold_limits.timeout_seconds},
          {"max_rows", settings.gold_limits.max_rows},
          {"max_bytes", settings.gold_limits.max_bytes}}},
        {"pred_limits",
         {{"timeout_seconds", settings.pred_limits.timeout_seconds},
          {"max_rows", settings.pred_limits.max_rows},
          {"max_bytes", settings.pred_limits.max_bytes}}},
        {"cache", settings.cache_dir ? nlohmann::ordered_json(settings.cache_dir->string()) : nullptr},
        {"resume", settings.resume}};
    m["techniques"] = nlohmann::ordered_json::array();
    for (const auto& t : techniques) {
      m["techniques"].push_back(
          {{"name", t->name()},
           {"penalize_extra_pred_cols",
            t->penalize_extra_pred_cols() ? nlohmann::ordered_json(*t->penalize_extra_pred_cols()) : nullptr},
           {"declared_at", t->spec().origin},
           {"components", t->identity()}});
    }
    if (settings.exact_match)
      m["techniques"].push_back({{"name", exact_match_technique},
                                 {"penalize_extra_pred_cols", nullptr},
                                 {"declared_at", "built in"},
                                 {"components", settings.exact_match->identity()}});
    if (!judges.empty()) m["judges"] = describe_judges(judges);
    m["examples"] = examples.size();
    manifest->write("running");
  }

  // Records already written count in the summary like new ones.
  const std::size_t first_unit = results ? results->resumed_units() : 0;
  out.stats.resumed_units = first_unit;
  std::size_t done_examples = 0;
  std::size_t error_examples = 0;
  std::set<std::string> missing_databases;  // db_id of the examples whose database is missing
  const std::size_t per_example =
      std::max<std::size_t>(1, techniques.size() + (settings.exact_match ? 1 : 0) + judges.size());
  const auto count_unit = [&](const std::vector<record>& records) {
    for (std::size_t i = 0; i < records.size(); i += per_example) {
      ++done_examples;
      bool failed = false;
      bool missing = false;
      for (std::size_t k = i; k < std::min(records.size(), i + per_example); ++k) {
        failed = failed || records[k].status != example_status::ok;
        missing = missing || records[k].status == example_status::db_missing;
      }
      error_examples += failed;
      out.stats.db_missing_examples += missing;
      if (missing) missing_databases.insert(records[i].db_id);
    }
  };
  // Each record with its example's facts (the gold query's features, for by_feature and QVT).
  std::unordered_map<std::string_view, std::uint32_t> gold_features;
  const auto add_unit = [&](const work_unit& unit, const record* records, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      const example& ex = examples[unit.examples[std::min(k / per_example, unit.examples.size() - 1)]];
      auto [it, added] = gold_features.try_emplace(ex.gold, 0);
      if (added) it->second = feature_mask(features_of(ex.gold));
      const example_facts facts{it->second, ex.gold};
      out.summary.add(records[k], &facts);
    }
  };
  if (results) {
    const auto& resumed = results->resumed_records();
    std::size_t at = 0;
    for (std::size_t u = 0; u < first_unit; ++u) {
      const std::size_t n = units[u].examples.size() * per_example;
      add_unit(units[u], resumed.data() + at, std::min(n, resumed.size() - at));
      at += n;
    }
    count_unit(results->resumed_records());
    if (first_unit > 0)
      spdlog::info("resuming after {} of {} units ({} examples)", first_unit, units.size(), done_examples);
  }

  std::unique_ptr<gold_disk_cache> disk;
  if (settings.cache_dir) disk = std::make_unique<gold_disk_cache>(*settings.cache_dir);
  shared_query_cache shared(settings.memory_cache_bytes);
  schema_cache schemas;

  // Workers take units in order, at most `window` ahead of the writer; the main thread writes.
  const std::size_t window = static_cast<std::size_t>(jobs) * 8;
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next_unit = first_unit;
  std::size_t written = first_unit;
  // Per finished unit: its records and its examples.jsonl lines.
  std::map<std::size_t, std::pair<std::vector<record>, std::vector<std::string>>> finished;
  bool stop = false;
  std::exception_ptr failure;

  std::atomic<std::uint64_t> shared_answers{0};
  interrupt_scope interrupts(settings.handle_signals);
  const auto stop_asked = [&] {
    return (settings.handle_signals && interrupt_requested) ||
           (settings.stop_requested && settings.stop_requested->load());
  };
  const auto work = [&] {
    try {
      worker_queries queries(shared, disk.get(), settings.gold_limits, settings.pred_limits);
      example_evaluator evaluator(queries, techniques, settings.routes);
      evaluator.set_evidence_options(settings.evidence);
      judge_panel panel(judges, settings.routes, schemas, settings.pred_limits);
      while (true) {
        std::size_t u;
        {
          std::unique_lock lock(mutex);
          changed.wait(lock,
                       [&] { return stop || next_unit < written + window || next_unit >= units.size(); });
          if (stop || next_unit >= units.size()) return;
          u = next_unit++;
        }
        std::uint64_t shared = 0;
        std::vector<std::string> lines;
        std::vector<record> records = evaluate_unit(units[u], examples, evaluator, techniques, shared,
                                                    judges.empty() ? nullptr : &panel,
                                                    settings.exact_match.get(), evidence ? &lines : nullptr);
        shared_answers += shared;
        {
          std::lock_guard lock(mutex);
          finished.emplace(u, std::make_pair(std::move(records), std::move(lines)));
        }
        changed.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
      changed.notify_all();
    }
  };
  std::vector<std::thread> workers;
  const std::size_t workers_needed = std::min<std::size_t>(jobs, units.size() - first_unit);
  for (std::size_t j = 0; j < workers_needed; ++j) {
    // A thread the system refuses (EAGAIN: a process or thread limit) must not leave the ones
    // already started running when the exception unwinds (std::terminate): go on with fewer, or
    // stop cleanly when there is none.
    try {
      workers.emplace_back(work);
    } catch (const std::system_error& e) {
      if (workers.empty()) {
        if (manifest) manifest->write("failed");
        throw usage_error(std::string("cannot start a worker thread: ") + e.what());
      }
      spdlog::warn("started {} of {} workers (the system refused more: {})", workers.size(), workers_needed,
                   e.what());
      break;
    }
  }
  out.stats.workers = static_cast<unsigned>(workers.size());
  const auto stop_workers = [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    for (auto& w : workers) w.join();
    workers.clear();
  };

  progress_reporter progress(settings.progress, examples.size(), done_examples);
  std::string abort_reason;
  try {
    std::unique_lock lock(mutex);
    while (written < units.size()) {
      changed.wait_for(lock, std::chrono::milliseconds(200),
                       [&] { return finished.count(written) > 0 || failure; });
      if (failure) break;
      while (finished.count(written) > 0) {
        std::vector<record> records = std::move(finished[written].first);
        const std::vector<std::string> lines = std::move(finished[written].second);
        finished.erase(written);
        lock.unlock();
        if (evidence) evidence->append_unit(lines);
        if (results) results->append_unit(records);
        if (sqlmorph_logs) sqlmorph_logs->write_unit(lines, records);
        add_unit(units[written], records.data(), records.size());
        for (const record& r : records) {
          if (abort_reason.empty() && settings.on_script_error == script_error_policy::abort &&
              r.status == example_status::script_error) {
            abort_reason = "run stopped at example " + r.id + " (technique " + r.technique +
                           ") on a script error, as on_error = \"abort\" asks:\n" + r.error;
          }
        }
        count_unit(records);
        if (settings.on_unit) settings.on_unit(records);
        lock.lock();
        ++written;
        changed.notify_all();
        if (!abort_reason.empty()) break;
        // A stop asked while workers keep up with the writer must not wait for the queue to run
        // dry (it may never): units finished but not yet written are left to --resume.
        if (stop_asked()) break;
      }
      if (!abort_reason.empty()) break;
      if (stop_asked()) {
        out.stats.interrupted = true;
        break;
      }
      lock.unlock();
      progress.update(done_examples, error_examples);
      lock.lock();
    }
  } catch (...) {
    stop_workers();
    if (manifest) manifest->write("failed");
    throw;
  }
  stop_workers();
  progress.finish(done_examples, error_examples);
  if (failure) {
    if (manifest) manifest->write("failed");
    std::rethrow_exception(failure);
  }

  const auto& stats = shared.stats();
  out.stats.gold_executed = stats.gold_executed;
  out.stats.pred_executed = stats.pred_executed;
  out.stats.gold_from_disk = stats.gold_from_disk;
  out.stats.reused = stats.reused;
  out.stats.shared_answers = shared_answers;
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::debug("queries: {} gold executed, {} gold from the disk cache, {} predictions executed, {} reused",
                out.stats.gold_executed, out.stats.gold_from_disk, out.stats.pred_executed, out.stats.reused);

  const std::string status = !abort_reason.empty()   ? "aborted"
                             : out.stats.interrupted ? "interrupted"
                                                     : "complete";
  if (manifest) {
    manifest->data()["statistics"] = {{"units", out.stats.units},
                                      {"resumed_units", out.stats.resumed_units},
                                      {"written_units", written},
                                      {"workers", out.stats.workers},
                                      {"gold_executed", out.stats.gold_executed},
                                      {"gold_from_disk_cache", out.stats.gold_from_disk},
                                      {"pred_executed", out.stats.pred_executed},
                                      {"db_missing_queries", stats.db_missing.load()},
                                      {"reused", out.stats.reused},
                                      {"shared_answers", out.stats.shared_answers}};
    manifest->write(status);
  }
  if (!abort_reason.empty()) throw run_aborted(abort_reason);
  if (settings.out_dir && !out.stats.interrupted) {
    write_file_atomically(*settings.out_dir / "summary.json",
                          dump_json(out.summary.to_json(out.examples, out.wall_seconds), 2) + "\n");
  }
  // Missing databases: loud when they are all missing (a wrong --db-root scores everything 0), an
  // error with require_databases (for CI), after the outputs are written either way.
  if (out.stats.db_missing_examples > 0) {
    std::string names;
    std::size_t shown = 0;
    for (const auto& db : missing_databases) {
      if (shown++ == 10) {
        names += ", ...";
        break;
      }
      names += (names.empty() ? "" : ", ") + (db.empty() ? std::string("(no db_id)") : db);
    }
    const std::string what = std::to_string(out.stats.db_missing_examples) + " of " +
                             std::to_string(done_examples) +
                             " examples have no database (status db_missing: " + names + ")";
    if (settings.require_databases) throw usage_error(what + "; --require-databases makes that an error");
    if (out.stats.db_missing_examples == done_examples)
      spdlog::error("EVERY example's database is missing ({}): check --db-root or the cases' db paths",
                    names);
    else
      spdlog::warn("{}", what);
  }
  return out;
}

}  // namespace sqlmorph::core
