#include "embeddings/embedding_setup.hpp"

#include <sqlmorph/embedder.hpp>

namespace sqlmorph::core {

std::shared_ptr<embedding_cache_settings> install_embeddings(component_registry& registry,
                                                             const embedding_config& config,
                                                             std::optional<std::filesystem::path> cache_file,
                                                             bool wrap) {
  auto settings = std::make_shared<embedding_cache_settings>(std::move(cache_file), config.memory_entries);
  std::map<std::string, component_spec, std::less<>> aliases;
  for (const embedder_config& e : config.embedders) aliases[e.name] = component_spec(e.component, e.options);
  const std::string default_name = config.embedder;
  component_registry::kind_hooks hooks;
  // `default` → [embedding] embedder; an [embedders.NAME] → its component with its options (the
  // caller's options over them). One step: an alias names a component, not another alias.
  hooks.resolve = [aliases, default_name](const component_spec& spec) -> std::optional<component_spec> {
    const std::string& name = spec.name == default_embedder_name ? default_name : spec.name;
    if (const auto it = aliases.find(name); it != aliases.end()) {
      component_spec out = it->second;
      for (const auto& [k, v] : spec.options) out.options[k] = v;
      return out;
    }
    if (name != spec.name) return component_spec(name, spec.options);
    return std::nullopt;
  };
  if (wrap) {
    hooks.wrap = [settings](std::shared_ptr<const void> instance) -> std::shared_ptr<const void> {
      auto inner = std::static_pointer_cast<const embedder>(instance);
      return std::static_pointer_cast<const void>(
          std::make_shared<const caching_embedder>(std::move(inner), settings));
    };
  }
  registry.set_hooks(embedder::kind_name, std::move(hooks));
  return settings;
}

std::optional<std::filesystem::path> embedding_cache_file(
    const embedding_config& config, const std::optional<std::string>& flag_file, bool no_cache_flag,
    const std::optional<std::filesystem::path>& gold_cache_dir) {
  if (no_cache_flag) return std::nullopt;
  if (flag_file) return std::filesystem::path(*flag_file);
  if (config.cache_disabled) return std::nullopt;
  if (config.cache) return config.cache;
  if (gold_cache_dir) return *gold_cache_dir / "embeddings.sqlite";
  return std::nullopt;
}

}  // namespace sqlmorph::core
