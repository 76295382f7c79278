#pragma once
// The techniques a run can use, by name, and their expansion into the variants a run evaluates.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "techniques/technique.hpp"
#include "techniques/technique_spec.hpp"

namespace sqlmorph::core {

/// Which values of the scorers' sweepable option (SQLMORPH_OPTION_SWEEPABLE: SQLMorph's
/// `penalize_extra_pred_cols`) a run evaluates.
enum class penalize_choice { yes, no, both };

/// Parses "true", "false" or "both"; throws usage_error otherwise.
penalize_choice parse_penalize_choice(const std::string& text);

class technique_catalog {
 public:
  /// Adds a declaration; a second declaration of the same name is an error naming both origins.
  void add(technique_spec spec);
  const technique_spec* find(const std::string& name) const;
  /// Names in declaration order.
  std::vector<std::string> names() const;

  /// Assembles the variants of the named techniques ("all" = every technique not declared opt-in),
  /// in the order given: one per requested value of the scorer's sweepable option for techniques
  /// that use a scorer with one and do not fix it, one otherwise. `plug_value` turns on the `plug_value`
  /// option of the candidates component of every technique that has one (the official Spider --plug_value);
  /// asking for it when no requested technique has one is an error. Throws usage_error for an
  /// unknown name (listing the known ones).
  std::vector<std::shared_ptr<const technique>> assemble(const std::vector<std::string>& requested,
                                                         penalize_choice penalize,
                                                         const component_registry& registry,
                                                         bool plug_value = false) const;

 private:
  std::vector<technique_spec> specs_;
};

/// Splits "a,b , c" into names; "all" stays "all"; "none" (or "") is no technique (a run of judges
/// only). Throws usage_error when "none" is listed with other names.
std::vector<std::string> split_technique_list(const std::string& text);

}  // namespace sqlmorph::core
