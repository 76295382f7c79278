// Hostile and mistaken inputs at the command line: each ends with a clear message and exit code 2
// (or 1 for a script), never a crash, an abort, an endless read or silently lost results.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace sqlmorph;
using nlohmann::json;
using test::run_sqlmorph;
using test::write_file;

namespace {

std::string config_arg() {
  return (test::source_dir() / "sqlmorph.toml").string();
}

}  // namespace

TEST_CASE("hostile inputs: /dev/zero, a directory and an endless pipe are refused, not read without end") {
  test::temp_dir dir;
  const auto zero = run_sqlmorph(
      {"--config", config_arg(), "eval", "--cases", "/dev/zero", "--out", (dir.path() / "out1").string()});
  CHECK(zero.exit_code == 2);
  CHECK(zero.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
  const auto folder = run_sqlmorph({"--config", config_arg(), "eval", "--cases", dir.path().string(), "--out",
                                    (dir.path() / "out2").string()});
  CHECK(folder.exit_code == 2);
  CHECK(folder.err.find(": is a directory, not a file sqlmorph reads") != std::string::npos);
  // A pipe is read line by line, within the line limit.
  {
    test::endless_fifo fifo(dir.path() / "endless", std::string(4096, '\0'));
    const auto pipe = run_sqlmorph({"--config", config_arg(), "eval", "--cases", fifo.path().string(),
                                    "--out", (dir.path() / "out3").string()});
    CHECK(pipe.exit_code == 2);
    CHECK(pipe.err.find(fifo.path().string() + ":1: line longer than 16777216 bytes") != std::string::npos);
  }
  // The Lua helpers read through the same bounded reader.
  write_file(dir.path() / "zero.lua", "sqlmorph.cases{ file = '/dev/zero' }\n");
  const auto lua = run_sqlmorph({"--config", config_arg(), "run", (dir.path() / "zero.lua").string()});
  CHECK(lua.exit_code != 0);
  CHECK(lua.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
  write_file(dir.path() / "bird.json", "[]");
  const auto bird = run_sqlmorph({"--config", config_arg(), "eval", "--benchmark", "bird", "--gold",
                                  "/dev/zero", "--pred", (dir.path() / "bird.json").string(), "--db-root",
                                  dir.path().string(), "--out", (dir.path() / "out4").string()});
  CHECK(bird.exit_code == 2);
  CHECK(bird.err.find("/dev/zero: is a character device, not a file sqlmorph reads") != std::string::npos);
}
