// sqlmorph.str / number / equal / kind and sqlmorph.log.*

#include <charconv>
#include <cstdlib>

#include <spdlog/spdlog.h>

#include "lua/lua_values.hpp"
#include "lua/sqlmorph_module.hpp"

namespace sqlmorph::core {
namespace {

// The Lua value at `index` as a one-cell result (its bytes owned), or a Lua error.
result cell_of(lua_State* L, int index) {
  result r;
  r.set_columns({"v"});
  std::string error;
  if (!append_lua_value(L, index, r, error)) luaL_argerror(L, index, error.c_str());
  return r;
}

int str(lua_State* L, lua_module_context&) {
  luaL_checkany(L, 1);
  const result r = cell_of(L, 1);
  const std::string s = python_str(r.cell(0, 0));
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int kind(lua_State* L, lua_module_context&) {
  luaL_checkany(L, 1);
  const result r = cell_of(L, 1);
  const std::string_view k = kind_name(r.cell(0, 0).kind());
  lua_pushlstring(L, k.data(), k.size());
  return 1;
}

int equal(lua_State* L, lua_module_context&) {
  luaL_checkany(L, 1);
  luaL_checkany(L, 2);
  const result a = cell_of(L, 1);
  const result b = cell_of(L, 2);
  lua_pushboolean(L, reference_equal(a.cell(0, 0), b.cell(0, 0)));
  return 1;
}

// A number from a number or from numeric text ("42", " -1.5e3 "), else nil.
int number(lua_State* L, lua_module_context&) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TNUMBER) {
    lua_pushvalue(L, 1);
    return 1;
  }
  if (lua_type(L, 1) != LUA_TSTRING) {
    lua_pushnil(L);
    return 1;
  }
  std::size_t n = 0;
  const char* s = lua_tolstring(L, 1, &n);
  std::string_view text(s, n);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::int64_t i = 0;
  const char* first = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  if (auto [p, ec] = std::from_chars(first, text.data() + text.size(), i);
      ec == std::errc() && p == text.data() + text.size() && !text.empty()) {
    lua_pushinteger(L, i);
    return 1;
  }
  double d = 0;
  if (auto [p, ec] = std::from_chars(first, text.data() + text.size(), d);
      ec == std::errc() && p == text.data() + text.size() && !text.empty()) {
    lua_pushnumber(L, d);
    return 1;
  }
  lua_pushnil(L);
  return 1;
}

template <spdlog::level::level_enum Level>
int log(lua_State* L, lua_module_context&) {
  // sqlmorph.log.info(fmt, ...) formats like string.format.
  const int n = lua_gettop(L);
  lua_getglobal(L, "string");
  std::string text;
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "format");
    lua_remove(L, -2);
    luaL_checkstack(L, n, "too many values to log");  // a copy of every argument
    for (int i = 1; i <= n; ++i) lua_pushvalue(L, i);
    lua_call(L, n, 1);
    text = luaL_tolstring(L, -1, nullptr);
    lua_pop(L, 2);
  } else {
    lua_pop(L, 1);
    text = luaL_checkstring(L, 1);
  }
  spdlog::log(Level, "{}: {}", caller_origin(L), text);
  return 0;
}

}  // namespace

void add_value_functions(lua_State* L, lua_module_context& ctx) {
  set_module_function(L, ctx, "str", &str);
  set_module_function(L, ctx, "kind", &kind);
  set_module_function(L, ctx, "equal", &equal);
  set_module_function(L, ctx, "number", &number);
  lua_newtable(L);
  set_module_function(L, ctx, "debug", &log<spdlog::level::debug>);
  set_module_function(L, ctx, "info", &log<spdlog::level::info>);
  set_module_function(L, ctx, "warn", &log<spdlog::level::warn>);
  set_module_function(L, ctx, "error", &log<spdlog::level::err>);
  lua_setfield(L, -2, "log");
}

}  // namespace sqlmorph::core
