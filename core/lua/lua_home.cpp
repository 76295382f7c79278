#include "lua/lua_home.hpp"

namespace sqlmorph::core {
namespace {
constexpr const char* functions_key = "sqlmorph.functions";

void push_function_table(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, functions_key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, functions_key);
}
}  // namespace

int register_function(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_stack_guard guard(L);
  push_function_table(L);
  const auto id = static_cast<int>(lua_rawlen(L, -1)) + 1;
  lua_pushvalue(L, index);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  return id;
}

void push_function(lua_State* L, int id) {
  push_function_table(L);
  lua_rawgeti(L, -1, id);
  lua_remove(L, -2);
}

void shared_home::with_runtime(const std::function<void(lua_runtime&)>& f) {
  if (std::this_thread::get_id() == owner_) {
    f(*runtime_);
    return;
  }
  std::lock_guard lock(mutex_);
  f(*runtime_);
}

void replayed_home::with_runtime(const std::function<void(lua_runtime&)>& f) {
  if (std::this_thread::get_id() == owner_) {
    f(*original_);
    return;
  }
  // One runtime per thread and recipe, built on first use by loading the same scripts again.
  thread_local std::map<const lua_replay_recipe*, std::unique_ptr<lua_runtime>> runtimes;
  std::unique_ptr<lua_runtime>& rt = runtimes[recipe_.get()];
  if (!rt) {
    auto fresh = std::make_unique<lua_runtime>(recipe_->limits, recipe_->lib_dirs);
    recipe_->install_module(*fresh);
    for (const auto& script : recipe_->scripts) fresh->run_file(script, 0);
    rt = std::move(fresh);
  }
  f(*rt);
}

}  // namespace sqlmorph::core
