// The name a mistyped one was meant to be: edit distance, and when a name is close enough to offer.

#include <doctest/doctest.h>

#include "nearest_name.hpp"

using sqlmorph::core::edit_distance;
using sqlmorph::core::nearest_name;

TEST_CASE("edit distance: insertions, deletions, replacements and swaps of neighbours, case aside") {
  const struct {
    const char* a;
    const char* b;
    std::size_t distance;
  } table[] = {
      {"", "", 0},
      {"", "abc", 3},
      {"abc", "", 3},
      {"techniques", "techniques", 0},
      {"techniqes", "techniques", 1},
      {"comapre", "compare", 1},
      {"Compare", "compare", 0},
      {"kitten", "sitting", 3},
      {"evaluate", "eval", 4},
      {"ab", "ba", 1},
      {"abc", "ca", 3},
  };
  for (const auto& row : table) {
    CAPTURE(row.a);
    CAPTURE(row.b);
    CHECK(edit_distance(row.a, row.b) == row.distance);
    CHECK(edit_distance(row.b, row.a) == row.distance);
  }
}

TEST_CASE("nearest name: offered only when close, the nearest first") {
  const std::vector<std::string> options = {"techniques", "timeout", "gold-timeout",
                                            "max-rows",   "db",      "db-id"};
  CHECK(nearest_name("techniqes", options) == "techniques");
  CHECK(nearest_name("tech", options) == "techniques");  // a prefix of it
  CHECK(nearest_name("timout", options) == "timeout");
  CHECK(nearest_name("gold-timout", options) == "gold-timeout");
  CHECK(nearest_name("max-row", options) == "max-rows");
  CHECK(nearest_name("db-i", options) == "db-id");  // nearer than db
  CHECK_FALSE(nearest_name("zzzzzz", options));
  CHECK_FALSE(nearest_name("x", options));
  CHECK_FALSE(nearest_name("te", options));  // a prefix, but too short to say
  const std::vector<std::string> commands = {"compare", "eval", "explain", "export", "report", "run"};
  CHECK(nearest_name("evaluate", commands) == "eval");  // it is a prefix of what was typed
  CHECK(nearest_name("exlpain", commands) == "explain");
  CHECK(nearest_name("rn", commands) == "run");
  CHECK_FALSE(nearest_name("frobnicate", commands));
  CHECK_FALSE(nearest_name("anything", {}));
}
