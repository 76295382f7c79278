#pragma once
// The `sqlmorph` module scripts see: component constructors over the registered plugins,
// sqlmorph.technique{...}, custom Lua components, value helpers, logging, and the experiment API.
// Documented in docs/lua-api.md.

#include <map>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "lua/lua_home.hpp"
#include "lua/lua_runtime.hpp"
#include "plugins/component_registry.hpp"
#include "techniques/technique_catalog.hpp"

namespace sqlmorph::core {

/// What the module's functions work with. Must outlive every call into the runtime.
struct lua_module_context {
  const component_registry* registry = nullptr;
  /// Declarations go here; null while replaying scripts on another thread.
  technique_catalog* catalog = nullptr;
  const sqlmorph::core::config* config = nullptr;
  /// Where the functions of custom components declared now will live.
  std::shared_ptr<lua_home> home;
  /// Instances of custom components, by function id.
  std::map<int, std::shared_ptr<const void>> instances;
  bool replay() const noexcept { return catalog == nullptr; }
  /// True while an experiment script runs (`sqlmorph run`): sqlmorph.evaluate and
  /// sqlmorph.write_file work only then, never while technique files are declared.
  bool in_experiment = false;
  /// Whether sqlmorph.evaluate checks the remote services first (`run --no-preflight` clears it).
  bool preflight = true;
};

/// Makes `sqlmorph` a global of every script run by `rt`.
void install_sqlmorph_module(lua_runtime& rt, lua_module_context& ctx);

// The parts of the module, one per file.
void add_value_functions(lua_State* L, lua_module_context& ctx);  // str, number, equal, kind, log
void add_technique_functions(lua_State* L,
                             lua_module_context& ctx);  // namespaces, technique, custom components
void add_experiment_functions(lua_State* L,
                              lua_module_context& ctx);  // spider, cases, evaluate, format_table, write_file

/// The module context of a function registered with it (upvalue 1).
lua_module_context& module_context(lua_State* L);

/// Registers `fn` (taking the context) as field `name` of the table on top of the stack. Bindings
/// may throw std::exception: the message becomes a Lua error once C++ destructors have run.
using module_function = int (*)(lua_State*, lua_module_context&);
void set_module_function(lua_State* L, lua_module_context& ctx, const char* name, module_function fn);

/// The component_spec of a component object (sqlmorph.judges.NAME{...}) or a name at `index`,
/// which must be of `kind`; `what` names it in messages. Throws usage_error.
component_spec lua_component_spec(lua_State* L, int index, const std::string& kind, const std::string& what,
                                  lua_module_context& ctx);

/// "file.lua:12" of the Lua code calling the current C function.
std::string caller_origin(lua_State* L);

}  // namespace sqlmorph::core
