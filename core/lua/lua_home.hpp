#pragma once
// Where the Lua functions of custom components live, and how each thread reaches them.
//
// A Lua function exists in one lua_State, and a lua_State belongs to one thread. Components
// declared by technique scripts (which only declare, so they can be run again) are *replayed*:
// every other thread that calls them builds its own runtime by loading the same scripts, which
// registers the same functions under the same ids. Components declared by an experiment script
// (`sqlmorph run`) live in that script's runtime only: its own thread calls them directly, other
// threads take turns through a mutex.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lua/lua_runtime.hpp"

namespace sqlmorph::core {

class lua_home {
 public:
  virtual ~lua_home() = default;
  /// Calls `f` with the runtime where this home's functions live for the calling thread.
  virtual void with_runtime(const std::function<void(lua_runtime&)>& f) = 0;
};

/// Registers the function at `index` in the runtime's function table; returns its id (1, 2, ...).
int register_function(lua_State* L, int index);
/// Pushes the function registered as `id`.
void push_function(lua_State* L, int id);

class shared_home final : public lua_home {
 public:
  explicit shared_home(std::shared_ptr<lua_runtime> runtime)
      : runtime_(std::move(runtime)), owner_(std::this_thread::get_id()) {}
  void with_runtime(const std::function<void(lua_runtime&)>& f) override;

 private:
  std::shared_ptr<lua_runtime> runtime_;
  std::thread::id owner_;
  std::mutex mutex_;
};

/// How to rebuild, on another thread, the runtime in which technique scripts declared functions.
struct lua_replay_recipe {
  lua_limits limits;
  std::vector<std::filesystem::path> lib_dirs;
  std::vector<std::filesystem::path> scripts;
  /// Installs the sqlmorph module in replay mode (declarations are not registered again).
  std::function<void(lua_runtime&)> install_module;
};

class replayed_home final : public lua_home {
 public:
  replayed_home(std::shared_ptr<lua_runtime> original, std::shared_ptr<const lua_replay_recipe> recipe)
      : original_(std::move(original)), owner_(std::this_thread::get_id()), recipe_(std::move(recipe)) {}
  void with_runtime(const std::function<void(lua_runtime&)>& f) override;

 private:
  std::shared_ptr<lua_runtime> original_;
  std::thread::id owner_;
  std::shared_ptr<const lua_replay_recipe> recipe_;
};

}  // namespace sqlmorph::core
