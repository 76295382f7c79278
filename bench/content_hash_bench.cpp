// The gold cache's price for never serving stale results (issue 11, defect 7): every database a run
// touches is hashed once per run (XXH3-128 over all its bytes, runner/content_hash.hpp). Measured on
// the Spider dev databases and on a 256 MiB file (to project a 1 GB BIRD database), next to the
// floor: reading the same bytes without hashing (the page cache warm in both).
//
//   content_hash_bench [SHARED_DIR]

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "bench_util.hpp"
#include "runner/content_hash.hpp"

namespace fs = std::filesystem;
using namespace sqlmorph;

namespace {

// The floor: the same reads, no hashing.
std::size_t read_all(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  std::vector<char> chunk(1 << 20);
  std::size_t total = 0;
  for (ssize_t n; (n = ::read(fd, chunk.data(), chunk.size())) > 0;) total += static_cast<std::size_t>(n);
  ::close(fd);
  return total;
}

void compare(const char* what, const std::vector<fs::path>& files, std::uintmax_t bytes, int runs) {
  volatile std::size_t sink = 0;
  const bench::timing floor = bench::measure(runs, [&] {
    for (const auto& f : files) sink = sink + read_all(f);
  });
  const bench::timing hashed = bench::measure(runs, [&] {
    for (const auto& f : files) sink = sink + core::file_content_hash(f).size();
  });
  std::printf("%s: %zu files, %.1f MB\n", what, files.size(), static_cast<double>(bytes) / 1e6);
  std::printf("  floor (read only)  %s\n", bench::format(floor).c_str());
  std::printf("  XXH3-128 hash      %s\n", bench::format(hashed).c_str());
  std::printf("  hash / floor (median) %.2fx, %.2f GB/s\n\n", hashed.median_ms / floor.median_ms,
              static_cast<double>(bytes) / 1e6 / hashed.median_ms);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path shared = argc > 1 ? argv[1] : SQLMORPH_BENCH_SHARED_DIR;
  const fs::path databases = shared / "benchmarks/spider-dev/database";
  bench::header("database content hash of the gold cache (issue 11, defect 7)");
  if (fs::is_directory(databases)) {
    std::vector<fs::path> files;
    std::uintmax_t bytes = 0;
    for (const auto& d : fs::directory_iterator(databases)) {
      const auto f = d.path() / (d.path().filename().string() + ".sqlite");
      if (fs::is_regular_file(f)) {
        files.push_back(f);
        bytes += fs::file_size(f);
      }
    }
    compare("Spider dev databases, each hashed once (what a run pays)", files, bytes, 50);
  } else {
    std::printf("SKIPPED Spider dev: %s not found\n\n", databases.c_str());
  }
  const fs::path big = fs::temp_directory_path() / "sqlmorph-hash-bench.bin";
  {
    std::ofstream out(big, std::ios::binary | std::ios::trunc);
    std::vector<char> block(1 << 20);
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>((i * 2654435761u) >> 13);
    for (int i = 0; i < 256; ++i) out.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  compare("one 256 MiB file (x4 for a 1 GB BIRD database)", {big}, fs::file_size(big), 5);
  fs::remove(big);
  return 0;
}
