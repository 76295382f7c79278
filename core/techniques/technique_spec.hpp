#pragma once
// A technique as declared: named components and their options, nothing instantiated yet.

#include <optional>
#include <string>
#include <vector>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

/// The option of a candidates component that `--plug-value` turns on (the official Spider
/// evaluator's --plug_value).
inline constexpr const char* plug_value_option = "plug_value";

/// Where a technique runs its queries.
enum class database_scope {
  /// The example's database.
  example,
  /// Every `*.sqlite` file in the folder of the example's database, by name (the databases of a
  /// Spider test suite): the example is correct only if it is on every one of them.
  variants,
};

struct technique_spec {
  std::string name;
  std::string description;
  /// SQL rewrites applied, in order, to both queries before execution.
  std::vector<component_spec> rewriters;
  /// Where the queries run.
  database_scope databases = database_scope::example;
  /// Alternatives to the (rewritten) prediction tried when it is not correct itself; the example
  /// is correct when any of them is. Needs a verdict technique (EX only).
  std::optional<component_spec> candidates;
  /// Value normalizers applied, in order, to both results before matching.
  std::vector<component_spec> normalizers;
  component_spec columns;
  component_spec rows;
  component_spec scorer;
  /// Run only when named, never as part of "all" (e.g. R-VES, which executes every correct
  /// prediction a hundred times more).
  bool opt_in = false;
  /// Where it was declared (file:line), for messages.
  std::string origin;
};

}  // namespace sqlmorph::core
