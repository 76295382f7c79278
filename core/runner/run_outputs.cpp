#include "runner/run_outputs.hpp"

#include <filesystem>

#include <spdlog/spdlog.h>

#include <sqlmorph/version.hpp>

#include "errors.hpp"
#include "runner/unit_evaluation.hpp"

namespace sqlmorph::core {
namespace {

nlohmann::ordered_json limits_json(const exec_limits& l) {
  return {{"timeout_seconds", l.timeout_seconds}, {"max_rows", l.max_rows}, {"max_bytes", l.max_bytes}};
}

// What run.json says about the run's settings and techniques.
void describe_run(nlohmann::ordered_json& m, const std::vector<example>& examples,
                  const evaluation_settings& settings, unsigned jobs) {
  m["sqlmorph"] = SQLMORPH_VERSION_STRING;
  for (const auto& [key, v] : settings.manifest.items()) m[key] = v;
  m["machine"] = machine_description();
  m["settings"] = {
      {"jobs", jobs},
      {"backends", settings.routes->describe()},
      {"gold_limits", limits_json(settings.gold_limits)},
      {"pred_limits", limits_json(settings.pred_limits)},
      {"cache", settings.cache_dir ? nlohmann::ordered_json(settings.cache_dir->string()) : nullptr},
      {"resume", settings.resume}};
  m["techniques"] = nlohmann::ordered_json::array();
  for (const auto& t : settings.techniques) {
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
  if (!settings.judges.empty()) m["judges"] = describe_judges(settings.judges);
  m["examples"] = examples.size();
}

// Whether the folder holds records of a run: a non-empty results.jsonl or examples.jsonl.
bool holds_records(const std::filesystem::path& dir) {
  for (const char* name : {"results.jsonl", "examples.jsonl"}) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(dir / name, ec);
    if (!ec && size > 0) return true;
  }
  return false;
}

// --resume continues only the same run, on the same database contents, and only when run.json says
// which run the folder holds (without it, records of another command could be kept).
void check_resumable(const std::filesystem::path& dir, const std::string& fingerprint,
                     const database_hashes& databases) {
  const auto manifest_file = dir / "run.json";
  const run_manifest::previous_run previous = run_manifest::read_previous(manifest_file);
  if (!previous.problem.empty()) {
    if (!holds_records(dir)) return;  // nothing to keep: the run starts from the beginning
    throw usage_error("cannot resume the run in " + dir.string() + ": its run.json " + previous.problem +
                      ", so nothing says the results there were made by this command; start over without "
                      "--resume and with --overwrite (which replaces them), or choose another --out");
  }
  if (previous.fingerprint == fingerprint) return;
  const std::string changed = previous.databases ? changed_database(*previous.databases, databases) : "";
  if (!changed.empty())
    throw usage_error("cannot resume the run in " + dir.string() + ": a database changed since it began: " +
                      changed + "; start over with --overwrite, or restore the database");
  throw usage_error("cannot resume the run in " + dir.string() +
                    ": it was made with other examples, techniques, limits, backend or database contents "
                    "(run.json fingerprint " +
                    previous.fingerprint + ", this run " + fingerprint + ")");
}

}  // namespace

run_outputs::run_outputs(const std::vector<example>& examples, const std::vector<work_unit>& units,
                         const evaluation_settings& settings, unsigned jobs, content_hash_memo& hashes) {
  if (settings.sqlmorph_logs) sqlmorph_logs_ = std::make_unique<sqlmorph_log_writer>(*settings.sqlmorph_logs);
  if (!settings.out_dir) return;
  const std::filesystem::path& dir = *settings.out_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw usage_error("cannot create output directory " + dir.string() + ": " + ec.message());
  lock_ = std::make_unique<output_lock>(dir);
  const database_hashes databases = database_contents(examples, *settings.routes, hashes);
  const std::string fingerprint = run_fingerprint(examples, settings, databases);
  const auto manifest_file = dir / "run.json";
  // A folder holding a run is continued (--resume) or replaced (--overwrite), never silently
  // started over: that would throw away what an interrupted run had finished.
  if (!settings.resume && !settings.overwrite) {
    if (holds_records(dir) || std::filesystem::exists(manifest_file, ec)) {
      throw usage_error(dir.string() +
                        " already holds a run; pass --resume to continue it, --overwrite to replace it, or "
                        "choose another --out");
    }
  }
  if (settings.resume) check_resumable(dir, fingerprint, databases);
  // examples.jsonl first: results.jsonl resumes no further than the evidence of its units.
  evidence_ = std::make_unique<examples_file>(dir / "examples.jsonl", settings.resume, units.size(),
                                              [&](std::size_t u) {
                                                std::vector<std::pair<std::string, std::string>> ids;
                                                for (const std::size_t i : units[u].examples)
                                                  ids.emplace_back(examples[i].id, examples[i].system);
                                                return ids;
                                              });
  if (settings.resume && evidence_->complete_units() == 0 &&
      std::filesystem::exists(dir / "results.jsonl", ec))
    spdlog::warn("resume: {} holds no complete unit: every unit is evaluated again",
                 (dir / "examples.jsonl").string());
  results_ = std::make_unique<results_file>(
      dir / "results.jsonl", settings.resume, settings.resume ? evidence_->complete_units() : units.size(),
      [&](std::size_t u) {
        return unit_record_keys(units[u], examples, settings.techniques, settings.exact_match != nullptr,
                                settings.judges);
      });
  evidence_->keep_units(results_->resumed_units());
  manifest_ = std::make_unique<run_manifest>(manifest_file, fingerprint);
  describe_run(manifest_->data(), examples, settings, jobs);
  manifest_->data()["database_hashes"] = database_hashes_json(databases);
  manifest_->write("running");
}

std::size_t run_outputs::resumed_units() const noexcept {
  return results_ ? results_->resumed_units() : 0;
}

const std::vector<record>& run_outputs::resumed_records() const {
  static const std::vector<record> none;
  return results_ ? results_->resumed_records() : none;
}

void run_outputs::append_unit(const std::vector<std::string>& lines, const std::vector<record>& records,
                              const results_unit_text& text) {
  if (evidence_) evidence_->append_unit(lines);
  if (results_) results_->append_unit(text);
  if (sqlmorph_logs_) sqlmorph_logs_->write_unit(lines, records);
}

void run_outputs::finish(const std::string& status, const nlohmann::ordered_json& statistics) {
  if (!manifest_) return;
  if (!statistics.is_null()) manifest_->data()["statistics"] = statistics;
  manifest_->write(status);
}

}  // namespace sqlmorph::core
