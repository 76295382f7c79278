#pragma once
// One run at a time per output folder: a run holds an exclusive flock on OUT/run.lock, which names
// it (pid, host, start). A second run into the same folder — which would interleave or duplicate
// every record of results.jsonl — stops at once with exit 2, naming the holder. The lock goes with
// the process (flock), so a killed run never leaves the folder locked; the file stays, harmless.
// `merge` takes the same lock on its output folder, and a shared one on each shard folder while it
// reads it (refused while a run writes there).

#include <filesystem>

namespace sqlmorph::core {

class output_lock {
 public:
  /// Locks `dir` (which must exist). Throws usage_error naming the holder when another process has it.
  explicit output_lock(const std::filesystem::path& dir);
  ~output_lock();
  output_lock(const output_lock&) = delete;
  output_lock& operator=(const output_lock&) = delete;

 private:
  int fd_ = -1;
};

/// A shared lock on a run's folder while it is read, so that no run writes there meanwhile. A folder
/// without run.lock (no run wrote it) needs none; nothing is written.
class output_read_lock {
 public:
  /// Throws usage_error naming the holder when a run is writing to `dir`.
  explicit output_read_lock(const std::filesystem::path& dir);
  ~output_read_lock();
  output_read_lock(const output_read_lock&) = delete;
  output_read_lock& operator=(const output_read_lock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace sqlmorph::core
