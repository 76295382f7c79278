#pragma once
// What scripts get in place of a few standard functions, so that lua_runtime's limits hold, and
// read-only views of what every script shares.
//
// - pcall and xpcall pass a limit error on instead of catching it, and charge each error they do
//   catch to the call's budget (raising an error unwinds C++ frames in this build of Lua: it costs
//   about as much as a thousand instructions);
// - coroutine.create and coroutine.wrap charge each new coroutine (its hook count starts afresh),
//   coroutine.resume and the functions made by coroutine.wrap charge each switch (a yield unwinds
//   C++ frames too), and coroutine.resume passes a limit error on;
// - xpcall's message handler is skipped once a limit was hit (it would run with hooks off);
// - setmetatable refuses a metatable with a __gc field (Lua runs finalizers with hooks off);
// - rawset refuses read-only tables.
// The libraries (string, table, math, utf8, coroutine, os), the string metatable and the sqlmorph
// module are shared by every script a runtime loads: assigning to them is an error naming the key.

#include <lua.hpp>

#include <cstdint>

namespace sqlmorph::core {

/// What the guarded functions charge, in instructions.
inline constexpr std::uint64_t caught_error_charge = 1000;
inline constexpr std::uint64_t coroutine_switch_charge = 1000;

/// Replaces pcall, xpcall, setmetatable, rawset and coroutine in the table on top of the stack (the globals
/// every sandbox falls back to) by the guarded versions, makes the library tables in it read-only, and
/// protects the string metatable. Leaves the stack as it was.
void install_guarded_library(lua_State* L);

/// Replaces the table on top of the stack by a read-only view of it, whose tables are read-only
/// views too. `name` names it in errors ("cannot assign sqlmorph.technique: ...").
void make_read_only(lua_State* L, const char* name);

}  // namespace sqlmorph::core
