#pragma once
// Which backend runs which query. A run may mix engines: BIRD ships gold SQL per dialect, a team
// may keep gold results on SQLite and run predictions on PostgreSQL, or compare one system's
// numbers across engines. A query's backend is, in order: the example's own choice (set by
// `--backends` or a Lua experiment), the [databases] entry of its db_id, the role's default
// ([run] gold_backend / pred_backend / backend, or the command line).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlmorph/backend.hpp>
#include <sqlmorph/sql_rewriter.hpp>

#include "config/config.hpp"
#include "eval/example.hpp"
#include "plugins/component_registry.hpp"

namespace sqlmorph::core {

/// A backend ready to use: a component instance shared by all workers, and how a database's target
/// is written.
struct configured_backend {
  std::string name;
  std::string component;
  std::shared_ptr<const sqlmorph::backend> engine;
  std::string target_template;
  /// Name, component with options, and template: what makes two backends' results interchangeable.
  std::string identity;
  /// Where it was declared ("FILE:LINE:COL", or "built-in").
  std::string origin;

  /// The target of one database: the template with {db_id} and {path} expanded.
  std::string target_for(const std::string& db_id, const std::string& path) const;
  /// True when targets are the database files themselves ("{path}"), which the gold cache can hash.
  bool file_targets() const noexcept { return target_template == "{path}"; }
};

/// Where one query runs: a backend and the expanded target.
struct query_target {
  const configured_backend* backend = nullptr;
  std::string target;
};

/// What a command line or a Lua experiment chooses, over sqlmorph.toml.
struct route_choice {
  std::optional<std::string> backend;
  std::optional<std::string> gold_backend;
  std::optional<std::string> pred_backend;
  /// db_id → backend (both roles), before [databases].
  std::vector<std::pair<std::string, std::string>> databases;
};

class backend_routes {
 public:
  /// Resolves the defaults and [databases] of `cfg` under `choice`, plus `also` (backends examples
  /// name themselves), and creates each backend used. A backend name is either declared in
  /// [backends.NAME] or a backend component used with its defaults and target "{path}". Throws
  /// usage_error naming the unknown backend and where it was asked for.
  static std::shared_ptr<const backend_routes> make(const config& cfg, const component_registry& registry,
                                                    const route_choice& choice = {},
                                                    const std::vector<std::string>& also = {});

  /// The backend that runs `role`'s query of `ex`.
  const configured_backend& for_role(const example& ex, query_role role) const;
  /// The query target of `role` for `ex`.
  query_target target(const example& ex, query_role role) const;
  /// The backend named `name` (nullptr if this run does not use it).
  const configured_backend* find(const std::string& name) const;

  /// For run.json: the backends used (name, component, target, declared at), the defaults and the
  /// per-database choices.
  nlohmann::ordered_json describe() const;
  /// A text that changes whenever a query could run elsewhere (for run fingerprints and caches).
  std::string fingerprint() const;

 private:
  std::map<std::string, std::shared_ptr<const configured_backend>> backends_;
  const configured_backend* gold_default_ = nullptr;
  const configured_backend* pred_default_ = nullptr;
  std::map<std::string, std::pair<const configured_backend*, const configured_backend*>, std::less<>> by_db_;
};

/// The name a target's {db_id} stands for: the example's db_id, or its database file's stem.
std::string database_name(const example& ex);

/// The backends `examples` name themselves (gold_backend, pred_backend), each once, in first-use order.
std::vector<std::string> backends_named_by(const std::vector<example>& examples);

/// Every example once per backend, both queries on that backend, for a side-by-side comparison of
/// engines: system "S" becomes "S@BACKEND" (or "BACKEND" when unnamed), id "I" becomes "I@BACKEND".
std::vector<example> examples_on_each_backend(const std::vector<example>& examples,
                                              const std::vector<std::string>& backends);

}  // namespace sqlmorph::core
