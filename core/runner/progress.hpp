#pragma once
// Progress of a run on stderr: a bar redrawn in place on a terminal (examples done / total, rate,
// ETA, examples with errors so far), a plain line every few seconds otherwise, nothing when quiet.

#include <chrono>
#include <cstddef>
#include <string>

namespace sqlmorph::core {

enum class progress_mode { automatic, bar, lines, none };

/// Parses "auto", "bar", "lines" or "none"; throws usage_error otherwise.
progress_mode parse_progress_mode(const std::string& text);

class progress_reporter {
 public:
  progress_reporter(progress_mode mode, std::size_t total, std::size_t already_done);

  /// Reports (if it is time to) that `done` examples of the total are finished, `errors` of them
  /// with a failed query or script; `running`, when not empty, names the example running longest.
  void update(std::size_t done, std::size_t errors, const std::string& running = "");
  /// Final report. Does not clear the bar: it redraws it with these counts and ends its line, so it
  /// stays on screen (nothing when no bar was drawn, a run too short to need one); prints one last
  /// line in `lines` mode; nothing in `none` mode.
  void finish(std::size_t done, std::size_t errors);

 private:
  std::string line(std::size_t done, std::size_t errors, const std::string& running = "") const;

  progress_mode mode_;
  std::size_t total_;
  std::size_t start_done_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  bool drawn_ = false;
};

}  // namespace sqlmorph::core
