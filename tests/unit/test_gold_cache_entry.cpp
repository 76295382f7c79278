// The gold cache's entry format (runner/gold_disk_cache.hpp): what the writer writes reads back the
// same, and a damaged entry is refused with a reason — a count beyond the bytes left never sizes an
// allocation (issue 38.6), and each outcome has one spelling (found by the gold_cache_entry fuzz
// target: a "truncated" byte other than 0 or 1 was read as 1, so the entry meant what another did).

#include <doctest/doctest.h>

#include <cstring>

#include "runner/gold_disk_cache.hpp"

using namespace sqlmorph;

namespace {

constexpr std::string_view key = "sqlite\nhash\nSELECT 7";

query_outcome one_cell(std::int64_t v) {
  query_outcome o;
  o.rows.set_columns({"7"}, {"INTEGER"});
  o.rows.append_integer(v);
  return o;
}

}  // namespace

TEST_CASE("a gold-cache entry reads back as written") {
  const std::string bytes = core::cache_entry_bytes(key, one_cell(7));
  const core::cache_entry_reading r = core::read_cache_entry(bytes, key);
  REQUIRE(r.outcome);
  CHECK(r.problem.empty());
  CHECK(r.outcome->rows.row_count() == 1);
  CHECK(r.outcome->rows.cells()[0].as_integer() == 7);
  CHECK(core::read_cache_entry(bytes, "sqlite\nhash\nSELECT 8").problem == "holds another query's result");
}

TEST_CASE("a gold-cache entry with a count beyond its bytes is refused, not allocated") {
  const std::string good = core::cache_entry_bytes(key, one_cell(7));
  // The cell count is 8 bytes before the one cell (its kind, 8 bytes); the key length comes first.
  for (const std::uint64_t count : {std::uint64_t{1} << 44, ~std::uint64_t{0}, std::uint64_t{2}}) {
    CAPTURE(count);
    std::string bad = good;
    std::memcpy(bad.data() + bad.size() - 17, &count, 8);
    const core::cache_entry_reading r = core::read_cache_entry(bad, key);
    CHECK_FALSE(r.outcome);
    CHECK(r.problem == "its result is cut short or damaged");
  }
  std::string huge_key = good;
  const std::uint64_t key_size = ~std::uint64_t{0};
  std::memcpy(huge_key.data(), &key_size, 8);
  CHECK(core::read_cache_entry(huge_key, key).problem == "cut short inside its key");
  CHECK(core::read_cache_entry(good.substr(0, 5), key).problem == "cut short inside its key");
  CHECK_FALSE(core::read_cache_entry(good.substr(0, good.size() - 1), key).outcome);
}

TEST_CASE("a gold-cache entry has one spelling per outcome: its truncated flag is 0 or 1") {
  query_outcome o = one_cell(7);
  o.rows.set_truncated(true);
  const std::string bytes = core::cache_entry_bytes(key, o);
  REQUIRE(core::read_cache_entry(bytes, key).outcome);
  // The flag follows the magic, the status, the message (length, bytes) and the time.
  const std::size_t flag = 8 + key.size() + 8 + 1 + 8 + 0 + 8;
  REQUIRE(bytes[flag] == 1);
  for (const char other : {'\x02', '8', '\xff'}) {
    std::string bad = bytes;
    bad[flag] = other;
    CHECK_FALSE(core::read_cache_entry(bad, key).outcome);
  }
}
