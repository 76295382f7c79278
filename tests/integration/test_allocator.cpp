// The sqlmorph command's allocator (CMake option SQLMORPH_MIMALLOC, docs/performance.md): with
// mimalloc, every library and plugin the command loads calls mimalloc's malloc, free and operator
// new and delete, and nobody else's; without it, nobody calls mimalloc. Checked on the dynamic
// linker's own account of its symbol bindings (LD_DEBUG=bindings) while `sqlmorph plugins` loads
// every plugin.

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "test_support.hpp"

using namespace sqlmorph;

TEST_CASE("the sqlmorph command's malloc and free are mimalloc's when built with it, glibc's otherwise") {
  const auto r =
      test::run_program("/usr/bin/env", {"LD_DEBUG=bindings", test::sqlmorph_binary().string(), "--config",
                                         (test::source_dir() / "sqlmorph.toml").string(), "plugins"});
  REQUIRE(r.exit_code == 0);
  std::size_t to_mimalloc = 0;
  std::size_t elsewhere = 0;
  std::size_t from_plugins = 0;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    bool allocator = false;
    for (const char* symbol : {"malloc", "free", "calloc", "realloc", "_Znwm", "_ZdlPv", "_ZdlPvm"})
      allocator = allocator || line.find(std::string("normal symbol `") + symbol + "'") != std::string::npos;
    const auto to = line.find(" to ");
    if (!allocator || to == std::string::npos) continue;
    if (line.find("libmimalloc", to) != std::string::npos)
      ++to_mimalloc;
    else
      ++elsewhere;
    if (line.substr(0, to).find("/plugins/sqlmorph_") != std::string::npos) ++from_plugins;
  }
  INFO(r.err.substr(0, 2000));
#if SQLMORPH_TEST_WITH_MIMALLOC
  CHECK(to_mimalloc > 0);
  CHECK(elsewhere == 0);
#else
  CHECK(to_mimalloc == 0);
  CHECK(elsewhere > 0);
#endif
  CHECK(from_plugins > 0);  // the plugins' bindings are among those checked
}
