#pragma once
// One Lua 5.4 state, owned by one thread: the only place sqlmorph enters Lua.
//
// Discipline (STYLE.md, after Redis and Neovim):
// - every call into Lua goes through protected_call(), which adds a traceback and turns a Lua error
//   into a C++ lua_script_error after the stack is restored;
// - a memory limit (custom allocator) and an instruction budget per call (count hook) bound a
//   script's resources. The budget is shared by every coroutine of the call, costly operations are
//   charged to it (lua_sandbox_library.hpp), and once a limit is hit the call only unwinds: every
//   later hook firing raises the error again, and the sandbox's pcall, xpcall and coroutine.resume
//   pass a limit error on instead of catching it;
// - each script runs in its own sandboxed environment: allow-listed globals only, reading or
//   assigning an undefined global is an error, binary chunks are refused;
// - functions that push values restore the stack they found (lua_stack_guard checks it in debug builds).
//
// Lua is Debian's C++ build (liblua5.4-c++): a Lua error unwinds C++ frames, so destructors run.
// Bindings catch `const std::exception&` and re-raise it as a Lua error; never `catch (...)` around
// Lua calls (that would swallow Lua's own errors).

#include <lua.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.hpp"

namespace sqlmorph::core {

/// Lua errors are reported as script_error (errors.hpp).
using lua_script_error = script_error;

struct lua_limits {
  /// Bytes the state may allocate in total; must be > 0 (there is always a limit).
  std::size_t memory_bytes = 256u * 1024 * 1024;
  /// VM instructions (plus the charges of costly operations) one call into Lua may run; must be > 0.
  std::uint64_t instructions_per_call = 1'000'000'000;
};

/// Debug-build check that a scope leaves the Lua stack as it found it (plus `pushed` values).
class lua_stack_guard {
 public:
  explicit lua_stack_guard(lua_State* L, int pushed = 0) noexcept
      : L_(L), expected_(lua_gettop(L) + pushed) {}
  ~lua_stack_guard() noexcept;
  lua_stack_guard(const lua_stack_guard&) = delete;
  lua_stack_guard& operator=(const lua_stack_guard&) = delete;

 private:
  lua_State* L_;
  int expected_;
};

class lua_runtime {
 public:
  /// The count hook fires every this many VM instructions of a coroutine.
  static constexpr std::uint64_t hook_step = 1000;

  lua_runtime(lua_limits limits, std::vector<std::filesystem::path> lib_dirs);
  ~lua_runtime();
  lua_runtime(const lua_runtime&) = delete;
  lua_runtime& operator=(const lua_runtime&) = delete;

  lua_State* state() const noexcept { return L_; }
  const lua_limits& limits() const noexcept { return limits_; }

  /// Makes `name` a global visible to every script (e.g. the sqlmorph module). Pops the value on
  /// top of the stack.
  void set_shared_global(const char* name);

  /// Calls the function below `nargs` arguments on the stack, protected, with a traceback and a
  /// fresh instruction budget; leaves `nresults` results. Throws lua_script_error (the stack is
  /// then restored to what it was below the function).
  void protected_call(int nargs, int nresults);

  /// Loads a text chunk as `chunkname` ("@file.lua" or "=name") in a new sandboxed environment and
  /// pushes it as a function. Throws lua_script_error for a syntax error or a binary chunk.
  void load_chunk(std::string_view code, const std::string& chunkname);

  /// Loads and runs a script file in its own sandbox; pushes its `nresults` results.
  void run_file(const std::filesystem::path& file, int nresults, const std::vector<std::string>& args = {});

  /// Bytes currently allocated by the state.
  std::size_t memory_in_use() const noexcept { return used_; }

  /// Charges `units` instructions to the current call's budget (for operations that cost far more
  /// than one VM instruction). Raises the limit error in `L` when the budget runs out.
  void charge(lua_State* L, std::uint64_t units);

  /// For the sandbox's pcall, xpcall and coroutine.resume, with the error they caught on top of the
  /// stack and the status it came with: true when it comes from a limit, so the caller must raise
  /// it again (a script cannot catch a limit error). Also true for any error once a limit was hit.
  bool is_limit_error(lua_State* L, int status);

  /// True once the current call hit a limit (it can only unwind from then on).
  bool limit_reached() const noexcept { return call_.hit != limit_hit::none; }

  /// Raises the error of the limit that was hit (or of the instruction limit), naming the Lua code
  /// at `level` (0 inside a hook, 1 in a C function called from Lua).
  [[noreturn]] void raise_limit_error(lua_State* L, int level);

  /// Keeps `object` alive as long as this runtime (e.g. the context its module functions use).
  void attach(std::shared_ptr<void> object) { attachments_.push_back(std::move(object)); }

 private:
  static void* allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) noexcept;
  static void count_hook(lua_State* L, lua_Debug* ar);
  static int traceback_handler(lua_State* L);
  static int sandboxed_require(lua_State* L);
  void build_shared_globals();
  void push_sandbox_env();

  lua_State* L_ = nullptr;
  std::vector<std::shared_ptr<void>> attachments_;  // released after the destructor closed the state
  lua_limits limits_;
  std::vector<std::filesystem::path> lib_dirs_;
  std::size_t used_ = 0;
  // The state of the current call's limits. Outside any call the budget is spent, so Lua code run
  // outside a call (a finalizer while the state closes) stops at once.
  enum class limit_hit { none, instructions, memory };
  struct call_limits {
    std::uint64_t budget_left = 0;
    limit_hit hit = limit_hit::instructions;
    bool memory_refused = false;  // the allocator refused a block during the call
  };
  call_limits call_;
  int shared_ref_ = LUA_NOREF;  // the read-only table every sandbox falls back to
  int loaded_ref_ = LUA_NOREF;  // modules already required
};

/// The runtime of the calling thread for `L` (set by lua_runtime).
lua_runtime& runtime_of(lua_State* L);

}  // namespace sqlmorph::core
