#pragma once
// Values and results as Lua sees them.
//
//   NULL    -> sqlmorph.null (a unique userdata; `v == sqlmorph.null`)
//   integer -> Lua integer, real -> Lua float (math.type tells them apart; 1 == 1.0 holds)
//   text    -> Lua string (bytes, as stored)
//   blob    -> a sqlmorph.blob userdata (#b, b:bytes(), tostring(b) = Python's repr)
//   result  -> a read-only sqlmorph.result userdata, valid only during the call it was passed to

#include <lua.hpp>

#include <string>

#include <sqlmorph/result.hpp>

namespace sqlmorph::core {

/// Registers the metatables of the value types (once per state) and leaves the table
/// {null = ..., blob = function} on the stack.
void open_value_types(lua_State* L);

void push_value(lua_State* L, const value& v);

/// Appends the Lua value at `index` to `out` as a cell. Returns false, with a reason in `error`,
/// for a Lua value that is not a cell (a table, a function, ...).
bool append_lua_value(lua_State* L, int index, result& out, std::string& error);

/// A result lent to Lua for the duration of one call: pushes the userdata, and on destruction
/// marks it expired so a script that kept it gets an error instead of a dangling pointer.
class lent_result {
 public:
  lent_result(lua_State* L, const result& r);
  ~lent_result();
  lent_result(const lent_result&) = delete;
  lent_result& operator=(const lent_result&) = delete;

 private:
  lua_State* L_;
  const result** slot_;
  int ref_;  // keeps the userdata alive until it is marked expired
};

}  // namespace sqlmorph::core
