#pragma once
// What the fuzz targets share: a private scratch folder (for readers that take file paths), and
// the rule that an input may only end in the error a reader documents — anything else (another
// exception, a sanitizer report, a failed invariant) is a finding.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace sqlmorph::fuzz {

/// A folder of this process, created on first use.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "sqlmorph-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    return std::filesystem::path(pattern);
  }();
  return dir;
}

/// Writes `bytes` to scratch_dir()/name and returns the path.
inline std::filesystem::path scratch_file(const std::string& name, std::string_view bytes) {
  const auto file = scratch_dir() / name;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return file;
}

/// Stops the process with a message: an invariant does not hold for this input.
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

inline void require(bool condition, const char* what) {
  if (!condition) fail(what);
}

/// The key the gold_cache_entry target reads entries under (make_seeds writes its seeds with it).
inline constexpr std::string_view gold_cache_key = "sqlite\n0123456789abcdef0123456789abcdef\nSELECT 1";

/// The parts of the run_files target's input, in order, separated by NUL bytes.
inline constexpr const char* run_file_names[] = {"run.json", "results.jsonl", "results.jsonl.check",
                                                 "examples.jsonl"};

}  // namespace sqlmorph::fuzz
