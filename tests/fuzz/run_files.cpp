// What `merge` and `--resume` read of a run folder: run.json (its "shard" object, fingerprint and
// database hashes), results.jsonl with results.jsonl.check, examples.jsonl. The input is those files
// separated by NUL bytes (fuzz_support.hpp: run_file_names; a part not given is absent). Any bytes
// end in a merge, or an input_error / usage_error naming a file; the resume readers keep a prefix of
// whole units and never throw on damaged content.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "errors.hpp"
#include "fuzz_support.hpp"
#include "runner/examples_file.hpp"
#include "runner/results_file.hpp"
#include "runner/run_manifest.hpp"
#include "runner/run_merge.hpp"

namespace {

using namespace sqlmorph;

// The folder of one input: its parts written, the absent ones removed.
std::filesystem::path write_folder(std::string_view input) {
  const auto dir = fuzz::scratch_dir() / "shard";
  std::filesystem::create_directories(dir);
  std::size_t from = 0;
  for (const char* name : fuzz::run_file_names) {
    if (from > input.size()) {
      std::filesystem::remove(dir / name);
      continue;
    }
    const std::size_t end = std::min(input.find('\0', from), input.size());
    std::ofstream(dir / name, std::ios::binary | std::ios::trunc)
        .write(input.data() + from, static_cast<std::streamsize>(end - from));
    from = end + 1;
  }
  return dir;
}

// What --resume reads: the units expected are those the seeds hold (make_seeds), two lines a unit.
void resume_readers(const std::filesystem::path& dir) {
  const core::run_manifest::previous_run previous = core::run_manifest::read_previous(dir / "run.json");
  fuzz::require(previous.problem.empty() != previous.fingerprint.empty(),
                "run.json gives a fingerprint or says what is wrong");
  const std::size_t units = 3;
  core::examples_file evidence(dir / "examples.jsonl", true, units, [](std::size_t u) {
    return std::vector<std::pair<std::string, std::string>>{{"q" + std::to_string(u), "a"}};
  });
  fuzz::require(evidence.complete_units() <= units, "no more units than expected");
  core::results_file results(dir / "results.jsonl", true, units, [](std::size_t u) {
    const std::string id = "q" + std::to_string(u);
    return std::vector<core::record_key>{{id, "a", "execution_accuracy", std::nullopt},
                                         {id, "a", "exact_column_and_partial_cell", std::nullopt}};
  });
  fuzz::require(results.resumed_units() <= units, "no more units than expected");
  fuzz::require(results.resumed_records().size() == 2 * results.resumed_units(), "two records a unit");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto dir = write_folder(input);
  try {
    const core::merge_outcome merged = core::merge_shards({dir}, fuzz::scratch_dir() / "merged", true);
    fuzz::require(merged.shards == 1, "one shard merged");
  } catch (const core::usage_error& e) {  // input_error included
    fuzz::require(std::string_view(e.what()).find(fuzz::scratch_dir().string()) != std::string_view::npos,
                  "a merge error names the file or folder");
  }
  // The resume readers rewrite (cut) the files they keep a prefix of: they go last.
  resume_readers(dir);
  return 0;
}
