#include "lua/lua_components.hpp"

#include <cmath>

#include "lua/lua_values.hpp"

namespace sqlmorph::core {
namespace {

[[noreturn]] void fail(const lua_function_ref& fn, const std::string& what) {
  throw script_error(fn.origin + ": " + what, "");
}

// The key of a value under a key function, as a one-cell result (so its bytes are owned).
result key_of(const lua_function_ref& fn, const value& v) {
  result key;
  key.set_columns({"key"});
  fn.home->with_runtime([&](lua_runtime& rt) {
    lua_State* L = rt.state();
    lua_stack_guard guard(L);
    push_function(L, fn.id);
    push_value(L, v);
    rt.protected_call(1, 1);
    std::string error;
    const bool ok = append_lua_value(L, -1, key, error);
    lua_pop(L, 1);
    if (!ok) fail(fn, "the key function returned no value: " + error);
  });
  return key;
}

}  // namespace

result lua_normalizer::do_normalize_(const result& in) const {
  result out;
  out.set_columns(in.column_names(), in.column_types());
  out.reserve_rows(in.row_count());
  fn_.home->with_runtime([&](lua_runtime& rt) {
    lua_State* L = rt.state();
    lua_stack_guard guard(L);
    std::string error;
    for (const value& v : in.cells()) {
      push_function(L, fn_.id);
      push_value(L, v);
      rt.protected_call(1, 1);
      const bool ok = append_lua_value(L, -1, out, error);
      lua_pop(L, 1);
      if (!ok) fail(fn_, "the normalizer returned no value: " + error);
    }
  });
  out.set_truncated(in.truncated());
  return out;
}

std::uint64_t lua_cell_matcher::equivalence_hash(const value& v) const {
  return reference_hash(key_of(fn_, v).cell(0, 0));
}

double lua_cell_matcher::do_similarity_(const value& gold, const value& pred) const {
  if (mode_ == mode::key) {
    return reference_equal(key_of(fn_, gold).cell(0, 0), key_of(fn_, pred).cell(0, 0)) ? 1.0 : 0.0;
  }
  double s = 0;
  fn_.home->with_runtime([&](lua_runtime& rt) {
    lua_State* L = rt.state();
    lua_stack_guard guard(L);
    push_function(L, fn_.id);
    push_value(L, gold);
    push_value(L, pred);
    rt.protected_call(2, 1);
    const int type = lua_type(L, -1);
    if (type == LUA_TBOOLEAN)
      s = lua_toboolean(L, -1) ? 1.0 : 0.0;
    else if (type == LUA_TNUMBER)
      s = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (type != LUA_TBOOLEAN && type != LUA_TNUMBER)
      fail(fn_, "the cell matcher must return a number or a boolean");
  });
  return s;
}

scores lua_scorer::do_score_(const match_input& in, const column_alignment& columns,
                             const row_match& rows) const {
  scores out;
  fn_.home->with_runtime([&](lua_runtime& rt) {
    lua_State* L = rt.state();
    lua_stack_guard guard(L);
    push_function(L, fn_.id);
    const lent_result gold(L, in.gold);
    const lent_result pred(L, in.pred);
    // context: the SQL, the alignment and what the row matcher found
    lua_createtable(L, 0, 7);
    lua_pushlstring(L, in.gold_sql.data(), in.gold_sql.size());
    lua_setfield(L, -2, "gold_sql");
    lua_pushlstring(L, in.pred_sql.data(), in.pred_sql.size());
    lua_setfield(L, -2, "pred_sql");
    lua_pushstring(L, std::string(alignment_mode_name(columns.how)).c_str());
    lua_setfield(L, -2, "alignment");
    lua_createtable(L, static_cast<int>(columns.pairs.size()), 0);
    for (std::size_t i = 0; i < columns.pairs.size(); ++i) {
      lua_createtable(L, 0, 3);
      lua_pushinteger(L, static_cast<lua_Integer>(columns.pairs[i].gold + 1));
      lua_setfield(L, -2, "gold");
      lua_pushinteger(L, static_cast<lua_Integer>(columns.pairs[i].pred + 1));
      lua_setfield(L, -2, "pred");
      lua_pushnumber(L, columns.pairs[i].similarity);
      lua_setfield(L, -2, "similarity");
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setfield(L, -2, "columns");
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, rows.counts.matched);
    lua_setfield(L, -2, "matched");
    lua_pushnumber(L, rows.counts.gold_cells);
    lua_setfield(L, -2, "gold_cells");
    lua_pushnumber(L, rows.counts.pred_cells);
    lua_setfield(L, -2, "pred_cells");
    lua_pushnumber(L, rows.counts.pred_cells_aligned);
    lua_setfield(L, -2, "pred_cells_aligned");
    lua_setfield(L, -2, "counts");
    if (rows.equivalent) {
      lua_pushboolean(L, *rows.equivalent);
      lua_setfield(L, -2, "equivalent");
    }
    rt.protected_call(3, 1);
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      fail(fn_, "the scorer must return a table like {EX = 1, F1 = 0.5}");
    }
    const auto metric = [&](const char* name, bool defined, std::optional<double>& slot) {
      lua_getfield(L, -1, name);
      if (!lua_isnil(L, -1)) {
        if (!lua_isnumber(L, -1) && !lua_isboolean(L, -1)) {
          lua_pop(L, 2);
          fail(fn_, std::string("the scorer returned a non-number ") + name);
        }
        const double v = lua_isboolean(L, -1) ? (lua_toboolean(L, -1) ? 1.0 : 0.0) : lua_tonumber(L, -1);
        if (!(v >= 0.0 && v <= 1.0)) {
          lua_pop(L, 2);
          fail(fn_,
               std::string("the scorer returned ") + name + " = " + std::to_string(v) + ", outside [0, 1]");
        }
        if (!defined) {
          lua_pop(L, 2);
          fail(fn_,
               std::string("the scorer returned ") + name + ", which its declaration's metrics do not list");
        }
        slot = v;
      }
      lua_pop(L, 1);
    };
    metric("EX", metrics_.ex, out.ex);
    metric("EXP", metrics_.exp, out.exp);
    metric("EXR", metrics_.exr, out.exr);
    metric("F1", metrics_.f1, out.f1);
    // Every other string key is an extra output field.
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING) {
        const std::string key = lua_tostring(L, -2);
        if (key != "EX" && key != "EXP" && key != "EXR" && key != "F1") {
          switch (lua_type(L, -1)) {
            case LUA_TBOOLEAN:
              out.extra.push_back({key, static_cast<bool>(lua_toboolean(L, -1))});
              break;
            case LUA_TNUMBER:
              if (lua_isinteger(L, -1))
                out.extra.push_back({key, static_cast<std::int64_t>(lua_tointeger(L, -1))});
              else
                out.extra.push_back({key, lua_tonumber(L, -1)});
              break;
            case LUA_TSTRING:
              out.extra.push_back({key, std::string(lua_tostring(L, -1))});
              break;
            default:
              lua_pop(L, 3);
              fail(fn_, "extra field '" + key + "' must be a boolean, number or string");
          }
        }
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  });
  // Undeclared metrics stay null; declared ones the script left out count as 0.
  if (metrics_.ex && !out.ex) out.ex = 0.0;
  if (metrics_.exp && !out.exp) out.exp = 0.0;
  if (metrics_.exr && !out.exr) out.exr = 0.0;
  if (metrics_.f1 && !out.f1) out.f1 = 0.0;
  return out;
}

}  // namespace sqlmorph::core
