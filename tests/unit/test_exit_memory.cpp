// Memory left to the process's exit (core/app/exit_memory.hpp): off unless asked for; when asked
// for, an object's contents move to one that is never freed and the object is left empty.

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "app/exit_memory.hpp"

using namespace sqlmorph::core;

TEST_CASE("memory is freed as usual unless the process asked to leave it to its exit") {
  REQUIRE_FALSE(memory_left_to_exit());
  std::vector<std::string> kept{"a", std::string(100, 'b')};
  leave_to_exit(kept);
  CHECK(kept.size() == 2);
  CHECK(kept[1] == std::string(100, 'b'));
}

TEST_CASE("asked, an object's contents are left to the exit and the object is empty") {
  leave_memory_to_exit();
  std::vector<std::string> strings{"a", std::string(100, 'b')};
  std::map<int, std::vector<double>> map{{1, {1.0, 2.0}}};
  leave_to_exit(strings);
  leave_to_exit(map);
  const bool left = memory_left_to_exit();
  leave_memory_to_exit(false);  // the tests after this one free as usual
  CHECK_FALSE(memory_left_to_exit());
  if (address_sanitized) {  // never under the address sanitizer: its runs check that all is freed
    CHECK_FALSE(left);
    CHECK(strings.size() == 2);
    CHECK(map.size() == 1);
  } else {
    CHECK(left);
    CHECK(strings.empty());
    CHECK(map.empty());
  }
}
