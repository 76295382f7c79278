#include "app/environment.hpp"

#include <spdlog/spdlog.h>

#include "app/sqlite_memory.hpp"
#include "app/sqlite_mutexes.hpp"
#include "embeddings/embedding_setup.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

std::unique_ptr<environment> environment::load(const std::optional<std::filesystem::path>& config_file) {
  // Before any plugin or cache opens a database.
  apply_sqlite_mutexes();
  apply_sqlite_memory();
  auto env = std::make_unique<environment>();
  env->config_ = resolve_config(config_file);
  if (!env->config_.source.empty()) spdlog::debug("configuration: {}", env->config_.source.string());
  env->registry_.load_directories(env->config_.plugin_dirs);
  // Not one plugin folder: nothing could work, and the first unknown component would hide why.
  if (env->registry_.missing_directories().size() == env->config_.plugin_dirs.size()) {
    std::string folders;
    for (const auto& d : env->config_.plugin_dirs) folders += (folders.empty() ? "" : ", ") + d.string();
    throw usage_error((env->config_.source.empty() ? std::string("the default plugin folders")
                                                   : "[plugins] dirs of " + env->config_.source.string()) +
                      ": no plugin folder exists (" +
                      (folders.empty() ? std::string("the list is empty") : folders) + ")");
  }
  env->embedding_cache_ = install_embeddings(
      env->registry_, env->config_.embedding,
      embedding_cache_file(env->config_.embedding, std::nullopt, false, env->config_.run.cache_dir));
  env->scripts_ = std::make_unique<script_host>(env->config_, env->registry_, env->catalog_);
  env->scripts_->load_technique_scripts();
  for (const technique_spec& t : env->config_.techniques) env->catalog_.add(t);
  if (env->catalog_.names().empty()) {
    spdlog::warn("no technique is declared: are [lua] technique_dirs in the configuration right?");
  }
  return env;
}

void environment::use_embedding_cache(const std::optional<std::string>& flag_file, bool no_cache_flag,
                                      const std::optional<std::filesystem::path>& gold_cache_dir) {
  embedding_cache_->set_file(
      embedding_cache_file(config_.embedding, flag_file, no_cache_flag, gold_cache_dir));
  if (const auto& file = embedding_cache_->file()) spdlog::debug("embedding cache: {}", file->string());
}

std::shared_ptr<const backend_routes> environment::routes(const route_choice& choice,
                                                          const std::vector<std::string>& also) const {
  return backend_routes::make(config_, registry_, choice, also);
}

}  // namespace sqlmorph::core
