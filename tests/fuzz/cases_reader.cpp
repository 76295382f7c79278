// The JSONL cases reader: any bytes end in examples or a usage_error naming the line.

#include <cstddef>
#include <cstdint>

#include "datasets/cases_file.hpp"
#include "errors.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto lines = core::line_reader::from_text(text, "cases.jsonl", {4096, 1 << 20});
    const auto examples = core::read_cases(lines, "/dbs");
    fuzz::require(!examples.empty(), "a cases file read without error has cases");
    for (const auto& ex : examples) fuzz::require(!ex.id.empty(), "every case has an id");
  } catch (const core::usage_error& e) {
    fuzz::require(std::string_view(e.what()).rfind("cases.jsonl", 0) == 0, "the error names the file");
  }
  return 0;
}
