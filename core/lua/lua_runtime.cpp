#include "lua/lua_runtime.hpp"

#include <cassert>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "datasets/text_lines.hpp"
#include "errors.hpp"
#include "lua/lua_sandbox_library.hpp"

namespace sqlmorph::core {
namespace {

// Functions of the base library a script may use (no dofile, loadfile, load, collectgarbage).
constexpr const char* allowed_base[] = {"assert", "error",        "ipairs",       "next",     "pairs",
                                        "pcall",  "print",        "rawequal",     "rawget",   "rawlen",
                                        "rawset", "select",       "tonumber",     "tostring", "type",
                                        "xpcall", "setmetatable", "getmetatable", "_VERSION"};
constexpr const char* allowed_libraries[] = {"string", "table", "math", "utf8", "coroutine"};
constexpr const char* allowed_os[] = {"clock", "time", "date", "difftime"};

std::string_view to_text(lua_State* L, int index) {
  std::size_t n = 0;
  const char* s = luaL_tolstring(L, index, &n);  // pushes the string
  return {s, n};
}

// A sandbox's __index: globals come from the shared table; anything else is an error.
int sandbox_index(lua_State* L) {
  // stack: env, key
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__shared");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  if (!lua_isnil(L, -1)) return 1;
  if (lua_type(L, 2) == LUA_TSTRING) return luaL_error(L, "undefined global '%s'", lua_tostring(L, 2));
  return luaL_error(L, "undefined global");
}

int sandbox_newindex(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING) {
    return luaL_error(L, "assignment to undefined global '%s' (scripts declare variables with 'local')",
                      lua_tostring(L, 2));
  }
  return luaL_error(L, "assignment to an undefined global");
}

bool valid_module_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
      return false;
  }
  return name.front() != '.' && name.find("..") == std::string_view::npos;
}

}  // namespace

lua_stack_guard::~lua_stack_guard() noexcept {
#ifndef NDEBUG
  // A Lua error unwinding through this scope legitimately leaves the stack to Lua.
  if (std::uncaught_exceptions() == 0) assert(lua_gettop(L_) == expected_ && "Lua stack not restored");
#endif
}

lua_runtime& runtime_of(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return *static_cast<lua_runtime*>(ud);
}

void* lua_runtime::allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) noexcept {
  auto* self = static_cast<lua_runtime*>(ud);
  const std::size_t old_bytes = ptr == nullptr ? 0 : old_size;  // for a new block, old_size is a type tag
  if (new_size == 0) {
    std::free(ptr);
    self->used_ -= old_bytes;
    return nullptr;
  }
  if (self->used_ - old_bytes + new_size > self->limits_.memory_bytes) {
    // Lua collects garbage and asks again; if that fails too it raises "not enough memory".
    self->call_.memory_refused = true;
    return nullptr;
  }
  void* block = std::realloc(ptr, new_size);
  if (block != nullptr) self->used_ = self->used_ - old_bytes + new_size;
  return block;
}

void lua_runtime::count_hook(lua_State* L, lua_Debug*) {
  lua_runtime& self = runtime_of(L);
  // Once a limit is hit, every firing raises again: the call unwinds whatever the script catches.
  if (self.call_.hit != limit_hit::none) self.raise_limit_error(L, 0);
  if (self.call_.budget_left <= hook_step) {
    self.call_.budget_left = 0;
    self.call_.hit = limit_hit::instructions;
    self.raise_limit_error(L, 0);
  }
  self.call_.budget_left -= hook_step;
}

void lua_runtime::charge(lua_State* L, std::uint64_t units) {
  if (call_.hit != limit_hit::none) raise_limit_error(L, 1);
  if (call_.budget_left <= units) {
    call_.budget_left = 0;
    call_.hit = limit_hit::instructions;
    raise_limit_error(L, 1);
  }
  call_.budget_left -= units;
}

bool lua_runtime::is_limit_error(lua_State* L, int status) {
  if (call_.hit != limit_hit::none) return true;
  // A memory error keeps its status through pcall, but coroutine.resume and coroutine.wrap report
  // it as an ordinary error: then it is Lua's own message after the allocator refused a block.
  const bool memory = status == LUA_ERRMEM || (call_.memory_refused && lua_type(L, -1) == LUA_TSTRING &&
                                               std::strcmp(lua_tostring(L, -1), "not enough memory") == 0);
  if (memory) call_.hit = limit_hit::memory;
  return memory;
}

void lua_runtime::raise_limit_error(lua_State* L, int level) {
  if (call_.hit == limit_hit::memory) {
    lua_pushliteral(L, "script ran out of memory ([lua] memory_limit_mb)");
  } else {
    luaL_where(L, level);
    lua_pushfstring(L, "script exceeded its budget of %I instructions per call ([lua] instruction_limit)",
                    static_cast<lua_Integer>(limits_.instructions_per_call));
    lua_concat(L, 2);
  }
  lua_error(L);
  std::abort();  // lua_error does not return
}

int lua_runtime::traceback_handler(lua_State* L) {
  // stack: error object. Returns a message; the traceback goes to the registry slot below.
  std::string message(to_text(L, 1));
  lua_pop(L, 1);
  luaL_traceback(L, L, nullptr, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "sqlmorph.last_traceback");
  lua_pushlstring(L, message.data(), message.size());
  return 1;
}

lua_runtime::lua_runtime(lua_limits limits, std::vector<std::filesystem::path> lib_dirs)
    : limits_(limits), lib_dirs_(std::move(lib_dirs)) {
  if (limits_.memory_bytes == 0 || limits_.instructions_per_call == 0)
    throw std::invalid_argument("lua_runtime: the memory and instruction limits must be > 0");
  L_ = lua_newstate(&lua_runtime::allocate, this);
  if (L_ == nullptr) throw std::runtime_error("cannot create a Lua state");
  // New coroutines inherit the hook (Lua 5.4 copies it in lua_newthread).
  lua_sethook(L_, &lua_runtime::count_hook, LUA_MASKCOUNT, static_cast<int>(hook_step));
  luaL_openlibs(L_);
  // Deterministic scripts: the same runs give the same random numbers.
  lua_getglobal(L_, "math");
  lua_getfield(L_, -1, "randomseed");
  lua_pushinteger(L_, 0);
  lua_call(L_, 1, 0);
  lua_pop(L_, 1);
  build_shared_globals();
  lua_newtable(L_);
  loaded_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
}

lua_runtime::~lua_runtime() {
  if (L_ != nullptr) lua_close(L_);
}

void lua_runtime::build_shared_globals() {
  lua_stack_guard guard(L_);
  lua_newtable(L_);  // shared
  for (const char* name : allowed_base) {
    lua_getglobal(L_, name);
    lua_setfield(L_, -2, name);
  }
  for (const char* name : allowed_libraries) {
    lua_getglobal(L_, name);
    lua_setfield(L_, -2, name);
  }
  // string.dump produces binary chunks, which are refused anyway.
  lua_getfield(L_, -1, "string");
  lua_pushnil(L_);
  lua_setfield(L_, -2, "dump");
  lua_pop(L_, 1);
  lua_newtable(L_);  // a restricted os
  lua_getglobal(L_, "os");
  for (const char* name : allowed_os) {
    lua_getfield(L_, -1, name);
    lua_setfield(L_, -3, name);
  }
  lua_pop(L_, 1);
  lua_setfield(L_, -2, "os");
  lua_pushcfunction(L_, &lua_runtime::sandboxed_require);
  lua_setfield(L_, -2, "require");
  install_guarded_library(L_);
  shared_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
}

void lua_runtime::set_shared_global(const char* name) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, shared_ref_);
  lua_insert(L_, -2);
  lua_setfield(L_, -2, name);
  lua_pop(L_, 1);
}

void lua_runtime::push_sandbox_env() {
  lua_newtable(L_);  // env
  lua_newtable(L_);  // its metatable
  lua_rawgeti(L_, LUA_REGISTRYINDEX, shared_ref_);
  lua_setfield(L_, -2, "__shared");
  lua_pushcfunction(L_, &sandbox_index);
  lua_setfield(L_, -2, "__index");
  lua_pushcfunction(L_, &sandbox_newindex);
  lua_setfield(L_, -2, "__newindex");
  lua_pushliteral(L_, "sandbox");
  lua_setfield(L_, -2, "__metatable");
  lua_setmetatable(L_, -2);
}

void lua_runtime::protected_call(int nargs, int nresults) {
  const int base = lua_gettop(L_) - nargs;  // the function's index
  lua_pushcfunction(L_, &lua_runtime::traceback_handler);
  lua_insert(L_, base);
  // A call nested in another (C++ called from Lua calling Lua again) has its own budget; the
  // outer call's limits are back when it returns.
  const call_limits outer = call_;
  call_ = call_limits{limits_.instructions_per_call, limit_hit::none, false};
  const int rc = lua_pcall(L_, nargs, nresults, base);
  const limit_hit hit = call_.hit;
  call_ = outer;
  lua_remove(L_, base);
  if (rc == LUA_OK) return;
  std::string message =
      lua_type(L_, -1) == LUA_TSTRING ? lua_tostring(L_, -1) : "error object is not a string";
  lua_pop(L_, 1);
  std::string traceback;
  if (lua_getfield(L_, LUA_REGISTRYINDEX, "sqlmorph.last_traceback") == LUA_TSTRING && rc == LUA_ERRRUN) {
    traceback = lua_tostring(L_, -1);
  }
  lua_pop(L_, 1);
  lua_pushnil(L_);
  lua_setfield(L_, LUA_REGISTRYINDEX, "sqlmorph.last_traceback");
  if (rc == LUA_ERRMEM || hit == limit_hit::memory)
    message = "script ran out of memory ([lua] memory_limit_mb)";
  throw lua_script_error(std::move(message), std::move(traceback));
}

void lua_runtime::load_chunk(std::string_view code, const std::string& chunkname) {
  const int rc = luaL_loadbufferx(L_, code.data(), code.size(), chunkname.c_str(), "t");
  if (rc != LUA_OK) {
    std::string message = lua_tostring(L_, -1);
    lua_pop(L_, 1);
    throw lua_script_error(std::move(message), "");
  }
  push_sandbox_env();
  if (lua_setupvalue(L_, -2, 1) == nullptr) lua_pop(L_, 1);  // a chunk always has _ENV first
}

void lua_runtime::run_file(const std::filesystem::path& file, int nresults,
                           const std::vector<std::string>& args) {
  std::string code;
  try {
    code = read_file(file);
  } catch (const usage_error& e) {
    throw lua_script_error(e.what(), "");
  }
  load_chunk(code, "@" + file.string());
  // arg = {[0] = script, ...} as in the standalone interpreter (the arguments are also `...`).
  lua_getupvalue(L_, -1, 1);  // stack: chunk, env
  lua_pushliteral(L_, "arg");
  lua_createtable(L_, static_cast<int>(args.size()), 1);
  lua_pushstring(L_, file.string().c_str());
  lua_rawseti(L_, -2, 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    lua_pushstring(L_, args[i].c_str());
    lua_rawseti(L_, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_rawset(L_, -3);  // the sandbox refuses new globals, so set it raw
  lua_pop(L_, 1);
  // As many values as arguments: room for them first (a C function has LUA_MINSTACK slots only).
  // (lua_checkstack, not luaL_checkstack: outside a protected call a Lua error would abort.)
  if (args.size() > 100000 || !lua_checkstack(L_, static_cast<int>(args.size()) + 1))
    throw usage_error(file.string() + ": too many script arguments (" + std::to_string(args.size()) + ")");
  for (const std::string& a : args) lua_pushstring(L_, a.c_str());
  protected_call(static_cast<int>(args.size()), nresults);
}

int lua_runtime::sandboxed_require(lua_State* L) {
  lua_runtime& self = runtime_of(L);
  const char* name = luaL_checkstring(L, 1);
  if (!valid_module_name(name)) return luaL_error(L, "invalid module name '%s'", name);
  lua_rawgeti(L, LUA_REGISTRYINDEX, self.loaded_ref_);
  if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  std::string relative(name);
  for (char& c : relative) {
    if (c == '.') c = '/';
  }
  relative += ".lua";
  std::string searched;
  for (const auto& dir : self.lib_dirs_) {
    const auto path = dir / relative;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      searched += "\n  " + path.string();
      continue;
    }
    std::string code;
    try {
      code = read_file(path);
      self.load_chunk(code, "@" + path.string());
    } catch (const std::exception& e) {
      lua_pushstring(L, e.what());
      return lua_error(L);
    }
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    return 1;
  }
  return luaL_error(L, "module '%s' not found; searched:%s", name,
                    searched.empty() ? " (no [lua] lib_dirs)" : searched.c_str());
}

}  // namespace sqlmorph::core
