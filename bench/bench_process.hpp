#pragma once
// Running a command for a benchmark: wall time, processor time and peak resident memory of the
// child.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sqlmorph::bench {

struct process_run {
  int exit_code = -1;
  double seconds = 0;
  double cpu_seconds = 0;  // user + system, every thread
  long peak_rss_kb = 0;
};

/// Runs `args` (argv[0] is the program), stdout and stderr discarded.
inline process_run run_process(const std::vector<std::string>& args) {
  std::fflush(stdout);
  std::fflush(stderr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (std::freopen("/dev/null", "w", stdout) == nullptr ||
        std::freopen("/dev/null", "w", stderr) == nullptr)
      ::_exit(127);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  process_run r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.peak_rss_kb = usage.ru_maxrss;
  const auto seconds_of = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  r.cpu_seconds = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  return r;
}

/// `sqlmorph --config <source>/sqlmorph.toml -q eval --benchmark spider` on Spider dev (`spider`:
/// its folder), then `options`, then `--pred NAME=FILE` for each system.
inline std::vector<std::string> spider_eval_args(
    const std::filesystem::path& spider, const std::vector<std::string>& options,
    const std::vector<std::pair<std::string, std::filesystem::path>>& systems = {}) {
  std::vector<std::string> args = {SQLMORPH_BENCH_BINARY,
                                   "--config",
                                   std::string(SQLMORPH_BENCH_SOURCE_DIR) + "/sqlmorph.toml",
                                   "-q",
                                   "eval",
                                   "--benchmark",
                                   "spider",
                                   "--gold",
                                   (spider / "dev_gold.sql").string(),
                                   "--db-root",
                                   (spider / "database").string()};
  args.insert(args.end(), options.begin(), options.end());
  for (const auto& [name, file] : systems) {
    args.push_back("--pred");
    args.push_back(name + "=" + file.string());
  }
  return args;
}

}  // namespace sqlmorph::bench
