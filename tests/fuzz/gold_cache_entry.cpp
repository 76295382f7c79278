// The gold cache's entry reader (read_cache_entry): any bytes end in an outcome or a problem —
// never an abort, nor an allocation sized by a count the bytes cannot hold — and an outcome read
// back is written back to the very same bytes (the format has one spelling per outcome).

#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "runner/gold_disk_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sqlmorph;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const core::cache_entry_reading r = core::read_cache_entry(bytes, fuzz::gold_cache_key);
  if (r.outcome) {
    fuzz::require(r.problem.empty(), "an entry read has no problem");
    fuzz::require(core::cache_entry_bytes(fuzz::gold_cache_key, *r.outcome) == bytes,
                  "an outcome read back is written back to the same bytes");
  } else {
    fuzz::require(!r.problem.empty(), "an entry not read says why");
  }
  return 0;
}
