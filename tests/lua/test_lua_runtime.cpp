// The Lua layer's discipline: sandbox, limits, protected calls with tracebacks, require.

#include <doctest/doctest.h>

#include <fstream>

#include "lua/lua_runtime.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

std::filesystem::path write(const test::temp_dir& dir, const std::string& name, const std::string& code) {
  const auto file = dir.path() / name;
  std::ofstream(file) << code;
  return file;
}

// Runs a script and returns the script error's message and traceback ("" if none).
std::pair<std::string, std::string> error_of(core::lua_runtime& rt, const std::filesystem::path& file) {
  try {
    rt.run_file(file, 0);
  } catch (const core::script_error& e) {
    return {e.message(), e.traceback()};
  }
  return {"", ""};
}

core::lua_runtime make_runtime(const test::temp_dir& dir, core::lua_limits limits = {}) {
  return core::lua_runtime(limits, {dir.path() / "lib"});
}

}  // namespace

TEST_CASE("scripts run in a sandbox: no undefined or new globals, no files, no binary chunks") {
  test::temp_dir dir;
  core::lua_runtime rt({}, {});
  const auto [undefined, tb] = error_of(rt, write(dir, "a.lua", "local x = 1\nreturn undefined_thing + x\n"));
  CHECK(undefined == (dir.path() / "a.lua").string() + ":2: undefined global 'undefined_thing'");
  CHECK(tb.find("stack traceback:") != std::string::npos);
  CHECK(error_of(rt, write(dir, "b.lua", "counter = 1\n"))
            .first.find(":1: assignment to undefined global 'counter'") != std::string::npos);
  for (const char* forbidden : {"io", "dofile", "loadfile", "load", "collectgarbage", "debug", "package"}) {
    CAPTURE(forbidden);
    CHECK(error_of(rt, write(dir, "c.lua", std::string("return ") + forbidden + "\n"))
              .first.find("undefined global") != std::string::npos);
  }
  CHECK(error_of(rt, write(dir, "d.lua", "return os.execute('true')\n"))
            .first.find("attempt to call a nil value (field 'execute')") != std::string::npos);
  CHECK(error_of(rt, write(dir, "e.lua", "return string.dump(print)\n")).first.find("field 'dump'") !=
        std::string::npos);
  // What a script may use is there.
  CHECK(error_of(
            rt,
            write(dir, "f.lua",
                  "local t = {} for k, v in pairs({a = 1}) do t[#t + 1] = string.format('%s=%d', k, v) end\n"
                  "assert(table.concat(t) == 'a=1') assert(math.floor(2.5) == 2) assert(os.time() > 0)\n"))
            .first.empty());
  // Binary chunks are refused.
  const std::string binary = "\x1bLua\x54";
  CHECK_THROWS_WITH_AS(rt.load_chunk(binary, "=binary"), doctest::Contains("attempt to load a binary chunk"),
                       core::script_error);
  CHECK(lua_gettop(rt.state()) == 0);
}

TEST_CASE("syntax errors name the file and line") {
  test::temp_dir dir;
  core::lua_runtime rt({}, {});
  const auto [message, tb] = error_of(rt, write(dir, "syntax.lua", "local a = 1\nlocal b = = 2\n"));
  CHECK(message == (dir.path() / "syntax.lua").string() + ":2: unexpected symbol near '='");
}

TEST_CASE("an instruction budget per call stops runaway scripts") {
  test::temp_dir dir;
  core::lua_limits limits;
  limits.instructions_per_call = 200000;
  core::lua_runtime rt(limits, {});
  const auto [message, tb] = error_of(rt, write(dir, "loop.lua", "while true do end\n"));
  CHECK(message.find("loop.lua:1: script exceeded its budget of 200000 instructions per call") !=
        std::string::npos);
  // The budget is per call: the next call has a fresh one.
  CHECK(error_of(rt, write(dir, "ok.lua", "local n = 0 for i = 1, 1000 do n = n + i end\n")).first.empty());
}

TEST_CASE("a memory limit stops scripts that allocate without end") {
  test::temp_dir dir;
  core::lua_limits limits;
  limits.memory_bytes = 8 * 1024 * 1024;
  core::lua_runtime rt(limits, {});
  const auto [message, tb] = error_of(
      rt, write(dir, "hog.lua", "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 100) .. i end\n"));
  CHECK(message == "script ran out of memory ([lua] memory_limit_mb)");
  CHECK(rt.memory_in_use() <= limits.memory_bytes);
  // The state is still usable.
  CHECK(error_of(rt, write(dir, "ok.lua", "local x = {1, 2, 3}\n")).first.empty());
}

TEST_CASE("require loads modules from the library folders, once, each in its own sandbox") {
  test::temp_dir dir;
  std::filesystem::create_directories(dir.path() / "lib" / "pkg");
  write(dir, "lib/counter.lua",
        "local M = {n = 0}\nfunction M.bump() M.n = M.n + 1 return M.n end\nreturn M\n");
  write(dir, "lib/pkg/inner.lua", "return {answer = 42}\n");
  write(dir, "lib/broken.lua", "return nope\n");
  core::lua_runtime rt = make_runtime(dir);
  CHECK(error_of(rt, write(dir, "use.lua",
                           "local c = require('counter')\nc.bump()\nassert(require('counter').bump() == 2)\n"
                           "assert(require('pkg.inner').answer == 42)\n"))
            .first.empty());
  const auto [missing, tb] = error_of(rt, write(dir, "missing.lua", "require('nothere')\n"));
  CHECK(missing.find("missing.lua:1: module 'nothere' not found; searched:") != std::string::npos);
  CHECK(missing.find((dir.path() / "lib" / "nothere.lua").string()) != std::string::npos);
  CHECK(error_of(rt, write(dir, "bad.lua", "require('broken')\n"))
            .first.find("broken.lua:1: undefined global 'nope'") != std::string::npos);
  CHECK(error_of(rt, write(dir, "evil.lua", "require('../../etc/passwd')\n"))
            .first.find("invalid module name") != std::string::npos);
}

TEST_CASE("scripts get their arguments as arg and ...") {
  test::temp_dir dir;
  core::lua_runtime rt({}, {});
  const auto file = write(dir, "args.lua",
                          "local a, b = ...\nassert(a == 'x' and b == 'y')\nassert(arg[1] == 'x' and arg[2] "
                          "== 'y')\nassert(arg[0]:find('args.lua'))\n");
  CHECK_NOTHROW(rt.run_file(file, 0, {"x", "y"}));
}
