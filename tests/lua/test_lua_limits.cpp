// The instruction and memory limits of a call into Lua hold whatever the script does: catching
// errors (pcall, xpcall), coroutines, finalizers. Each script runs in a child process with a
// watchdog, so a limit that is escaped fails the test instead of hanging it.

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "lua/lua_runtime.hpp"
#include "test_support.hpp"

using namespace sqlmorph;

namespace {

struct child_outcome {
  bool finished = false;              // false: killed by the watchdog
  std::vector<std::string> messages;  // the script error of each script ("" if it ended without one)
  std::string message;                // that of the last script
};

// Runs `scripts` one after the other in one fresh runtime with `limits`, in a child process that
// is killed after `seconds`.
child_outcome run_limited(const std::vector<std::string>& scripts, core::lua_limits limits,
                          int seconds = 60) {
  test::temp_dir dir;
  const auto report = dir.path() / "messages";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::string messages;
    {
      core::lua_runtime rt(limits, {});
      for (std::size_t i = 0; i < scripts.size(); ++i) {
        const auto file = dir.path() / ("script" + std::to_string(i) + ".lua");
        std::ofstream(file) << scripts[i];
        try {
          rt.run_file(file, 0);
        } catch (const core::script_error& e) {
          messages += e.message();
        }
        messages += '\0';
      }
    }  // closing the state runs the finalizers
    std::ofstream(report) << messages;
    ::_exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return {};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  child_outcome out;
  out.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::string all = test::file_bytes(report);
  for (std::size_t at = 0, end; (end = all.find('\0', at)) != std::string::npos; at = end + 1)
    out.messages.push_back(all.substr(at, end - at));
  if (out.finished) {
    REQUIRE(out.messages.size() == scripts.size());
    out.message = out.messages.back();
  }
  return out;
}

child_outcome run_limited(const std::string& code, core::lua_limits limits, int seconds = 60) {
  return run_limited(std::vector<std::string>{code}, limits, seconds);
}

core::lua_limits instructions(std::uint64_t n) {
  core::lua_limits l;
  l.instructions_per_call = n;
  return l;
}

const char* const budget_exceeded = "script exceeded its budget of";
const char* const out_of_memory = "script ran out of memory ([lua] memory_limit_mb)";

}  // namespace

TEST_CASE("a limit error cannot be caught: pcall and xpcall pass it on") {
  for (const char* code : {
           "while true do pcall(function() while true do end end) end\n",
           "while true do xpcall(function() while true do end end, function(m) return m end) end\n",
           // The message handler itself loops.
           "while true do xpcall(error, function() while true do end end) end\n",
           // Nested protections.
           "while true do pcall(pcall, pcall, function() while true do end end) end\n",
           // A coroutine whose errors are caught by resume.
           "while true do pcall(function()\n"
           "  coroutine.resume(coroutine.create(function() while true do end end)) end) end\n",
       }) {
    CAPTURE(code);
    const child_outcome r = run_limited(code, instructions(1'000'000));
    REQUIRE(r.finished);
    CHECK(r.message.find(budget_exceeded) != std::string::npos);
    CHECK(r.message.find("script0.lua:") != std::string::npos);
  }
}

TEST_CASE(
    "the budget is per call, shared by its coroutines, and charges coroutine switches and caught errors") {
  // Switching coroutines and raising errors cost far more than one instruction each (they unwind
  // C++ frames): with 10^8 instructions, a loop of them used to run for minutes.
  for (const char* code : {
           "local co = coroutine.wrap(function() while true do coroutine.yield() end end)\n"
           "while true do co() end\n",
           "local co = coroutine.create(function() while true do coroutine.yield() end end)\n"
           "while true do coroutine.resume(co) end\n",
           "while true do pcall(error, 'x') end\n",
           // Many short coroutines, each below the hook's step.
           "while true do coroutine.wrap(function() for i = 1, 500 do end end)() end\n",
       }) {
    CAPTURE(code);
    const child_outcome r = run_limited(code, instructions(100'000'000));
    REQUIRE(r.finished);
    CHECK(r.message.find(budget_exceeded) != std::string::npos);
  }
  // The charges are counted, not timed: 200,000 switches exceed 10^8 instructions, 50,000 do not.
  const auto switches = [](int n) {
    return "local co = coroutine.wrap(function() while true do coroutine.yield() end end)\n"
           "for i = 1, " +
           std::to_string(n) + " do co() end\n";
  };
  CHECK(run_limited(switches(200'000), instructions(100'000'000)).message.find(budget_exceeded) !=
        std::string::npos);
  const child_outcome fewer = run_limited(switches(50'000), instructions(100'000'000));
  CHECK(fewer.finished);
  CHECK(fewer.message.empty());
}

TEST_CASE("the memory limit cannot be caught either") {
  core::lua_limits limits;
  limits.memory_bytes = 8 * 1024 * 1024;
  limits.instructions_per_call = std::uint64_t{1} << 62;  // only the memory limit stops these
  for (const char* code : {
           "while true do pcall(function() local t = {} while true do t[#t + 1] = ('x'):rep(1000) end end) "
           "end\n",
           "while true do pcall(coroutine.wrap(function()\n"
           "  local t = {} while true do t[#t + 1] = ('x'):rep(1000) end end)) end\n",
           "while true do coroutine.resume(coroutine.create(function()\n"
           "  local t = {} while true do t[#t + 1] = ('x'):rep(1000) end end)) end\n",
       }) {
    CAPTURE(code);
    const child_outcome r = run_limited(code, limits);
    REQUIRE(r.finished);
    CHECK(r.message == out_of_memory);
  }
}

TEST_CASE(
    "after a limit error the runtime is usable again, with a fresh budget, and ordinary errors stay "
    "catchable") {
  const child_outcome r = run_limited(
      {"while true do pcall(function() while true do end end) end",
       "local ok, e = pcall(error, 'boom') assert(not ok and e == 'boom')\n"
       "local ok2, e2 = xpcall(function() error({code = 7}) end, function(m) return m.code end)\n"
       "assert(not ok2 and e2 == 7)\n"
       "local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)\n"
       "local _, x = coroutine.resume(co, 1) local _, y = coroutine.resume(co, 10)\n"
       "assert(x == 2 and y == 20)\n"
       "local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)\n"
       "assert(gen() + gen() + gen() == 6)\n"
       "local ok3, e3 = coroutine.resume(coroutine.create(function() error('inside') end))\n"
       "assert(not ok3 and e3:find('inside'))\n"
       "assert(select('#', pcall(function() return 1, 2, 3 end)) == 4)\n"
       // A message handler still runs for an ordinary error, and may use the budget.
       "local ok4, e4 = xpcall(error, function(m) local n = 0 for i = 1, 1000 do n = n + i end return n end, "
       "'x')\n"
       "assert(not ok4 and e4 == 500500)\n",
       // Yielding across pcall still works.
       "local co = coroutine.wrap(function() local ok, v = pcall(function() return coroutine.yield(1) "
       "end) return v end)\nassert(co() == 1) assert(co('back') == 'back')\n"},
      instructions(1'000'000));
  REQUIRE(r.finished);
  CHECK(r.messages[0].find(budget_exceeded) != std::string::npos);
  CHECK(r.messages[1] == "");
  CHECK(r.messages[2] == "");
}

TEST_CASE("a finalizer cannot keep the state from closing or a call from ending") {
  // Lua runs finalizers with hooks off: a script may not create any (setmetatable refuses __gc,
  // whatever its value, since Lua marks the object when the field exists).
  for (const char* code : {
           "local t = setmetatable({}, {__gc = function() while true do end end})\n",
           "local t = setmetatable({}, {__gc = function() while true do pcall(function() while true do end "
           "end) end "
           "end})\n",
           "local mt = {__gc = false} local t = setmetatable({}, mt) mt.__gc = function() while true do end "
           "end\n"
           "t = nil while true do local x = {} end\n",
       }) {
    CAPTURE(code);
    const child_outcome r = run_limited(code, instructions(1'000'000));
    REQUIRE(r.finished);
    CHECK(r.message.find("script0.lua:1: setmetatable: a metatable with __gc is refused") !=
          std::string::npos);
  }
  const child_outcome plain = run_limited(
      "local t = setmetatable({}, {__index = function(_, k) return k .. '!' end})\nassert(t.x == 'x!')\n",
      instructions(1'000'000));
  CHECK(plain.finished);
  CHECK(plain.message.empty());
}

TEST_CASE("[lua] instruction_limit and memory_limit_mb must be positive: 0 is refused, not 'no limit'") {
  test::temp_dir dir;
  for (const char* line :
       {"instruction_limit = 0", "memory_limit_mb = 0", "memory_limit_mb = 9007199254740993"}) {
    CAPTURE(line);
    const auto file = dir.path() / "sqlmorph.toml";
    std::ofstream(file) << "[lua]\n" << line << "\n";
    const std::string error = test::usage_error_of([&] { core::load_config(file); });
    CHECK(error.find(file.string() + ":2:") == 0);
    CHECK(error.find("must be") != std::string::npos);
  }
  core::lua_limits zero;
  zero.instructions_per_call = 0;
  CHECK_THROWS_AS(core::lua_runtime(zero, {}), std::invalid_argument);
}
