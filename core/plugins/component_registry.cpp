#include "plugins/component_registry.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>

#include "errors.hpp"
#include "plugins/option_model.hpp"

namespace sqlmorph::core {
namespace {

std::string option_list(const component_info& info) {
  if (info.options.empty()) return "it takes no options";
  std::string out = "its options are: ";
  for (std::size_t i = 0; i < info.options.size(); ++i) {
    if (i) out += ", ";
    out += info.options[i].name;
  }
  return out;
}

// Parses a declared default (validated at load time) into a spec value of the declared type.
spec_value parse_default(const option_decl& decl) {
  return parse_option_default(decl.parsed_type, *decl.default_value).value();
}

}  // namespace

void component_registry::load_directories(const std::vector<std::filesystem::path>& dirs) {
  std::vector<std::filesystem::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      spdlog::debug("plugin directory {} does not exist; skipped", dir.string());
      missing_dirs_.push_back(dir);
      continue;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.is_regular_file(ec) && entry.path().extension() == ".so") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const auto canonical = std::filesystem::weakly_canonical(file, ec);
      if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
      seen.push_back(canonical);
      load_file(file);
    }
  }
}

bool component_registry::load_file(const std::filesystem::path& file) {
  auto loaded = load_plugin_library(file);
  if (auto* refusal = std::get_if<plugin_refusal>(&loaded)) {
    spdlog::error("plugin {} {}", refusal->file.string(), refusal->reason);
    refusals_.push_back(std::move(*refusal));
    return false;
  }
  auto& lib = std::get<loaded_library>(loaded);
  for (const component_info& c : lib.components) {
    if (const component_info* existing = find(c.kind, c.name)) {
      plugin_refusal r{file, c.kind + " '" + c.name + "' is already provided by " + existing->file.string() +
                                 " (library " + existing->library + "); duplicate names are refused"};
      spdlog::error("plugin {} {}", r.file.string(), r.reason);
      refusals_.push_back(std::move(r));
      return false;
    }
  }
  libraries_.push_back(std::move(lib));
  for (const component_info& c : libraries_.back().components) by_kind_[c.kind][c.name] = &c;
  spdlog::debug("loaded plugin library {} {} from {}", libraries_.back().name, libraries_.back().version,
                file.string());
  return true;
}

const component_info* component_registry::find(std::string_view kind, std::string_view name) const {
  const auto k = by_kind_.find(kind);
  if (k == by_kind_.end()) return nullptr;
  const auto n = k->second.find(name);
  return n == k->second.end() ? nullptr : n->second;
}

std::vector<const component_info*> component_registry::list(std::string_view kind) const {
  std::vector<const component_info*> out;
  for (const auto& [k, names] : by_kind_) {
    if (!kind.empty() && k != kind) continue;
    for (const auto& [n, info] : names) out.push_back(info);
  }
  return out;
}

std::string component_registry::missing_directories_note() const {
  if (missing_dirs_.empty()) return {};
  std::string note = " (plugin folders that do not exist: ";
  for (std::size_t i = 0; i < missing_dirs_.size(); ++i) note += (i ? ", " : "") + missing_dirs_[i].string();
  return note + ")";
}

const component_info& component_registry::require(std::string_view kind, std::string_view name) const {
  if (const component_info* info = find(kind, name)) return *info;
  std::string msg = "unknown " + std::string(kind) + " '" + std::string(name) + "'";
  const auto names = list(kind);
  if (names.empty()) {
    msg +=
        "; no " + std::string(kind) + " is registered (are the plugin directories in sqlmorph.toml right?)";
  } else {
    msg += "; registered: ";
    for (std::size_t i = 0; i < names.size(); ++i) msg += (i ? ", " : "") + names[i]->name;
  }
  if (!refusals_.empty())
    msg +=
        " (" + std::to_string(refusals_.size()) + " plugin libraries were refused; see `sqlmorph plugins`)";
  throw usage_error(msg + missing_directories_note());
}

component_registry::bound_options component_registry::bind(const component_info& info,
                                                           const component_spec& spec) const {
  const std::string who = info.kind + " '" + info.name + "'";
  for (const auto& [name, v] : spec.options) {
    if (info.find_option(name) == nullptr) {
      throw usage_error(who + ": unknown option '" + name + "'; " + option_list(info));
    }
  }
  bound_options out;
  out.key = info.kind + ":" + info.name + "{";
  for (const option_decl& decl : info.options) {
    spec_value v;
    if (auto it = spec.options.find(decl.name); it != spec.options.end()) {
      v = it->second;
    } else if (decl.default_value) {
      v = parse_default(decl);
    } else {
      throw usage_error(who + ": option '" + decl.name + "' is required (" + decl.description + ")");
    }
    option_value bound;
    std::string key_part;
    if (is_scalar(decl.parsed_type)) {
      bound = checked_scalar_value(who, decl, v);
    } else {
      // A component option: a name (default options) or a full spec.
      const std::shared_ptr<const component_spec> sub = checked_component_value(who, decl, v);
      std::shared_ptr<const void> instance;
      try {
        instance = create_erased(decl.type, *sub);
        key_part = instance_key(decl.type, *sub);
      } catch (const usage_error& e) {
        throw usage_error(who + ": option '" + decl.name + "': " + e.what());
      }
      bound = component_ref{decl.type, sub->name, std::move(instance)};
    }
    if (key_part.empty()) key_part = option_value_to_string(bound);
    out.key += decl.name + "=" + key_part + ";";
    out.values.set(decl.name, std::move(bound));
  }
  out.key += "}";
  return out;
}

void component_registry::set_hooks(std::string kind, kind_hooks hooks) {
  hooks_[std::move(kind)] = std::move(hooks);
}

component_spec component_registry::resolved(std::string_view kind, const component_spec& spec) const {
  const auto h = hooks_.find(kind);
  if (h == hooks_.end() || !h->second.resolve) return spec;
  std::optional<component_spec> out = h->second.resolve(spec);
  return out ? std::move(*out) : spec;
}

std::string component_registry::instance_key(std::string_view kind, const component_spec& spec) const {
  if (spec.instance) return std::string(kind) + ":instance:" + spec.name;
  const component_spec actual = resolved(kind, spec);
  return bind(require(kind, actual.name), actual).key;
}

std::shared_ptr<const void> component_registry::create_erased(std::string_view kind,
                                                              const component_spec& spec) const {
  if (spec.instance) {
    if (spec.instance_kind != kind) {
      throw usage_error(spec.name + " is a " + spec.instance_kind + ", not a " + std::string(kind));
    }
    return spec.instance;
  }
  const component_spec actual = resolved(kind, spec);
  const component_info& info = require(kind, actual.name);
  bound_options bound = bind(info, actual);
  std::lock_guard lock(instances_mutex_);
  if (auto it = instances_.find(bound.key); it != instances_.end()) return it->second;
  char error[1024] = {0};
  void* raw = info.entry->create(&bound.values, error, sizeof error);
  if (raw == nullptr) {
    throw usage_error(info.kind + " '" + info.name + "' could not be created: " +
                      (error[0] ? std::string(error) : std::string("no reason given")));
  }
  auto destroy = info.entry->destroy;
  auto keep_alive = info.keep_alive;
  std::shared_ptr<const void> instance(
      raw, [destroy, keep_alive](const void* p) { destroy(const_cast<void*>(p)); });
  if (const auto h = hooks_.find(kind); h != hooks_.end() && h->second.wrap)
    instance = h->second.wrap(std::move(instance));
  instances_.emplace(bound.key, instance);
  return instance;
}

std::vector<std::shared_ptr<const void>> component_registry::used_instances(std::string_view spec_kind,
                                                                            const component_spec& spec,
                                                                            std::string_view kind) const {
  std::vector<std::shared_ptr<const void>> out;
  if (spec.instance) return out;
  const component_spec actual = resolved(spec_kind, spec);
  const component_info& info = require(spec_kind, actual.name);
  for (const option_decl& decl : info.options) {
    if (is_scalar(decl.parsed_type)) continue;
    spec_value v;
    if (const auto it = actual.options.find(decl.name); it != actual.options.end()) {
      v = it->second;
    } else if (decl.default_value) {
      v = parse_default(decl);
    } else {
      continue;
    }
    std::shared_ptr<const component_spec> sub;
    if (const std::string* name = std::get_if<std::string>(&v)) {
      sub = std::make_shared<const component_spec>(*name);
    } else if (const auto* c = std::get_if<std::shared_ptr<const component_spec>>(&v)) {
      sub = *c;
    }
    if (!sub) continue;
    if (decl.type == kind) out.push_back(create_erased(kind, *sub));  // the shared instance
    for (auto& deeper : used_instances(decl.type, *sub, kind)) out.push_back(std::move(deeper));
  }
  return out;
}

}  // namespace sqlmorph::core
