#include "backends/backend_routes.hpp"

#include <algorithm>
#include <filesystem>

#include "backends/capabilities_json.hpp"
#include "errors.hpp"

namespace sqlmorph::core {

std::string configured_backend::target_for(const std::string& db_id, const std::string& path) const {
  std::string out;
  out.reserve(target_template.size() + path.size());
  for (std::size_t i = 0; i < target_template.size();) {
    if (target_template.compare(i, 7, "{db_id}") == 0) {
      out += db_id;
      i += 7;
    } else if (target_template.compare(i, 6, "{path}") == 0) {
      out += path;
      i += 6;
    } else {
      out += target_template[i++];
    }
  }
  return out;
}

std::string database_name(const example& ex) {
  if (!ex.db_id.empty()) return ex.db_id;
  return std::filesystem::path(ex.db).stem().string();
}

std::vector<std::string> backends_named_by(const std::vector<example>& examples) {
  std::vector<std::string> out;
  for (const example& ex : examples) {
    for (const std::string* b : {&ex.gold_backend, &ex.pred_backend}) {
      if (!b->empty() && std::find(out.begin(), out.end(), *b) == out.end()) out.push_back(*b);
    }
  }
  return out;
}

std::vector<example> examples_on_each_backend(const std::vector<example>& examples,
                                              const std::vector<std::string>& backends) {
  std::vector<example> out;
  out.reserve(examples.size() * backends.size());
  for (const std::string& b : backends) {
    for (example ex : examples) {
      ex.system = (ex.system.empty() ? "" : ex.system + "@") + b;
      ex.id += "@" + b;
      ex.gold_backend = ex.pred_backend = b;
      out.push_back(std::move(ex));
    }
  }
  return out;
}

std::shared_ptr<const backend_routes> backend_routes::make(const config& cfg,
                                                           const component_registry& registry,
                                                           const route_choice& choice,
                                                           const std::vector<std::string>& also) {
  auto routes = std::make_shared<backend_routes>();
  // Created on first use: a backend declared but not used needs no plugin.
  const auto use = [&](const std::string& name, const std::string& asked_at) -> const configured_backend* {
    if (const auto it = routes->backends_.find(name); it != routes->backends_.end()) return it->second.get();
    auto b = std::make_shared<configured_backend>();
    b->name = name;
    component_spec spec(name);
    const auto declared = std::find_if(cfg.backends.begin(), cfg.backends.end(),
                                       [&](const backend_config& c) { return c.name == name; });
    if (declared != cfg.backends.end()) {
      spec = component_spec(declared->component, declared->options);
      b->target_template = declared->target;
      b->origin = declared->origin;
    } else {
      if (registry.find(sqlmorph::backend::kind_name, name) == nullptr) {
        std::string known;
        for (const backend_config& c : cfg.backends) known += (known.empty() ? "" : ", ") + c.name;
        throw usage_error(asked_at + ": unknown backend '" + name + "': declare it in [backends." + name +
                          "] of sqlmorph.toml, or name a backend plugin (see `sqlmorph plugins`)" +
                          (known.empty() ? std::string() : "; declared: " + known));
      }
      b->target_template = "{path}";
      b->origin = "built-in";
    }
    b->component = spec.name;
    try {
      b->engine = registry.create<sqlmorph::backend>(spec);
    } catch (const usage_error& e) {
      throw usage_error("backend '" + name + "'" + (b->origin == "built-in" ? "" : " (" + b->origin + ")") +
                        ": " + e.what());
    }
    b->identity =
        name + "|" + registry.instance_key(sqlmorph::backend::kind_name, spec) + "|" + b->target_template;
    const configured_backend* raw = b.get();
    routes->backends_.emplace(name, std::move(b));
    return raw;
  };

  const std::string base = choice.backend.value_or(cfg.run.backend);
  const std::string where_default = choice.backend ? "--backend" : "[run] backend";
  routes->gold_default_ = use(choice.gold_backend.value_or(cfg.run.gold_backend.value_or(base)),
                              choice.gold_backend    ? "--gold-backend"
                              : cfg.run.gold_backend ? "[run] gold_backend"
                                                     : where_default);
  routes->pred_default_ = use(choice.pred_backend.value_or(cfg.run.pred_backend.value_or(base)),
                              choice.pred_backend    ? "--pred-backend"
                              : cfg.run.pred_backend ? "[run] pred_backend"
                                                     : where_default);
  for (const database_route& r : cfg.databases) {
    auto& entry = routes->by_db_[r.db_id];
    entry.first = r.gold ? use(*r.gold, r.origin) : nullptr;
    entry.second = r.pred ? use(*r.pred, r.origin) : nullptr;
  }
  for (const auto& [db_id, name] : choice.databases) {
    const configured_backend* b = use(name, "--db-backend " + db_id + "=" + name);
    routes->by_db_[db_id] = {b, b};
  }
  for (const std::string& name : also) use(name, "--backends");
  return routes;
}

const configured_backend& backend_routes::for_role(const example& ex, query_role role) const {
  const bool gold = role == query_role::gold;
  const std::string& own = gold ? ex.gold_backend : ex.pred_backend;
  if (!own.empty()) {
    if (const configured_backend* b = find(own)) return *b;
    throw usage_error("example " + ex.id + " asks for backend '" + own + "', which this run did not set up");
  }
  if (const auto it = by_db_.find(database_name(ex)); it != by_db_.end()) {
    const configured_backend* b = gold ? it->second.first : it->second.second;
    if (b != nullptr) return *b;
  }
  return gold ? *gold_default_ : *pred_default_;
}

query_target backend_routes::target(const example& ex, query_role role) const {
  const configured_backend& b = for_role(ex, role);
  return {&b, b.target_for(database_name(ex), ex.db)};
}

const configured_backend* backend_routes::find(const std::string& name) const {
  const auto it = backends_.find(name);
  return it == backends_.end() ? nullptr : it->second.get();
}

nlohmann::ordered_json backend_routes::describe() const {
  nlohmann::ordered_json j;
  j["gold"] = gold_default_->name;
  j["pred"] = pred_default_->name;
  j["backends"] = nlohmann::ordered_json::array();
  for (const auto& [name, b] : backends_) {
    const backend_capabilities caps = b->engine->capabilities();
    j["backends"].push_back({{"name", name},
                             {"component", b->component},
                             {"target", b->target_template},
                             {"declared_at", b->origin},
                             {"dialect", caps.dialect},
                             {"capabilities", capabilities_json(caps)}});
  }
  j["databases"] = nlohmann::ordered_json::object();
  for (const auto& [db_id, pair] : by_db_) {
    j["databases"][db_id] = {{"gold", pair.first ? nlohmann::ordered_json(pair.first->name) : nullptr},
                             {"pred", pair.second ? nlohmann::ordered_json(pair.second->name) : nullptr}};
  }
  return j;
}

std::string backend_routes::fingerprint() const {
  std::string out = "gold=" + gold_default_->identity + ";pred=" + pred_default_->identity + ";";
  for (const auto& [name, b] : backends_) out += b->identity + ";";
  for (const auto& [db_id, pair] : by_db_) {
    out += db_id + "=" + (pair.first ? pair.first->name : "-") + "/" +
           (pair.second ? pair.second->name : "-") + ";";
  }
  return out;
}

}  // namespace sqlmorph::core
