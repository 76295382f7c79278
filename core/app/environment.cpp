#include "app/environment.hpp"

#include <spdlog/spdlog.h>

namespace sqlmorph::core {

std::unique_ptr<environment> environment::load(const std::optional<std::filesystem::path>& config_file) {
  auto env = std::make_unique<environment>();
  env->config_ = resolve_config(config_file);
  if (!env->config_.source.empty()) spdlog::debug("configuration: {}", env->config_.source.string());
  env->registry_.load_directories(env->config_.plugin_dirs);
  env->scripts_ = std::make_unique<script_host>(env->config_, env->registry_, env->catalog_);
  env->scripts_->load_technique_scripts();
  for (const technique_spec& t : env->config_.techniques) env->catalog_.add(t);
  if (env->catalog_.names().empty()) {
    spdlog::warn("no technique is declared: are [lua] technique_dirs in the configuration right?");
  }
  return env;
}

std::shared_ptr<const backend_routes> environment::routes(const route_choice& choice, const std::vector<std::string>& also) const {
  return backend_routes::make(config_, registry_, choice, also);
}

}  // namespace sqlmorph::core
