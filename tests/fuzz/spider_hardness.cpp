// The official-hardness SQL parser (core/datasets/spider_hardness.cpp): any SQL gets a level, or
// none when the official grammar does not take it — never an exception or a sanitizer report.

#include <cstddef>
#include <cstdint>

#include "datasets/spider_hardness.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  const std::string level = sqlmorph::core::spider_hardness(sql);
  sqlmorph::fuzz::require(
      level.empty() || level == "easy" || level == "medium" || level == "hard" || level == "extra",
      "a difficulty is one of the four levels, or unknown");
  return 0;
}
