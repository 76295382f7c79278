#pragma once
// The files a run writes and resumes: the output folder (locked), run.json, examples.jsonl,
// results.jsonl and SQLMorph's log files. Opening checks that a folder holding a run is resumed or
// replaced on purpose, and keeps, with resume, the units already complete in both files.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/example.hpp"
#include "eval/record.hpp"
#include "output/sqlmorph_logs.hpp"
#include "runner/evaluation_runner.hpp"
#include "runner/examples_file.hpp"
#include "runner/output_lock.hpp"
#include "runner/results_file.hpp"
#include "runner/run_manifest.hpp"
#include "runner/work_plan.hpp"

namespace sqlmorph::core {

class run_outputs {
 public:
  /// Opens what `settings` asks for (nothing but SQLMorph's logs without an output folder) and
  /// writes run.json as "running" (with `jobs` workers requested; the databases hashed through
  /// `hashes` for the fingerprint). Throws usage_error for a folder that cannot be created, is
  /// locked, holds another run, holds a run made differently or on other database contents, or —
  /// with resume — holds results without a readable run.json.
  run_outputs(const std::vector<example>& examples, const std::vector<work_unit>& units,
              const evaluation_settings& settings, unsigned jobs, content_hash_memo& hashes);

  /// Units (and their records) already in results.jsonl and examples.jsonl, with resume.
  std::size_t resumed_units() const noexcept;
  const std::vector<record>& resumed_records() const;
  /// Whether examples.jsonl is written (workers then make its lines).
  bool keeps_evidence() const noexcept { return evidence_ != nullptr; }
  /// Whether results.jsonl is written (workers then format its lines: format_results_unit).
  bool keeps_results() const noexcept { return results_ != nullptr; }

  /// One unit, in order: its evidence lines first, then its records (`text`: their lines, when
  /// keeps_results()).
  void append_unit(const std::vector<std::string>& lines, const std::vector<record>& records,
                   const results_unit_text& text);
  /// run.json's final state: "complete", "interrupted", "aborted" or "failed", with the statistics.
  void finish(const std::string& status, const nlohmann::ordered_json& statistics = nullptr);

 private:
  std::unique_ptr<output_lock> lock_;
  std::unique_ptr<examples_file> evidence_;
  std::unique_ptr<results_file> results_;
  std::unique_ptr<run_manifest> manifest_;
  std::unique_ptr<sqlmorph_log_writer> sqlmorph_logs_;
};

}  // namespace sqlmorph::core
