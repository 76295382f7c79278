#include "runner/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "errors.hpp"

namespace sqlmorph::core {

progress_mode parse_progress_mode(const std::string& text) {
  if (text == "auto") return progress_mode::automatic;
  if (text == "bar") return progress_mode::bar;
  if (text == "lines") return progress_mode::lines;
  if (text == "none") return progress_mode::none;
  throw usage_error("--progress must be auto, bar, lines or none, not '" + text + "'");
}

progress_reporter::progress_reporter(progress_mode mode, std::size_t total, std::size_t already_done)
    : mode_(mode),
      total_(total),
      start_done_(already_done),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {
  if (mode_ == progress_mode::automatic)
    mode_ = ::isatty(STDERR_FILENO) ? progress_mode::bar : progress_mode::lines;
}

std::string progress_reporter::line(std::size_t done, std::size_t errors, const std::string& running) const {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done - start_done_) / seconds : 0.0;
  const double percent = total_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 100.0;
  char eta[32] = "?";
  if (rate > 0 && done <= total_) {
    const auto left = static_cast<long>(static_cast<double>(total_ - done) / rate);
    std::snprintf(eta, sizeof eta, "%ld:%02ld", left / 60, left % 60);
  }
  char buf[256];
  if (mode_ == progress_mode::bar) {
    constexpr int width = 24;
    const int filled = static_cast<int>(percent / 100.0 * width);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    // The line is cleared to its end (\x1b[K): a shorter one must not leave the end of the last.
    std::snprintf(buf, sizeof buf, "\r[%s] %zu/%zu examples %5.1f%%  %.1f/s  ETA %s  errors %zu%s%s\x1b[K",
                  bar.c_str(), done, total_, percent, rate, eta, errors,
                  running.empty() ? "" : "  running: ", running.c_str());
  } else {
    std::snprintf(buf, sizeof buf,
                  "progress: %zu/%zu examples (%.1f%%), %.1f/s, ETA %s, %zu with errors%s%s\n", done, total_,
                  percent, rate, eta, errors, running.empty() ? "" : ", running: ", running.c_str());
  }
  return buf;
}

void progress_reporter::update(std::size_t done, std::size_t errors, const std::string& running) {
  if (mode_ == progress_mode::none) return;
  const auto now = std::chrono::steady_clock::now();
  const auto every =
      mode_ == progress_mode::bar ? std::chrono::milliseconds(200) : std::chrono::milliseconds(10000);
  if (now - last_ < every) return;
  last_ = now;
  std::fputs(line(done, errors, running).c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void progress_reporter::finish(std::size_t done, std::size_t errors) {
  if (mode_ == progress_mode::none) return;
  if (mode_ == progress_mode::bar && !drawn_) return;  // a run too short to need a bar
  std::fputs(line(done, errors).c_str(), stderr);
  if (mode_ == progress_mode::bar) std::fputs("\n", stderr);
}

}  // namespace sqlmorph::core
