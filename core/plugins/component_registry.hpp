#pragma once
// Every component of every loaded plugin library, one registry per kind, and the creation of
// component instances from user specs (options validated against the declarations).

#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sqlmorph/options.hpp>

#include "plugins/component_spec.hpp"
#include "plugins/plugin_loader.hpp"

namespace sqlmorph::core {

class component_registry {
 public:
  component_registry() = default;
  component_registry(const component_registry&) = delete;
  component_registry& operator=(const component_registry&) = delete;

  /// Loads every `*.so` in each directory (directories in order, files by name). Missing
  /// directories are skipped (and recorded: missing_directories()); refused libraries are recorded
  /// (see refusals()) and logged.
  void load_directories(const std::vector<std::filesystem::path>& dirs);
  /// The directories given to load_directories that do not exist.
  const std::vector<std::filesystem::path>& missing_directories() const noexcept { return missing_dirs_; }
  /// " (plugin folders that do not exist: A, B)", or "" when every folder exists: for messages about
  /// a component that was not found.
  std::string missing_directories_note() const;

  /// Loads one library. Returns false (and records the refusal) when it is refused, including when
  /// one of its components has the same kind and name as an already registered one.
  bool load_file(const std::filesystem::path& file);

  const component_info* find(std::string_view kind, std::string_view name) const;
  /// Components of one kind (or all kinds when empty), sorted by kind then name.
  std::vector<const component_info*> list(std::string_view kind = {}) const;
  const std::vector<plugin_refusal>& refusals() const noexcept { return refusals_; }
  const std::deque<loaded_library>& libraries() const noexcept { return libraries_; }

  /// Creates (or returns the already created) instance of `spec`. Instances are shared: equal
  /// specs — after defaults are filled in — give the same instance. Throws usage_error naming the
  /// component and the problem (unknown name, unknown option, wrong type, creation failure).
  template <class T>
  std::shared_ptr<const T> create(const component_spec& spec) const {
    return std::static_pointer_cast<const T>(create_erased(T::kind_name, spec));
  }

  /// The same as create<T>, for a kind given as text; the pointer is to the kind's interface.
  std::shared_ptr<const void> create_erased(std::string_view kind, const component_spec& spec) const;

  /// The instances of `kind` that `spec` (a component of `spec_kind`) is built with through its
  /// options, at any depth (pointers to the kind's interface): e.g. the embedders a technique's
  /// column matcher uses, to check their servers. Components written in Lua contribute none.
  std::vector<std::shared_ptr<const void>> used_instances(std::string_view spec_kind,
                                                          const component_spec& spec,
                                                          std::string_view kind) const;

  /// The canonical key of `spec` with its defaults filled in (equal keys: interchangeable instances).
  std::string instance_key(std::string_view kind, const component_spec& spec) const;

  /// What the host adds to one kind of component beyond the plugins' registrations (the embedding
  /// setup uses it for `[embedders.NAME]`, the `default` embedder and the embedding cache).
  struct kind_hooks {
    /// The spec a spec stands for (an alias, with the caller's options over the alias's), or
    /// nullopt when it names a registered component. Applied once, before the lookup.
    std::function<std::optional<component_spec>(const component_spec&)> resolve;
    /// Wraps every instance created from then on (before it is shared).
    std::function<std::shared_ptr<const void>(std::shared_ptr<const void>)> wrap;
  };
  /// Sets the hooks of `kind`; must happen before instances of that kind are created.
  void set_hooks(std::string kind, kind_hooks hooks);

 private:
  struct bound_options {
    option_values values;
    std::string key;
  };
  bound_options bind(const component_info& info, const component_spec& spec) const;
  const component_info& require(std::string_view kind, std::string_view name) const;
  component_spec resolved(std::string_view kind, const component_spec& spec) const;

  std::deque<loaded_library> libraries_;  // deque: component pointers stay valid
  std::vector<plugin_refusal> refusals_;
  std::vector<std::filesystem::path> missing_dirs_;
  // kind -> name -> component (owned by libraries_)
  std::map<std::string, std::map<std::string, const component_info*, std::less<>>, std::less<>> by_kind_;

  std::map<std::string, kind_hooks, std::less<>> hooks_;

  mutable std::mutex instances_mutex_;
  mutable std::map<std::string, std::shared_ptr<const void>, std::less<>> instances_;
};

}  // namespace sqlmorph::core
