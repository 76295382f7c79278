#pragma once
// run.json: what a run was — the command, the effective settings, versions, plugin fingerprints,
// techniques and their components, the machine, start and end — and its fingerprint (inputs +
// techniques + limits), which --resume checks before continuing a run.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/database_contents.hpp"

namespace sqlmorph::core {

class run_manifest {
 public:
  /// Starts a manifest; `fingerprint` identifies what the run computes.
  run_manifest(std::filesystem::path file, std::string fingerprint);
  /// The data is left to the process's exit when it asked (app/exit_memory.hpp).
  ~run_manifest();
  run_manifest(const run_manifest&) = delete;
  run_manifest& operator=(const run_manifest&) = delete;

  nlohmann::ordered_json& data() noexcept { return data_; }

  /// What --resume checks of the run already in a folder: its run.json's fingerprint and database
  /// hashes, or why they cannot be read.
  struct previous_run {
    std::string fingerprint;
    /// run.json's "database_hashes" (absent in runs of sqlmorph before they were recorded).
    std::optional<database_hashes> databases;
    /// Empty when read; else what is wrong ("is missing", "is empty", "is not JSON: ...", ...).
    std::string problem;
  };
  static previous_run read_previous(const std::filesystem::path& file);

  /// Writes the manifest with `status` ("running", "complete", "interrupted", "aborted").
  void write(const std::string& status);

 private:
  std::filesystem::path file_;
  nlohmann::ordered_json data_;
  std::chrono::system_clock::time_point started_;
};

/// A description of the machine (host, CPU model, hardware threads).
nlohmann::ordered_json machine_description();

/// The current time as ISO 8601 (UTC).
std::string iso_time(std::chrono::system_clock::time_point t);

}  // namespace sqlmorph::core
