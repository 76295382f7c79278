#pragma once
// One run at a time per output folder: a run holds an exclusive flock on OUT/run.lock, which names
// it (pid, host, start). A second run into the same folder — which would interleave or duplicate
// every record of results.jsonl — stops at once with exit 2, naming the holder. The lock goes with
// the process (flock), so a killed run never leaves the folder locked; the file stays, harmless.

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

}  // namespace sqlmorph::core
