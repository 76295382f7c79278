// sqlmorph.columns / rows / cells / scorers / normalizers / rewriters / backends / embedders / judges
// (constructors of registered components), sqlmorph.technique{...}, and custom components written
// in Lua: sqlmorph.normalizer, sqlmorph.cell_matcher, sqlmorph.scorer.

#include <cmath>
#include <set>

#include "lua/lua_components.hpp"
#include "lua/lua_values.hpp"
#include "lua/sqlmorph_module.hpp"
#include "plugins/option_model.hpp"
#include "techniques/technique.hpp"

namespace sqlmorph::core {
namespace {

constexpr const char* component_type = "sqlmorph.component";

struct namespace_kind {
  const char* lua_name;
  const char* kind;
};
constexpr namespace_kind namespaces[] = {
    {"columns", "column_matcher"}, {"rows", "row_matcher"},
    {"cells", "cell_matcher"},     {"scorers", "scorer"},
    {"normalizers", "normalizer"}, {"rewriters", "sql_rewriter"},
    {"backends", "backend"},       {"embedders", "embedder"},
    {"judges", "judge"},           {"candidates", "sql_candidates"},
};

const char* namespace_of(const std::string& kind) {
  for (const auto& n : namespaces) {
    if (kind == n.kind) return n.lua_name;
  }
  return "?";
}

std::string option_names(const component_info& info) {
  if (info.options.empty()) return "it takes no options";
  std::string out = "its options are: ";
  for (std::size_t i = 0; i < info.options.size(); ++i) out += (i ? ", " : "") + info.options[i].name;
  return out;
}

// A component object is a table whose metatable is the registered sqlmorph.component.
bool is_component(lua_State* L, int index) {
  if (!lua_istable(L, index) || !lua_getmetatable(L, index)) return false;
  luaL_getmetatable(L, component_type);
  const bool yes = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return yes;
}

std::string field_string(lua_State* L, int index, const char* field) {
  lua_getfield(L, index, field);
  std::string out = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  return out;
}

// Checks the options a script gives a registered component against its declarations.
void check_options(lua_State* L, int options, const component_info& info) {
  const std::string who = std::string(namespace_of(info.kind)) + "." + info.name;
  lua_pushnil(L);
  while (lua_next(L, options) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "%s: options are named (option = value)", who.c_str());
    const std::string name = lua_tostring(L, -2);
    const option_decl* decl = info.find_option(name);
    if (decl == nullptr)
      luaL_error(L, "%s: unknown option '%s'; %s", who.c_str(), name.c_str(), option_names(info).c_str());
    const int t = lua_type(L, -1);
    bool ok = false;
    switch (decl->parsed_type) {
      case option_type::boolean:
        ok = t == LUA_TBOOLEAN;
        break;
      case option_type::integer:
        ok = t == LUA_TNUMBER &&
             (lua_isinteger(L, -1) || std::floor(lua_tonumber(L, -1)) == lua_tonumber(L, -1));
        break;
      case option_type::real:
        ok = t == LUA_TNUMBER;
        break;
      case option_type::string:
        ok = t == LUA_TSTRING;
        break;
      case option_type::component:
        ok =
            t == LUA_TSTRING || (is_component(L, -1) && field_string(L, lua_gettop(L), "kind") == decl->type);
        break;
    }
    if (!ok) {
      // Lua names the constructor a script can call for a component option.
      const std::string expected =
          is_scalar(decl->parsed_type)
              ? "a " + decl->type
              : "a " + decl->type + " (sqlmorph." + namespace_of(decl->type) + ".NAME{...}) or its name";
      const std::string got =
          is_component(L, -1) ? "a " + field_string(L, lua_gettop(L), "kind") : luaL_typename(L, -1);
      luaL_error(L, "%s: option '%s' must be %s, got %s", who.c_str(), name.c_str(), expected.c_str(),
                 got.c_str());
    }
    lua_pop(L, 1);
  }
}

// Pushes a component object {kind, name, options} / {kind, name, custom}.
void push_component(lua_State* L, const std::string& kind, const std::string& name, int options_index,
                    int custom_id) {
  lua_createtable(L, 0, 4);
  lua_pushstring(L, kind.c_str());
  lua_setfield(L, -2, "kind");
  lua_pushstring(L, name.c_str());
  lua_setfield(L, -2, "name");
  if (options_index != 0) {
    lua_pushvalue(L, options_index);
    lua_setfield(L, -2, "options");
  }
  if (custom_id != 0) {
    lua_pushinteger(L, custom_id);
    lua_setfield(L, -2, "custom");
  }
  luaL_setmetatable(L, component_type);
}

// sqlmorph.rows.greedy_partial{cells = ...}: upvalues ctx, kind, name.
int construct_registered(lua_State* L) {
  auto& ctx = *static_cast<lua_module_context*>(lua_touserdata(L, lua_upvalueindex(1)));
  const std::string kind = lua_tostring(L, lua_upvalueindex(2));
  const std::string name = lua_tostring(L, lua_upvalueindex(3));
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  const component_info* info = ctx.registry->find(kind, name);
  if (info != nullptr) check_options(L, 1, *info);
  // A private copy, so a script changing its table later does not change the component.
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  push_component(L, kind, name, lua_gettop(L), 0);
  return 1;
}

// __index of a namespace table: the constructor of a registered component, or an error naming
// the registered ones. upvalues: ctx, kind
int namespace_index(lua_State* L) {
  auto& ctx = *static_cast<lua_module_context*>(lua_touserdata(L, lua_upvalueindex(1)));
  const std::string kind = lua_tostring(L, lua_upvalueindex(2));
  if (lua_type(L, 2) != LUA_TSTRING) return luaL_error(L, "component names are strings");
  const std::string name = lua_tostring(L, 2);
  if (ctx.registry->find(kind, name) == nullptr) {
    std::string known;
    for (const component_info* c : ctx.registry->list(kind)) known += (known.empty() ? "" : ", ") + c->name;
    return luaL_error(L, "unknown %s '%s' (sqlmorph.%s.%s); registered: %s", kind.c_str(), name.c_str(),
                      namespace_of(kind), name.c_str(), known.empty() ? "none" : known.c_str());
  }
  lua_pushlightuserdata(L, &ctx);
  lua_pushstring(L, kind.c_str());
  lua_pushstring(L, name.c_str());
  lua_pushcclosure(L, &construct_registered, 3);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, 1);  // cache the constructor
  return 1;
}

int component_tostring(lua_State* L) {
  lua_pushfstring(L, "%s %s", field_string(L, 1, "kind").c_str(), field_string(L, 1, "name").c_str());
  return 1;
}

// The component_spec of a component object (or name) at `index`, which must be of `kind`.
component_spec spec_of(lua_State* L, int index, const std::string& kind, const std::string& what,
                       lua_module_context& ctx) {
  index = lua_absindex(L, index);
  if (lua_type(L, index) == LUA_TSTRING) return component_spec(lua_tostring(L, index));
  if (!is_component(L, index)) {
    throw usage_error(what + " must be a " + kind + " (sqlmorph." + namespace_of(kind) + ".NAME{...}), got " +
                      luaL_typename(L, index));
  }
  const std::string actual = field_string(L, index, "kind");
  const std::string name = field_string(L, index, "name");
  if (actual != kind)
    throw usage_error(what + " must be a " + kind + ", got the " + actual + " '" + name + "'");
  component_spec spec(name);
  lua_getfield(L, index, "custom");
  if (lua_isinteger(L, -1)) {
    const int id = static_cast<int>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    if (!ctx.replay()) {
      spec.instance = ctx.instances.at(id);
      spec.instance_kind = kind;
    }
    return spec;
  }
  lua_pop(L, 1);
  lua_getfield(L, index, "options");
  const int options = lua_gettop(L);
  if (lua_istable(L, options)) {
    lua_pushnil(L);
    while (lua_next(L, options) != 0) {
      const std::string key = lua_tostring(L, -2);
      spec_value v;
      switch (lua_type(L, -1)) {
        case LUA_TBOOLEAN:
          v = static_cast<bool>(lua_toboolean(L, -1));
          break;
        case LUA_TNUMBER:
          if (lua_isinteger(L, -1))
            v = static_cast<std::int64_t>(lua_tointeger(L, -1));
          else
            v = lua_tonumber(L, -1);
          break;
        case LUA_TSTRING:
          v = std::string(lua_tostring(L, -1));
          break;
        default: {
          const component_info* info = ctx.registry->find(kind, name);
          const option_decl* decl = info ? info->find_option(key) : nullptr;
          v = std::make_shared<const component_spec>(spec_of(
              L, -1, decl ? decl->type : field_string(L, lua_gettop(L), "kind"), what + "." + key, ctx));
        }
      }
      spec.options[key] = std::move(v);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return spec;
}

std::vector<component_spec> spec_list(lua_State* L, int table, const char* field, const std::string& kind,
                                      lua_module_context& ctx) {
  std::vector<component_spec> out;
  lua_getfield(L, table, field);
  if (!lua_isnil(L, -1)) {
    if (!lua_istable(L, -1) || is_component(L, -1)) {
      throw usage_error(std::string("'") + field + "' must be a list of " + kind + "s");
    }
    const auto n = static_cast<int>(lua_rawlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      out.push_back(spec_of(L, -1, kind, std::string(field) + "[" + std::to_string(i) + "]", ctx));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return out;
}

// sqlmorph.technique{ name, description, rewriters, databases, candidates, normalize, columns, rows,
// scorer }
int technique_declaration(lua_State* L, lua_module_context& ctx) {
  luaL_checktype(L, 1, LUA_TTABLE);
  static const std::set<std::string> fields = {"name",       "description", "rewriters",   "databases",
                                               "candidates", "normalize",   "normalizers", "columns",
                                               "rows",       "scorer",      "opt_in"};
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const std::string key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    if (!fields.count(key)) {
      throw usage_error("sqlmorph.technique: unknown field '" + key +
                        "' (fields: name, description, rewriters, databases, candidates, normalize, columns, "
                        "rows, scorer, opt_in)");
    }
    lua_pop(L, 1);
  }
  technique_spec spec;
  spec.name = field_string(L, 1, "name");
  if (spec.name.empty()) throw usage_error("sqlmorph.technique: 'name' is required (a string)");
  spec.description = field_string(L, 1, "description");
  spec.origin = caller_origin(L);
  const std::string who = "technique '" + spec.name + "'";
  spec.rewriters = spec_list(L, 1, "rewriters", "sql_rewriter", ctx);
  lua_getfield(L, 1, "databases");
  const bool databases_given = !lua_isnil(L, -1);
  const std::string databases = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  if (databases == "variants") {
    spec.databases = database_scope::variants;
  } else if (databases_given && databases != "example") {
    throw usage_error(who + ": 'databases' must be \"example\" (the default) or \"variants\", not '" +
                      databases + "'");
  }
  lua_getfield(L, 1, "opt_in");
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
    throw usage_error(who +
                      ": 'opt_in' must be a boolean (true: run only when named, not as part of \"all\")");
  spec.opt_in = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  lua_getfield(L, 1, "candidates");
  if (!lua_isnil(L, -1)) spec.candidates = spec_of(L, -1, "sql_candidates", who + ": 'candidates'", ctx);
  lua_pop(L, 1);
  spec.normalizers = spec_list(L, 1, "normalize", "normalizer", ctx);
  for (auto& n : spec_list(L, 1, "normalizers", "normalizer", ctx)) spec.normalizers.push_back(std::move(n));
  const auto required = [&](const char* field, const char* kind) {
    lua_getfield(L, 1, field);
    if (lua_isnil(L, -1)) throw usage_error(who + ": '" + field + "' is required (a " + kind + ")");
    component_spec c = spec_of(L, -1, kind, who + ": '" + field + "'", ctx);
    lua_pop(L, 1);
    return c;
  };
  spec.columns = required("columns", "column_matcher");
  spec.rows = required("rows", "row_matcher");
  spec.scorer = required("scorer", "scorer");
  if (!ctx.replay()) {
    // Every problem is reported here, at the declaration (the Lua error adds file:line).
    technique_spec check = spec;
    check.origin.clear();
    technique::assemble(check, *ctx.registry);
    ctx.catalog->add(spec);
  }
  lua_pushstring(L, spec.name.c_str());
  return 1;
}

int technique_names(lua_State* L, lua_module_context& ctx) {
  lua_newtable(L);
  if (ctx.catalog == nullptr) return 1;
  const auto names = ctx.catalog->names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    lua_pushstring(L, names[i].c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// The function of sqlmorph.normalizer(fn) / sqlmorph.normalizer{fn} / {fn = ...}; pushes nothing.
int function_argument(lua_State* L, const char* what, const char* field) {
  if (lua_isfunction(L, 1)) return 1;
  if (lua_istable(L, 1)) {
    lua_getfield(L, 1, field);
    if (lua_isfunction(L, -1)) return lua_gettop(L);
    lua_pop(L, 1);
    lua_rawgeti(L, 1, 1);
    if (lua_isfunction(L, -1)) return lua_gettop(L);
    lua_pop(L, 1);
  }
  throw usage_error(std::string(what) + " needs a function: " + what + "(function(...) ... end) or " + what +
                    "{" + field + " = function(...) ... end}");
}

template <class Make>
int custom_component(lua_State* L, lua_module_context& ctx, const char* kind, int fn_index, Make&& make) {
  const int id = register_function(L, fn_index);
  const std::string origin = caller_origin(L);
  if (!ctx.replay()) ctx.instances[id] = make(lua_function_ref{ctx.home, id, origin});
  push_component(L, kind, std::string("Lua ") + kind + " at " + origin, 0, id);
  return 1;
}

int new_normalizer(lua_State* L, lua_module_context& ctx) {
  const int fn = function_argument(L, "sqlmorph.normalizer", "fn");
  return custom_component(L, ctx, "normalizer", fn, [](lua_function_ref ref) {
    return std::shared_ptr<const void>(
        std::shared_ptr<const normalizer>(std::make_shared<lua_normalizer>(std::move(ref))));
  });
}

int new_cell_matcher(lua_State* L, lua_module_context& ctx) {
  lua_cell_matcher::mode mode = lua_cell_matcher::mode::similarity;
  int fn = 0;
  if (lua_istable(L, 1)) {
    lua_getfield(L, 1, "key");
    if (lua_isfunction(L, -1)) {
      mode = lua_cell_matcher::mode::key;
      fn = lua_gettop(L);
    } else {
      lua_pop(L, 1);
    }
  }
  if (fn == 0) fn = function_argument(L, "sqlmorph.cell_matcher", "similarity");
  return custom_component(L, ctx, "cell_matcher", fn, [mode](lua_function_ref ref) {
    return std::shared_ptr<const void>(
        std::shared_ptr<const cell_matcher>(std::make_shared<lua_cell_matcher>(std::move(ref), mode)));
  });
}

int new_scorer(lua_State* L, lua_module_context& ctx) {
  const int fn = function_argument(L, "sqlmorph.scorer", "fn");
  metric_set metrics{true, true, true, true};
  if (lua_istable(L, 1)) {
    lua_getfield(L, 1, "metrics");
    if (lua_istable(L, -1)) {
      metrics = {false, false, false, false};
      const auto n = static_cast<int>(lua_rawlen(L, -1));
      for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, -1, i);
        const std::string m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        lua_pop(L, 1);
        if (m == "EX")
          metrics.ex = true;
        else if (m == "EXP")
          metrics.exp = true;
        else if (m == "EXR")
          metrics.exr = true;
        else if (m == "F1")
          metrics.f1 = true;
        else
          throw usage_error("sqlmorph.scorer: metrics are \"EX\", \"EXP\", \"EXR\", \"F1\", not '" + m + "'");
      }
    } else if (!lua_isnil(L, -1)) {
      throw usage_error("sqlmorph.scorer: 'metrics' must be a list such as {\"EX\", \"F1\"}");
    }
    lua_pop(L, 1);
  }
  return custom_component(L, ctx, "scorer", fn, [metrics](lua_function_ref ref) {
    return std::shared_ptr<const void>(
        std::shared_ptr<const scorer>(std::make_shared<lua_scorer>(std::move(ref), metrics)));
  });
}

}  // namespace

void add_technique_functions(lua_State* L, lua_module_context& ctx) {
  static const luaL_Reg component_meta[] = {{"__tostring", &component_tostring}, {nullptr, nullptr}};
  luaL_newmetatable(L, component_type);
  luaL_setfuncs(L, component_meta, 0);
  lua_pop(L, 1);
  for (const auto& n : namespaces) {
    lua_newtable(L);
    lua_newtable(L);  // its metatable
    lua_pushlightuserdata(L, &ctx);
    lua_pushstring(L, n.kind);
    lua_pushcclosure(L, &namespace_index, 2);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, n.lua_name);
  }
  set_module_function(L, ctx, "technique", &technique_declaration);
  set_module_function(L, ctx, "techniques", &technique_names);
  set_module_function(L, ctx, "normalizer", &new_normalizer);
  set_module_function(L, ctx, "cell_matcher", &new_cell_matcher);
  set_module_function(L, ctx, "scorer", &new_scorer);
}

component_spec lua_component_spec(lua_State* L, int index, const std::string& kind, const std::string& what,
                                  lua_module_context& ctx) {
  return spec_of(L, index, kind, what, ctx);
}

}  // namespace sqlmorph::core
