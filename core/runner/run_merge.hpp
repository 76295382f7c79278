#pragma once
// `sqlmorph merge`: the shard runs of one `eval --shard K/N` command put back together as the
// single-machine run. Every shard must belong to the same run (run.json's whole-run fingerprint,
// which covers the database files' contents; its counts are checked against each other and against
// what the files list before they size anything), every unit must be present exactly once (a complete unit
// whose lines match the keys digest its shard recorded and the checksum of results.jsonl.check); otherwise
// nothing is written and the error lists the missing or duplicated units. results.jsonl is the shards' lines
// in the run's unit order — byte for byte what one machine writes, timings aside — and summary.json and
// run.json are built from them. The output folder is locked as a run locks it (output_lock.hpp), and no shard
// is read while a run writes to it.

#include <filesystem>
#include <vector>

#include "output/run_summary.hpp"

namespace sqlmorph::core {

struct merge_outcome {
  run_summary summary;
  std::size_t examples = 0;
  std::size_t units = 0;
  std::size_t shards = 0;
  /// The longest shard's wall time (the shards ran side by side).
  double wall_seconds = 0;
};

/// Merges the shard folders into `out`. A folder already holding results refuses unless `overwrite`.
/// Throws input_error (not the same run, missing or duplicated units, unreadable files) or
/// usage_error (the output folder).
merge_outcome merge_shards(const std::vector<std::filesystem::path>& shard_dirs,
                           const std::filesystem::path& out, bool overwrite);

}  // namespace sqlmorph::core
