#include "lua/lua_values.hpp"

#include <new>

namespace sqlmorph::core {
namespace {

constexpr const char* null_type = "sqlmorph.null";
constexpr const char* blob_type = "sqlmorph.blob";
constexpr const char* result_type = "sqlmorph.result";
constexpr const char* null_value_key =
    "sqlmorph.null_value";  // the singleton (null_type names its metatable)

int null_tostring(lua_State* L) {
  lua_pushliteral(L, "NULL");
  return 1;
}

std::string* check_blob(lua_State* L, int index) {
  return static_cast<std::string*>(luaL_checkudata(L, index, blob_type));
}

int blob_gc(lua_State* L) {
  check_blob(L, 1)->~basic_string();
  return 0;
}
int blob_len(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_blob(L, 1)->size()));
  return 1;
}
int blob_tostring(lua_State* L) {
  std::string out;
  append_python_bytes_repr(out, *check_blob(L, 1));
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}
int blob_eq(lua_State* L) {
  // Called for any two userdata compared with ==: only two blobs with the same bytes are equal.
  const auto* a = static_cast<const std::string*>(luaL_testudata(L, 1, blob_type));
  const auto* b = static_cast<const std::string*>(luaL_testudata(L, 2, blob_type));
  lua_pushboolean(L, a != nullptr && b != nullptr && *a == *b);
  return 1;
}
int blob_bytes(lua_State* L) {
  const std::string* b = check_blob(L, 1);
  lua_pushlstring(L, b->data(), b->size());
  return 1;
}

void push_blob(lua_State* L, std::string_view bytes) {
  void* mem = lua_newuserdatauv(L, sizeof(std::string), 0);
  new (mem) std::string(bytes);
  luaL_setmetatable(L, blob_type);
}

int new_blob(lua_State* L) {
  std::size_t n = 0;
  const char* s = luaL_checklstring(L, 1, &n);
  push_blob(L, std::string_view(s, n));
  return 1;
}

const result& check_result(lua_State* L, int index) {
  auto** slot = static_cast<const result**>(luaL_checkudata(L, index, result_type));
  if (*slot == nullptr)
    luaL_error(
        L, "this result is no longer available (a result is only valid during the call it was passed to)");
  return **slot;
}

lua_Integer check_index(lua_State* L, int arg, std::size_t size, const char* what) {
  const lua_Integer i = luaL_checkinteger(L, arg);
  if (i < 1 || static_cast<std::size_t>(i) > size) {
    luaL_error(L, "%s %d out of range 1..%d", what, static_cast<int>(i), static_cast<int>(size));
  }
  return i;
}

void push_strings(lua_State* L, const std::vector<std::string>& v) {
  lua_createtable(L, static_cast<int>(v.size()), 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    lua_pushlstring(L, v[i].data(), v[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

void push_row(lua_State* L, const result& r, std::size_t row) {
  const auto cells = r.row(row);
  lua_createtable(L, static_cast<int>(cells.size()), 0);
  for (std::size_t c = 0; c < cells.size(); ++c) {
    push_value(L, cells[c]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(c + 1));
  }
}

int result_columns(lua_State* L) {
  push_strings(L, check_result(L, 1).column_names());
  return 1;
}
int result_types(lua_State* L) {
  const result& r = check_result(L, 1);
  std::vector<std::string> types = r.column_types();
  types.resize(r.column_count());
  push_strings(L, types);
  return 1;
}
int result_row_count(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_result(L, 1).row_count()));
  return 1;
}
int result_column_count(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_result(L, 1).column_count()));
  return 1;
}
int result_truncated(lua_State* L) {
  lua_pushboolean(L, check_result(L, 1).truncated());
  return 1;
}
int result_row(lua_State* L) {
  const result& r = check_result(L, 1);
  push_row(L, r, static_cast<std::size_t>(check_index(L, 2, r.row_count(), "row") - 1));
  return 1;
}
int result_cell(lua_State* L) {
  const result& r = check_result(L, 1);
  const auto row = check_index(L, 2, r.row_count(), "row");
  const auto col = check_index(L, 3, r.column_count(), "column");
  push_value(L, r.cell(static_cast<std::size_t>(row - 1), static_cast<std::size_t>(col - 1)));
  return 1;
}
int result_rows_step(lua_State* L) {
  const result& r = check_result(L, 1);
  const lua_Integer i = luaL_checkinteger(L, 2) + 1;
  if (static_cast<std::size_t>(i) > r.row_count()) return 0;
  lua_pushinteger(L, i);
  push_row(L, r, static_cast<std::size_t>(i - 1));
  return 2;
}
// for i, row in r:rows() do ... end
int result_rows(lua_State* L) {
  check_result(L, 1);
  lua_pushcfunction(L, &result_rows_step);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

void make_metatable(lua_State* L, const char* name, const luaL_Reg* methods, const luaL_Reg* meta) {
  luaL_newmetatable(L, name);
  if (meta != nullptr) luaL_setfuncs(L, meta, 0);
  if (methods != nullptr) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
  }
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

}  // namespace

void open_value_types(lua_State* L) {
  static const luaL_Reg null_meta[] = {{"__tostring", &null_tostring}, {nullptr, nullptr}};
  static const luaL_Reg blob_meta[] = {{"__gc", &blob_gc},
                                       {"__len", &blob_len},
                                       {"__tostring", &blob_tostring},
                                       {"__eq", &blob_eq},
                                       {nullptr, nullptr}};
  static const luaL_Reg blob_methods[] = {{"bytes", &blob_bytes}, {nullptr, nullptr}};
  static const luaL_Reg result_meta[] = {{"__len", &result_row_count}, {nullptr, nullptr}};
  static const luaL_Reg result_methods[] = {{"columns", &result_columns},
                                            {"types", &result_types},
                                            {"row_count", &result_row_count},
                                            {"column_count", &result_column_count},
                                            {"truncated", &result_truncated},
                                            {"row", &result_row},
                                            {"cell", &result_cell},
                                            {"rows", &result_rows},
                                            {nullptr, nullptr}};
  make_metatable(L, null_type, nullptr, null_meta);
  make_metatable(L, blob_type, blob_methods, blob_meta);
  make_metatable(L, result_type, result_methods, result_meta);
  // The NULL singleton lives in the registry.
  lua_newuserdatauv(L, 1, 0);
  luaL_setmetatable(L, null_type);
  lua_setfield(L, LUA_REGISTRYINDEX, null_value_key);

  lua_newtable(L);
  lua_getfield(L, LUA_REGISTRYINDEX, null_value_key);
  lua_setfield(L, -2, "null");
  lua_pushcfunction(L, &new_blob);
  lua_setfield(L, -2, "blob");
}

void push_value(lua_State* L, const value& v) {
  switch (v.kind()) {
    case value_kind::null:
      lua_getfield(L, LUA_REGISTRYINDEX, null_value_key);
      return;
    case value_kind::integer:
      lua_pushinteger(L, v.as_integer());
      return;
    case value_kind::real:
      lua_pushnumber(L, v.as_real());
      return;
    case value_kind::text:
      lua_pushlstring(L, v.bytes().data(), v.bytes().size());
      return;
    case value_kind::blob:
      push_blob(L, v.bytes());
      return;
  }
}

bool append_lua_value(lua_State* L, int index, result& out, std::string& error) {
  switch (lua_type(L, index)) {
    case LUA_TNIL:
      out.append_null();
      return true;
    case LUA_TBOOLEAN:
      out.append_integer(lua_toboolean(L, index) ? 1 : 0);
      return true;
    case LUA_TNUMBER:
      if (lua_isinteger(L, index))
        out.append_integer(lua_tointeger(L, index));
      else
        out.append_real(lua_tonumber(L, index));
      return true;
    case LUA_TSTRING: {
      std::size_t n = 0;
      const char* s = lua_tolstring(L, index, &n);
      out.append_text(std::string_view(s, n));
      return true;
    }
    case LUA_TUSERDATA:
      if (void* b = luaL_testudata(L, index, blob_type)) {
        out.append_blob(*static_cast<std::string*>(b));
        return true;
      }
      if (luaL_testudata(L, index, null_type) != nullptr) {
        out.append_null();
        return true;
      }
      break;
    default:
      break;
  }
  error = std::string("expected a value (nil, sqlmorph.null, number, string, boolean or blob), got ") +
          luaL_typename(L, index);
  return false;
}

lent_result::lent_result(lua_State* L, const result& r) : L_(L) {
  slot_ = static_cast<const result**>(lua_newuserdatauv(L, sizeof(const result*), 0));
  *slot_ = &r;
  luaL_setmetatable(L, result_type);
  lua_pushvalue(L, -1);
  ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
}

lent_result::~lent_result() {
  *slot_ = nullptr;
  luaL_unref(L_, LUA_REGISTRYINDEX, ref_);
}

}  // namespace sqlmorph::core
