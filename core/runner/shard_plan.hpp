#pragma once
// How `eval --shard K/N` splits a run over N machines (Slurm array tasks, Kubernetes indexed jobs):
// a deterministic partition of the run's units (work_plan.hpp: all systems' answers to one question
// stay together), so that N shard runs evaluate every unit exactly once and `sqlmorph merge` can put
// them back together as the single-machine run.
//
// The partition keeps one database's units together where that balances (a shard then opens few
// databases) and balances an estimate of cost: the queries a unit executes (one gold query plus
// one per system) times a weight growing with the database file's size. A database bigger than a
// shard's share is cut into consecutive pieces. Pieces go, largest first, to the least loaded shard
// (ties: the lower shard index) — the same inputs and database files always give the same partition,
// whatever the machine (shards run against different copies of a database could disagree: merge
// then finds units missing or twice, and refuses).

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/example.hpp"
#include "runner/database_contents.hpp"
#include "runner/results_file.hpp"
#include "runner/work_plan.hpp"

namespace sqlmorph::core {

struct shard_spec {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// The most shards a run can be cut into.
inline constexpr std::size_t max_shards = 4096;

/// Parses "K/N" (0 <= K < N <= max_shards); throws usage_error naming the text otherwise.
shard_spec parse_shard_spec(const std::string& text);

/// The units shard `spec` evaluates, as indices into `units`, ascending.
std::vector<std::size_t> shard_units(const std::vector<example>& examples,
                                     const std::vector<work_unit>& units, shard_spec spec);

/// A digest of the lines a unit writes (their record keys, in order): what `merge` checks each
/// unit of a shard's results.jsonl against.
std::string unit_keys_digest(const std::vector<record_key>& keys);

/// What a shard run is, for its run.json ("shard"): the spec, the whole run's fingerprint, example
/// and unit counts, per unit of the shard [unit index, examples, keys digest], and the whole run's
/// database content hashes (which name the database when two shards' fingerprints differ).
struct shard_run {
  shard_spec spec;
  std::string run_fingerprint;
  database_hashes databases;
  std::size_t run_examples = 0;
  std::size_t run_units = 0;
  struct unit {
    std::size_t index = 0;
    std::size_t examples = 0;
    std::string keys_digest;
  };
  std::vector<unit> units;

  nlohmann::ordered_json to_json() const;
  /// Reads run.json's "shard"; throws input_error naming `where` when it is not well formed.
  static shard_run from_json(const nlohmann::json& j, const std::string& where);
};

struct evaluation_settings;

/// The examples shard `spec` evaluates (whole units, in the run's order), with what `merge` needs
/// recorded in settings.manifest["shard"]. `settings` must be complete (it fingerprints the whole run,
/// hashing every database of it through settings.content_hashes, made here when null).
std::vector<example> select_shard(const std::vector<example>& examples, shard_spec spec,
                                  evaluation_settings& settings);

}  // namespace sqlmorph::core
