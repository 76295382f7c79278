#include "lua/script_host.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

namespace sqlmorph::core {

script_host::script_host(const sqlmorph::core::config& config, const component_registry& registry,
                         technique_catalog& catalog)
    : config_(config),
      registry_(registry),
      catalog_(catalog),
      recipe_(std::make_shared<lua_replay_recipe>()) {
  recipe_->limits = limits();
  recipe_->lib_dirs = config.lua.lib_dirs;
  // On another thread the same scripts are loaded again, only to register the same functions.
  const component_registry* reg = &registry_;
  const sqlmorph::core::config* cfg = &config_;
  recipe_->install_module = [reg, cfg](lua_runtime& rt) {
    auto replay = std::make_shared<lua_module_context>();
    replay->registry = reg;
    replay->config = cfg;
    install_sqlmorph_module(rt, *replay);
    rt.attach(replay);
  };
  runtime_ = std::make_shared<lua_runtime>(recipe_->limits, config.lua.lib_dirs);
  context_.registry = &registry_;
  context_.catalog = &catalog_;
  context_.config = &config_;
  install_sqlmorph_module(*runtime_, context_);
}

lua_limits script_host::limits() const {
  lua_limits l;
  l.memory_bytes = static_cast<std::size_t>(config_.lua.memory_limit_mb) * 1024 * 1024;
  l.instructions_per_call = config_.lua.instruction_limit;
  return l;
}

void script_host::load_technique_scripts() {
  std::set<std::string> seen;
  std::vector<std::filesystem::path> files;
  for (const auto& dir : config_.lua.technique_dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      spdlog::debug("technique folder {} does not exist; skipped", dir.string());
      continue;
    }
    std::vector<std::filesystem::path> here;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.is_regular_file(ec) && e.path().extension() == ".lua") here.push_back(e.path());
    }
    std::sort(here.begin(), here.end());
    for (const auto& f : here) {
      if (seen.insert(f.filename().string()).second) files.push_back(f);
    }
  }
  context_.home = std::make_shared<replayed_home>(runtime_, recipe_);
  for (const auto& f : files) {
    spdlog::debug("loading technique script {}", f.string());
    runtime_->run_file(f, 0);
    recipe_->scripts.push_back(f);
  }
  context_.home.reset();
  context_.instances.clear();
}

void script_host::run_experiment(const std::filesystem::path& script, const std::vector<std::string>& args,
                                 bool preflight) {
  context_.home = std::make_shared<shared_home>(runtime_);
  context_.in_experiment = true;
  context_.preflight = preflight;
  struct reset {
    lua_module_context& c;
    ~reset() {
      c.home.reset();
      c.instances.clear();
      c.in_experiment = false;
      c.preflight = true;
    }
  } guard{context_};
  runtime_->run_file(script, 0, args);
}

}  // namespace sqlmorph::core
