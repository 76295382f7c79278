#include "plugins/plugin_loader.hpp"

#include <algorithm>
#include <cstring>
#include <set>

#include <boost/dll/shared_library.hpp>

#include "plugins/host_services.hpp"
#include "plugins/option_model.hpp"

namespace sqlmorph::core {
namespace {

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::string text_or_empty(const char* s) {
  return s == nullptr ? std::string() : std::string(s);
}

std::optional<std::string> check_component(const sqlmorph_component_v1& c) {
  const std::string kind = text_or_empty(c.kind);
  const std::string name = text_or_empty(c.name);
  if (!is_known_component_kind(kind)) return "declares a component of unknown kind '" + kind + "'";
  if (!valid_name(name)) {
    return "declares a " + kind + " with an invalid name '" + name +
           "' (use lower-case letters, digits and _)";
  }
  if (c.create == nullptr || c.destroy == nullptr)
    return kind + " '" + name + "' has no create/destroy function";
  if (c.option_count > 0 && c.options == nullptr)
    return kind + " '" + name + "' declares options but gives none";
  std::set<std::string> seen;
  std::string sweepable;
  for (std::uint32_t i = 0; i < c.option_count; ++i) {
    const sqlmorph_option_v1& o = c.options[i];
    const std::string oname = text_or_empty(o.name);
    const std::string otype = text_or_empty(o.type);
    if (!valid_name(oname))
      return kind + " '" + name + "' declares an option with an invalid name '" + oname + "'";
    if (!seen.insert(oname).second) return kind + " '" + name + "' declares option '" + oname + "' twice";
    const option_type parsed = parse_option_type(otype);
    if (parsed == option_type::component && !is_known_component_kind(otype)) {
      return kind + " '" + name + "' option '" + oname + "' has unknown type '" + otype + "'";
    }
    if (o.default_value != nullptr && !parse_option_default(parsed, o.default_value)) {
      return kind + " '" + name + "' option '" + oname + "' has default '" + o.default_value +
             "' that is not a valid " + otype;
    }
    if ((o.flags & ~SQLMORPH_OPTION_SWEEPABLE) != 0) {
      return kind + " '" + name + "' option '" + oname + "' has unknown flags " + std::to_string(o.flags);
    }
    if ((o.flags & SQLMORPH_OPTION_SWEEPABLE) != 0) {
      if (kind != "scorer") {
        return kind + " '" + name + "' option '" + oname +
               "' is declared sweepable; only a scorer's option can be (a run sweeps the scorer of a "
               "technique)";
      }
      if (parsed != option_type::boolean || o.default_value == nullptr) {
        return kind + " '" + name + "' option '" + oname +
               "' is declared sweepable but is not a bool with a default";
      }
      if (!sweepable.empty()) {
        return kind + " '" + name + "' declares two sweepable options, '" + sweepable + "' and '" + oname +
               "' (a run sweeps at most one)";
      }
      sweepable = oname;
    }
  }
  return std::nullopt;
}

}  // namespace

const option_decl* component_info::find_option(std::string_view option) const {
  for (const option_decl& o : options) {
    if (o.name == option) return &o;
  }
  return nullptr;
}

const option_decl* component_info::sweepable_option() const {
  for (const option_decl& o : options) {
    if (o.sweepable) return &o;
  }
  return nullptr;
}

const std::vector<std::string>& known_component_kinds() {
  static const std::vector<std::string> kinds = {"backend", "column_matcher", "row_matcher",  "cell_matcher",
                                                 "scorer",  "normalizer",     "sql_rewriter", "embedder",
                                                 "judge",   "sql_candidates"};
  return kinds;
}

bool is_known_component_kind(std::string_view kind) {
  const auto& kinds = known_component_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::variant<loaded_library, plugin_refusal> load_plugin_library(const std::filesystem::path& file) {
  auto refuse = [&](std::string reason) { return plugin_refusal{file, std::move(reason)}; };

  auto lib = std::make_shared<boost::dll::shared_library>();
  try {
    lib->load(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    return refuse("cannot be loaded: " + std::string(e.what()));
  }
  if (!lib->has(SQLMORPH_MANIFEST_SYMBOL)) {
    return refuse(std::string("is not a sqlmorph plugin: missing symbol '") + SQLMORPH_MANIFEST_SYMBOL +
                  "' (a plugin built for another ABI exports another entry point)");
  }
  const auto manifest_fn =
      lib->get<const sqlmorph_manifest_v1*(const sqlmorph_host_v1*)>(SQLMORPH_MANIFEST_SYMBOL);
  const sqlmorph_manifest_v1* m = manifest_fn(host_services());
  if (m == nullptr) return refuse("returned no manifest");
  // Only the two leading integers are read before the version check: their layout never changes.
  if (m->abi_version != SQLMORPH_PLUGIN_ABI_VERSION) {
    return refuse("has plugin ABI version " + std::to_string(m->abi_version) + ", this sqlmorph " +
                  SQLMORPH_VERSION_STRING + " expects ABI version " +
                  std::to_string(SQLMORPH_PLUGIN_ABI_VERSION) + "; rebuild the plugin against this SDK");
  }
  if (m->struct_size < sizeof(sqlmorph_manifest_v1)) {
    return refuse("has a truncated manifest (" + std::to_string(m->struct_size) + " bytes, expected " +
                  std::to_string(sizeof(sqlmorph_manifest_v1)) + ")");
  }
  const std::string fingerprint = text_or_empty(m->fingerprint);
  if (fingerprint != SQLMORPH_BUILD_FINGERPRINT) {
    return refuse(
        "was built as '" + fingerprint + "' but this sqlmorph is '" + SQLMORPH_BUILD_FINGERPRINT +
        "'; C++ objects cannot cross between different builds, rebuild the plugin against this SDK");
  }
  if (m->component_count > 0 && m->components == nullptr) return refuse("declares components but gives none");

  loaded_library out;
  out.file = file;
  out.name = text_or_empty(m->library);
  out.version = text_or_empty(m->library_version);
  if (!valid_name(out.name)) return refuse("has an invalid library name '" + out.name + "'");
  std::set<std::pair<std::string, std::string>> seen;
  for (std::uint32_t i = 0; i < m->component_count; ++i) {
    const sqlmorph_component_v1& c = m->components[i];
    if (auto problem = check_component(c)) return refuse(*problem);
    component_info info;
    info.kind = c.kind;
    info.name = c.name;
    if (!seen.insert({info.kind, info.name}).second) {
      return refuse("declares " + info.kind + " '" + info.name + "' twice");
    }
    info.version = text_or_empty(c.version);
    info.description = text_or_empty(c.description);
    for (std::uint32_t j = 0; j < c.option_count; ++j) {
      const sqlmorph_option_v1& o = c.options[j];
      info.options.push_back({o.name, o.type, parse_option_type(o.type),
                              o.default_value ? std::optional<std::string>(o.default_value) : std::nullopt,
                              text_or_empty(o.description), (o.flags & SQLMORPH_OPTION_SWEEPABLE) != 0});
    }
    info.library = out.name;
    info.library_version = out.version;
    info.file = file;
    info.entry = &c;
    info.keep_alive = lib;
    out.components.push_back(std::move(info));
  }
  return out;
}

}  // namespace sqlmorph::core
