#include "lua/lua_sandbox_library.hpp"

#include <string>

#include "lua/lua_runtime.hpp"

namespace sqlmorph::core {
namespace {

// The metatable of a read-only view holds its name under this key (scripts never see metatables
// of views: __metatable hides them).
const char read_only_marker = 0;

bool is_read_only(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  const bool marked = lua_rawgetp(L, -1, &read_only_marker) != LUA_TNIL;
  lua_pop(L, 2);
  return marked;
}

// __newindex of a view (and guarded rawset on one). stack: view, key, value
int refuse_assignment(lua_State* L) {
  lua_getmetatable(L, 1);
  lua_rawgetp(L, -1, &read_only_marker);
  const std::string name = lua_tostring(L, -1);
  std::string field;
  if (lua_type(L, 2) == LUA_TSTRING) {
    field = name + "." + lua_tostring(L, 2);
  } else {
    field = name + "[" + luaL_tolstring(L, 2, nullptr) + "]";
  }
  return luaL_error(L, "cannot assign %s: %s is read-only (every script shares it)", field.c_str(),
                    name.c_str());
}

// pairs(view) walks the table behind it. upvalue 1: that table
int read_only_next(lua_State* L) {
  lua_settop(L, 2);  // stack: table, key
  if (lua_next(L, 1) != 0) return 2;
  lua_pushnil(L);
  return 1;
}
int read_only_pairs(lua_State* L) {
  lua_pushcfunction(L, &read_only_next);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushnil(L);
  return 3;
}

void make_read_only_at_depth(lua_State* L, const std::string& name, int depth) {
  const int table = lua_gettop(L);
  if (is_read_only(L, table)) return;
  luaL_checkstack(L, 8, "read-only view");
  // The tables it holds first, so that no path from the view leads to a writable table.
  if (depth < 8) {
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {  // stack: table, key, value
      if (lua_type(L, -1) == LUA_TTABLE && lua_type(L, -2) == LUA_TSTRING) {
        make_read_only_at_depth(L, name + "." + lua_tostring(L, -2), depth + 1);
        lua_pushvalue(L, -2);  // stack: table, key, view, key
        lua_insert(L, -2);     // stack: table, key, key, view
        lua_rawset(L, table);  // an existing field: allowed while traversing
      } else {
        lua_pop(L, 1);
      }
    }
  }
  lua_newtable(L);  // the view
  lua_createtable(L, 0, 5);
  lua_pushvalue(L, table);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, &refuse_assignment);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, table);
  lua_pushcclosure(L, &read_only_pairs, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushliteral(L, "read-only");
  lua_setfield(L, -2, "__metatable");
  lua_pushlstring(L, name.data(), name.size());
  lua_rawsetp(L, -2, &read_only_marker);
  lua_setmetatable(L, -2);
  lua_replace(L, table);
}

// True when the table at `index` has a __gc field (raw access: what Lua itself checks).
bool has_gc_field(lua_State* L, int index) {
  lua_pushliteral(L, "__gc");
  const bool has = lua_rawget(L, index) != LUA_TNIL;
  lua_pop(L, 1);
  return has;
}

// pcall and xpcall: the standard behaviour, except for limit errors and the charge per error.
int finish_protected(lua_State* L, int status, lua_KContext below_results) {
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - static_cast<int>(below_results);
  lua_runtime& rt = runtime_of(L);
  if (rt.is_limit_error(L, status)) return lua_error(L);  // stack: ..., error
  rt.charge(L, caught_error_charge);
  lua_pushboolean(L, 0);
  lua_pushvalue(L, -2);
  return 2;
}

int guarded_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  runtime_of(L).charge(L, 0);  // nothing runs once a limit is hit
  lua_pushboolean(L, 1);
  lua_insert(L, 1);  // stack: true, f, args...
  const int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, &finish_protected);
  return finish_protected(L, status, 0);
}

// xpcall's message handler runs before the stack unwinds, and with hooks off when the error came
// from the count hook: the script's handler must not run then (it could loop forever). Once a limit
// was hit the error passes through unchanged. upvalue 1: the script's handler
int guarded_message_handler(lua_State* L) {
  if (runtime_of(L).limit_reached()) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int guarded_xpcall(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  runtime_of(L).charge(L, 0);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, &guarded_message_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);  // stack: f, handler, true, f, args...
  const int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, &finish_protected);
  return finish_protected(L, status, 2);
}

// Lua runs finalizers with hooks off, so a __gc metamethod could loop forever, inside a call or
// while the state closes: a script may not mark objects for finalization. (Lua marks an object
// when setmetatable gives it a metatable with a __gc field of any value, so that is what is checked.)
int guarded_setmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE && has_gc_field(L, 2))
    return luaL_error(L,
                      "setmetatable: a metatable with __gc is refused (finalizers would run outside "
                      "the instruction limit)");
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int guarded_rawset(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  if (is_read_only(L, 1)) return refuse_assignment(L);
  lua_rawset(L, 1);
  return 1;
}

// Calls upvalue 1 (a coroutine function of the library) with the arguments; returns its results.
int call_library_function(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

int guarded_create(lua_State* L) {
  runtime_of(L).charge(L, lua_runtime::hook_step);
  return call_library_function(L);
}

int guarded_resume(lua_State* L) {
  lua_runtime& rt = runtime_of(L);
  rt.charge(L, coroutine_switch_charge);
  const int n = call_library_function(L);  // stack: true, results... or false, error
  if (!lua_toboolean(L, 1) && n == 2 && rt.is_limit_error(L, LUA_ERRRUN)) return lua_error(L);
  return n;
}

// A function made by coroutine.wrap. upvalue 1: the library's wrapped function
int guarded_wrapped(lua_State* L) {
  runtime_of(L).charge(L, coroutine_switch_charge);
  return call_library_function(L);
}

int guarded_wrap(lua_State* L) {
  runtime_of(L).charge(L, lua_runtime::hook_step);
  call_library_function(L);
  lua_pushcclosure(L, &guarded_wrapped, 1);
  return 1;
}

}  // namespace

void make_read_only(lua_State* L, const char* name) {
  make_read_only_at_depth(L, name, 0);
}

void install_guarded_library(lua_State* L) {
  const int shared = lua_gettop(L);
  lua_pushcfunction(L, &guarded_pcall);
  lua_setfield(L, shared, "pcall");
  lua_pushcfunction(L, &guarded_xpcall);
  lua_setfield(L, shared, "xpcall");
  lua_pushcfunction(L, &guarded_rawset);
  lua_setfield(L, shared, "rawset");
  lua_getfield(L, shared, "setmetatable");
  lua_pushcclosure(L, &guarded_setmetatable, 1);
  lua_setfield(L, shared, "setmetatable");

  // coroutine: a copy of the library with create, resume and wrap guarded.
  lua_getfield(L, shared, "coroutine");
  const int library = lua_gettop(L);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, library) != 0) {  // stack: library, copy, key, value
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  const struct {
    const char* name;
    lua_CFunction guarded;
  } guarded[] = {{"create", &guarded_create}, {"resume", &guarded_resume}, {"wrap", &guarded_wrap}};
  for (const auto& g : guarded) {
    lua_getfield(L, library, g.name);
    lua_pushcclosure(L, g.guarded, 1);
    lua_setfield(L, -2, g.name);
  }
  lua_setfield(L, shared, "coroutine");
  lua_pop(L, 1);

  for (const char* name : {"string", "table", "math", "utf8", "coroutine", "os"}) {
    lua_getfield(L, shared, name);
    make_read_only(L, name);
    lua_setfield(L, shared, name);
  }

  // getmetatable("") gives a read-only table whose __index is the read-only string library.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);  // stack: "", metatable
  lua_createtable(L, 0, 1);
  lua_getfield(L, shared, "string");
  lua_setfield(L, -2, "__index");
  make_read_only(L, "getmetatable('')");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
}

}  // namespace sqlmorph::core
