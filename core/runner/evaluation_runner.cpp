#include "runner/evaluation_runner.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <optional>
#include <set>
#include <system_error>
#include <thread>

#include <spdlog/spdlog.h>

#include "config/run_values.hpp"
#include "errors.hpp"
#include "eval/example_evaluator.hpp"
#include "eval/record.hpp"
#include "judges/judge_panel.hpp"
#include "output/atomic_file.hpp"
#include "output/pretty_json.hpp"
#include "output/record_json.hpp"
#include "runner/content_hash.hpp"
#include "runner/gold_disk_cache.hpp"
#include "runner/run_outputs.hpp"
#include "runner/run_tally.hpp"
#include "runner/shared_query_cache.hpp"
#include "runner/unit_evaluation.hpp"
#include "runner/unit_worker_pool.hpp"
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

std::string run_fingerprint(const std::vector<example>& examples, const evaluation_settings& settings,
                            const database_hashes& databases) {
  field_digest digest;  // XXH3-128 (runner/content_hash.hpp)
  const auto add = [&](std::string_view s) { digest.add(s); };
  add(settings.routes->fingerprint());
  // The database files' contents (none on servers: their runs keep their fingerprints).
  for (const auto& [file, hash] : databases) {
    add("database " + file);
    add(hash);
  }
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

namespace {

// Missing databases: loud when they are all missing (a wrong --db-root scores everything 0), an
// error with require_databases (for CI), after the outputs are written either way.
void report_missing_databases(const run_tally& tally, bool required) {
  if (tally.db_missing_examples() == 0) return;
  std::string names;
  std::size_t shown = 0;
  for (const auto& db : tally.missing_databases()) {
    if (shown++ == 10) {
      names += ", ...";
      break;
    }
    names += (names.empty() ? "" : ", ") + (db.empty() ? std::string("(no db_id)") : db);
  }
  const std::string what = std::to_string(tally.db_missing_examples()) + " of " +
                           std::to_string(tally.done_examples()) +
                           " examples have no database (status db_missing: " + names + ")";
  if (required) throw usage_error(what + "; --require-databases makes that an error");
  if (tally.db_missing_examples() == tally.done_examples())
    spdlog::error("EVERY example's database is missing ({}): check --db-root or the cases' db paths", names);
  else
    spdlog::warn("{}", what);
}

// The gold results of server backends are not cached on disk: say so once.
void note_uncached_servers(const std::vector<example>& examples, const evaluation_settings& settings) {
  std::set<std::string> server_backends;
  for (const example& ex : examples) {
    for (const query_role role : {query_role::gold, query_role::pred}) {
      const configured_backend& b = settings.routes->for_role(ex, role);
      if (!b.file_targets()) server_backends.insert(b.name);
    }
  }
  if (!settings.cache_dir || server_backends.empty()) return;
  std::string names;
  for (const auto& n : server_backends) names += (names.empty() ? "" : ", ") + n;
  spdlog::info(
      "gold cache: results of {} are not cached on disk (a server database has no content hash to notice "
      "changes by)",
      names);
}

// summary.json of a finished run.
void write_summary(const evaluation_outcome& out, const std::filesystem::path& file, unsigned jobs) {
  const stopwatch summary_clock;
  std::string text;
  std::jthread freeing;  // (joined when it goes, whatever happens to the file)
  {
    nlohmann::ordered_json summary = out.summary.to_json(out.examples, out.wall_seconds, jobs);
    spdlog::debug("summary computed in {:.2f} s", summary_clock.elapsed_ms() / 1000);
    text = pretty_json(summary, 2, jobs) + "\n";
    spdlog::debug("summary formatted at {:.2f} s", summary_clock.elapsed_ms() / 1000);
    // The document has a node per number (millions in a run of many systems): it is freed on
    // another thread while the file is written (here, when the system refuses a thread).
    try {
      freeing = std::jthread([document = std::move(summary)]() mutable { document = nullptr; });
    } catch (const std::system_error&) {
    }
  }
  write_file_atomically(file, text);
  spdlog::debug("summary.json written in {:.2f} s", summary_clock.elapsed_ms() / 1000);
}

}  // namespace

evaluation_outcome run_evaluation(const std::vector<example>& examples, const evaluation_settings& settings) {
  const stopwatch run_clock;
  const std::vector<work_unit> units = settings.unit_sizes.empty()
                                           ? plan_work(examples)
                                           : consecutive_units(settings.unit_sizes, examples.size());
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
  note_uncached_servers(examples, settings);

  evaluation_outcome out;
  out.examples = examples.size();
  out.stats.units = units.size();
  out.stats.jobs = jobs;

  const std::shared_ptr<content_hash_memo> content_hashes =
      settings.content_hashes ? settings.content_hashes : std::make_shared<content_hash_memo>();
  run_outputs outputs(examples, units, settings, jobs, *content_hashes);
  const std::size_t per_example = techniques.size() + (settings.exact_match ? 1 : 0) + judges.size();
  run_tally tally(examples, per_example, out.summary);
  // Records already written count in the summary like new ones.
  const std::size_t first_unit = outputs.resumed_units();
  out.stats.resumed_units = first_unit;
  {
    const auto& resumed = outputs.resumed_records();
    std::size_t at = 0;
    for (std::size_t u = 0; u < first_unit && at < resumed.size(); ++u) {
      const std::size_t n =
          std::min(units[u].examples.size() * std::max<std::size_t>(1, per_example), resumed.size() - at);
      tally.add(units[u], resumed.data() + at, n);
      at += n;
    }
    if (first_unit > 0)
      spdlog::info("resuming after {} of {} units ({} examples)", first_unit, units.size(),
                   tally.done_examples());
  }

  std::unique_ptr<gold_disk_cache> disk;
  if (settings.cache_dir) disk = std::make_unique<gold_disk_cache>(*settings.cache_dir, content_hashes);
  shared_query_cache shared(settings.memory_cache_bytes);
  schema_cache schemas;
  std::atomic<std::uint64_t> shared_answers{0};
  std::atomic<std::uint64_t> shared_scores{0};
  interrupt_scope interrupts(settings.handle_signals);
  const auto stop_asked = [&] {
    return (settings.handle_signals && interrupt_requested) ||
           (settings.stop_requested && settings.stop_requested->load());
  };

  // Each worker: its own connections (through the shared cache), evaluator and judges.
  const bool keep_evidence = outputs.keeps_evidence();
  const bool keep_results = outputs.keeps_results();
  const connection_limits open_limits = connection_limits::for_workers(jobs);
  const auto make_worker = [&]() -> unit_worker_pool::unit_evaluator {
    auto queries = std::make_shared<worker_queries>(shared, disk.get(), settings.gold_limits,
                                                    settings.pred_limits, open_limits);
    auto evaluator = std::make_shared<example_evaluator>(*queries, techniques, settings.routes);
    evaluator->set_evidence_options(settings.evidence);
    auto panel = std::make_shared<judge_panel>(judges, settings.routes, schemas, settings.pred_limits);
    return [&, queries, evaluator, panel](std::size_t u) {
      finished_unit done;
      done.examples = units[u].examples.size();
      unit_sharing sharing;
      done.records = evaluate_unit(units[u], examples, *evaluator, techniques, sharing,
                                   judges.empty() ? nullptr : panel.get(), settings.exact_match.get(),
                                   keep_evidence ? &done.lines : nullptr);
      if (keep_results) done.results = format_results_unit(done.records);
      shared_answers += sharing.answers;
      shared_scores += sharing.scores;
      return done;
    };
  };
  // Workers take units in order, within the reorder window (unit_worker_pool.hpp); this thread writes.
  std::optional<unit_worker_pool> pool;
  try {
    pool.emplace(first_unit, units.size(), reorder_window{}, jobs, make_worker);
  } catch (...) {
    outputs.finish("failed");
    throw;
  }
  out.stats.workers = pool->workers();

  progress_reporter progress(settings.progress, examples.size(), tally.done_examples());
  const std::size_t resumed_examples = tally.done_examples();
  // Progress counts the examples the workers finished (the writer may be waiting for a slow one)
  // and names the example running longest once it has run for a while.
  const auto report_progress = [&] {
    std::string running;
    if (const auto longest = pool->longest_running(); longest && longest->second >= 2.0) {
      const example& ex = examples[units[longest->first].examples.front()];
      const example& last = examples[units[longest->first].examples.back()];
      const auto question = [](const example& e) { return e.item.empty() ? e.id : e.item; };
      running = question(ex) + (question(last) != question(ex) ? " and " + question(last) : "") +
                (ex.db_id.empty() ? "" : " (" + ex.db_id + ")") + " for " +
                std::to_string(static_cast<long>(longest->second)) + " s";
    }
    progress.update(resumed_examples + pool->finished_examples(), tally.failed_examples(), running);
  };
  std::string abort_reason;
  std::size_t written = first_unit;
  // Unit `written`, finished: to the files and the summary, in order.
  const auto write_unit = [&](const finished_unit& unit) {
    outputs.append_unit(unit.lines, unit.records, unit.results);
    tally.add(units[written], unit.records.data(), unit.records.size());
    for (const record& r : unit.records) {
      if (abort_reason.empty() && settings.on_script_error == script_error_policy::abort &&
          r.status == example_status::script_error) {
        abort_reason = "run stopped at example " + r.id + " (technique " + r.technique +
                       ") on a script error, as on_error = \"abort\" asks:\n" + r.error;
      }
    }
    if (settings.on_unit) settings.on_unit(unit.records);
    pool->written(++written);
  };
  try {
    while (written < units.size()) {
      std::optional<finished_unit> unit = pool->take(written, std::chrono::milliseconds(200));
      if (pool->failure()) break;
      while (unit) {
        write_unit(*unit);
        pool->discard(std::move(*unit));
        // A stop asked while workers keep up with the writer must not wait for the queue to run
        // dry (it may never): the workers stop taking units, then what they finished is written.
        if (!abort_reason.empty() || stop_asked() || written == units.size()) break;
        unit = pool->take(written, std::chrono::milliseconds(0));
      }
      if (!abort_reason.empty()) break;
      if (stop_asked()) {
        out.stats.interrupted = true;
        break;
      }
      report_progress();
    }
  } catch (...) {
    pool->stop();
    outputs.finish("failed");
    throw;
  }
  pool->stop();
  // Interrupted: the workers have finished the units in hand, so every unit they took is finished
  // (the reorder window may hold thousands behind a slow one): write them all, in order, so that
  // the run keeps what it finished and --resume goes on after it.
  if (out.stats.interrupted && abort_reason.empty() && !pool->failure()) {
    try {
      while (written < units.size()) {
        const std::optional<finished_unit> unit = pool->take(written, std::chrono::milliseconds(0));
        if (!unit) break;
        write_unit(*unit);
      }
    } catch (...) {
      outputs.finish("failed");
      throw;
    }
  }
  progress.finish(tally.done_examples(), tally.failed_examples());
  spdlog::debug("evaluated and written in {:.2f} s", run_clock.elapsed_ms() / 1000);
  if (const std::exception_ptr failure = pool->failure()) {
    outputs.finish("failed");
    std::rethrow_exception(failure);
  }

  const auto& stats = shared.stats();
  out.stats.gold_executed = stats.gold_executed;
  out.stats.pred_executed = stats.pred_executed;
  out.stats.gold_from_disk = stats.gold_from_disk;
  out.stats.reused = stats.reused;
  out.stats.shared_answers = shared_answers;
  out.stats.shared_scores = shared_scores;
  out.stats.db_missing_examples = tally.db_missing_examples();
  out.wall_seconds = run_clock.elapsed_ms() / 1000;
  spdlog::debug("queries: {} gold executed, {} gold from the disk cache, {} predictions executed, {} reused",
                out.stats.gold_executed, out.stats.gold_from_disk, out.stats.pred_executed, out.stats.reused);

  const std::string status = !abort_reason.empty()   ? "aborted"
                             : out.stats.interrupted ? "interrupted"
                                                     : "complete";
  const nlohmann::ordered_json statistics = {{"units", out.stats.units},
                                             {"resumed_units", out.stats.resumed_units},
                                             {"written_units", written},
                                             {"workers", out.stats.workers},
                                             {"gold_executed", out.stats.gold_executed},
                                             {"gold_from_disk_cache", out.stats.gold_from_disk},
                                             {"pred_executed", out.stats.pred_executed},
                                             {"db_missing_queries", stats.db_missing.load()},
                                             {"reused", out.stats.reused},
                                             {"shared_answers", out.stats.shared_answers},
                                             {"shared_scores", out.stats.shared_scores}};
  // "complete" only once every file of the run is written: summary.json first (a full disk then
  // leaves run.json saying "failed", not "complete" beside no summary).
  if (status == "complete" && settings.out_dir) {
    try {
      write_summary(out, *settings.out_dir / "summary.json", jobs);
    } catch (...) {
      outputs.finish("failed", statistics);
      throw;
    }
  }
  outputs.finish(status, statistics);
  if (!abort_reason.empty()) throw run_aborted(abort_reason);
  report_missing_databases(tally, settings.require_databases);
  return out;
}

}  // namespace sqlmorph::core
