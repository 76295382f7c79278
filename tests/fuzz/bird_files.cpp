// BIRD's question and prediction files: the input is "QUESTIONS\0PREDICTIONS" (without a NUL byte,
// it is both).

#include <cstddef>
#include <cstdint>

#include "datasets/bird_files.hpp"
#include "errors.hpp"
#include "fuzz_support.hpp"
#include "log/log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  static const bool quiet = (core::setup_logging(-1), true);  // no warning per input
  (void)quiet;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = text.find('\0');
  const std::string_view questions = nul == std::string_view::npos ? text : text.substr(0, nul);
  const std::string_view predictions = nul == std::string_view::npos ? text : text.substr(nul + 1);
  try {
    const auto examples = core::read_bird_files({fuzz::scratch_file("questions.json", questions),
                                                 fuzz::scratch_file("predictions.json", predictions),
                                                 fuzz::scratch_dir() / "db", std::string("sys")});
    for (const auto& ex : examples)
      fuzz::require(ex.pred_missing || !ex.db.empty(), "examples have a database");
  } catch (const core::usage_error&) {
  }
  return 0;
}
