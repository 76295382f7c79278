#pragma once
// A technique as declared: named components and their options, nothing instantiated yet.

#include <string>
#include <vector>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

/// The option of a scorer that a run may sweep over (`--penalize-extra-pred-cols both`); its value
/// is reported in every record as `penalize_extra_pred_cols` (null for scorers without it).
inline constexpr const char* penalize_option = "penalize_extra_pred_cols";

struct technique_spec {
  std::string name;
  std::string description;
  /// SQL rewrites applied, in order, to both queries before execution.
  std::vector<component_spec> rewriters;
  /// Value normalizers applied, in order, to both results before matching.
  std::vector<component_spec> normalizers;
  component_spec columns;
  component_spec rows;
  component_spec scorer;
  /// Where it was declared (file:line), for messages.
  std::string origin;
};

}  // namespace sqlmorph::core
