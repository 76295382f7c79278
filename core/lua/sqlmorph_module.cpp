#include "lua/sqlmorph_module.hpp"

#include <sqlmorph/version.hpp>

#include "lua/lua_sandbox_library.hpp"
#include "lua/lua_values.hpp"

namespace sqlmorph::core {
namespace {

// Every module function goes through here: bindings may throw std::exception, whose message is
// raised as a Lua error only after the binding's C++ objects are destroyed.
int dispatch(lua_State* L) {
  auto fn = reinterpret_cast<module_function>(lua_touserdata(L, lua_upvalueindex(2)));
  std::string error;
  try {
    return fn(L, module_context(L));
  } catch (const std::exception& e) {
    error = e.what();
  }
  return luaL_error(L, "%s", error.c_str());
}

}  // namespace

lua_module_context& module_context(lua_State* L) {
  return *static_cast<lua_module_context*>(lua_touserdata(L, lua_upvalueindex(1)));
}

void set_module_function(lua_State* L, lua_module_context& ctx, const char* name, module_function fn) {
  lua_pushlightuserdata(L, &ctx);
  lua_pushlightuserdata(L, reinterpret_cast<void*>(fn));
  lua_pushcclosure(L, &dispatch, 2);
  lua_setfield(L, -2, name);
}

std::string caller_origin(lua_State* L) {
  luaL_where(L, 1);
  std::string where = lua_tostring(L, -1);
  lua_pop(L, 1);
  while (!where.empty() && (where.back() == ' ' || where.back() == ':')) where.pop_back();
  return where.empty() ? "(Lua)" : where;
}

void install_sqlmorph_module(lua_runtime& rt, lua_module_context& ctx) {
  lua_State* L = rt.state();
  lua_stack_guard guard(L);
  open_value_types(L);  // the module table starts as {null, blob}
  lua_pushliteral(L, SQLMORPH_VERSION_STRING);
  lua_setfield(L, -2, "version");
  add_value_functions(L, ctx);
  add_technique_functions(L, ctx);
  add_experiment_functions(L, ctx);
  // Every script of the runtime shares the module: none may change it for the others.
  make_read_only(L, "sqlmorph");
  rt.set_shared_global("sqlmorph");
}

}  // namespace sqlmorph::core
