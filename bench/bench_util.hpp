#pragma once
// Timing helpers for the benchmarks: run a function several times, report min / median / max,
// and describe the machine next to every figure (PERF.md: "how to measure honestly").

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace sqlmorph::bench {

struct timing {
  double min_ms = 0;
  double median_ms = 0;
  double max_ms = 0;
  int runs = 0;
};

/// Runs `f` `runs` times (after one warm-up run unless `warmup` is false) and returns the spread.
inline timing measure(int runs, const std::function<void()>& f, bool warmup = true) {
  if (warmup) f();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2], ms.back(), runs};
}

inline std::string format(const timing& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "min %10.3f ms  median %10.3f ms  max %10.3f ms  (%d runs)", t.min_ms,
                t.median_ms, t.max_ms, t.runs);
  return buf;
}

inline std::string machine() {
  std::string cpu = "unknown CPU";
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

inline void header(const char* title) {
  std::printf("%s\nmachine: %s\n\n", title, machine().c_str());
}

}  // namespace sqlmorph::bench
