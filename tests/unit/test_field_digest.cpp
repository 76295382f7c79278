// The persisted digests (a run's fingerprint, each unit's keys for merge, the gold cache's keys) are
// XXH3-128, a specified hash: checked against the published value of the empty input and against
// XXH3-128 of the same bytes computed here; fields are length-prefixed, so their boundaries count.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "runner/content_hash.hpp"

using sqlmorph::core::field_digest;
using sqlmorph::core::text_content_hash;

namespace {

std::string hex(XXH128_hash_t h) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

}  // namespace

TEST_CASE("text_content_hash is XXH3-128 (the published value of the empty input)") {
  CHECK(text_content_hash("") == "99aa06d3014798d86001c324468d497f");
  CHECK(text_content_hash("abc") == hex(XXH3_128bits("abc", 3)));
}

TEST_CASE("field_digest: XXH3-128 of the fields, each after its length as 8 little-endian bytes") {
  field_digest d;
  d.add("ab");
  d.add("");
  d.add("c");
  const std::string bytes =
      std::string("\x02\0\0\0\0\0\0\0ab", 10) + std::string(8, '\0') + std::string("\x01\0\0\0\0\0\0\0c", 9);
  CHECK(d.hex() == hex(XXH3_128bits(bytes.data(), bytes.size())));
  // The boundaries between fields count.
  field_digest a, b;
  a.add("ab");
  a.add("c");
  b.add("a");
  b.add("bc");
  CHECK(a.hex() != b.hex());
  CHECK(a.hex().size() == 32);
}
