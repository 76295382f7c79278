#pragma once
// Loading one plugin library with Boost.DLL and checking its manifest before anything else is used.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <sqlmorph/options.hpp>
#include <sqlmorph/plugin.hpp>

namespace boost::dll {
class shared_library;
}

namespace sqlmorph::core {

/// One declared option of a component, copied out of the manifest.
struct option_decl {
  std::string name;
  std::string type;  ///< "bool", "int", "double", "string" or a component kind, as declared (for display)
  /// `type` parsed once when the library is loaded: what the core compares (see option_model.hpp).
  option_type parsed_type = option_type::string;
  std::optional<std::string> default_value;
  std::string description;
  /// Declared SQLMORPH_OPTION_SWEEPABLE: a bool of a scorer that a run may evaluate with both values.
  bool sweepable = false;
};

/// One component of a loaded library.
struct component_info {
  std::string kind;
  std::string name;
  std::string version;
  std::string description;
  std::vector<option_decl> options;
  std::string library;
  std::string library_version;
  std::filesystem::path file;
  /// The manifest entry (create/destroy); valid while `keep_alive` is held.
  const sqlmorph_component_v1* entry = nullptr;
  /// Keeps the shared library mapped for as long as the component (or an instance) exists.
  std::shared_ptr<boost::dll::shared_library> keep_alive;

  const option_decl* find_option(std::string_view option) const;
  /// The option declared sweepable, or null (the loader allows at most one, on scorers only).
  const option_decl* sweepable_option() const;
};

/// A library that passed every check.
struct loaded_library {
  std::filesystem::path file;
  std::string name;
  std::string version;
  std::vector<component_info> components;
};

/// Why a library was refused.
struct plugin_refusal {
  std::filesystem::path file;
  std::string reason;
};

/// The component kinds this host knows.
const std::vector<std::string>& known_component_kinds();
bool is_known_component_kind(std::string_view kind);

/// Loads `file` and validates its manifest: the entry point exists, the ABI version and build
/// fingerprint equal the host's, and every component declaration is well formed. On failure the
/// library is unloaded and the reason names the file and, for mismatches, both versions.
/// Never throws.
std::variant<loaded_library, plugin_refusal> load_plugin_library(const std::filesystem::path& file);

}  // namespace sqlmorph::core
