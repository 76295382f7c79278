#pragma once
// Which judges a command or script asked for: a name is a [judges.NAME] of sqlmorph.toml (a judge
// component with options) or, failing that, a judge component used with its default options.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sqlmorph/judge.hpp>

#include "config/config.hpp"
#include "eval/record.hpp"
#include "plugins/component_registry.hpp"

namespace sqlmorph::core {

/// A judge ready to use: one instance shared by all workers.
struct configured_judge {
  /// What the output calls it: records say technique "judge:<name>".
  std::string name;
  /// The component and its options.
  component_spec spec;
  std::shared_ptr<const sqlmorph::judge> instance;
  /// The component with every option (defaults filled in): what makes two judges interchangeable.
  std::string identity;
  /// Where it was declared: "FILE:LINE:COL" of [judges.NAME], "component" or "script".
  std::string origin;

  std::string technique() const { return std::string(judge_technique_prefix) + name; }
};

/// Splits "a,b" (blanks around names ignored, empty names dropped).
std::vector<std::string> split_judge_list(const std::string& text);

/// The judge `name` names (see above). `timeout`, when given, replaces the `timeout` option of a
/// component that declares one. Throws usage_error for an unknown name (listing the known ones) or
/// options the component refuses.
configured_judge resolve_judge(const config& cfg, const component_registry& registry, const std::string& name,
                               std::optional<double> timeout = std::nullopt);

/// A judge from a spec written in a script: named `name` in the output.
configured_judge make_judge(const component_registry& registry, std::string name, component_spec spec,
                            std::string origin);

/// Resolves every name; a name given twice is a usage_error.
std::vector<configured_judge> resolve_judges(const config& cfg, const component_registry& registry,
                                             const std::vector<std::string>& names,
                                             std::optional<double> timeout = std::nullopt);

/// Throws usage_error when two judges share a name.
void check_unique_judge_names(const std::vector<configured_judge>& judges);

/// For run.json: [{name, plugin, options, declared_at, identity}, ...].
nlohmann::ordered_json describe_judges(const std::vector<configured_judge>& judges);

}  // namespace sqlmorph::core
