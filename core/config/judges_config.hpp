#pragma once
// The judges of sqlmorph.toml: [judges.NAME] names a judge component (`plugin`) with its options,
// so that commands and scripts can ask for "adherence" instead of repeating the options.

#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "plugins/component_spec.hpp"

namespace sqlmorph::core {

/// A judge as [judges.NAME] declares it.
struct judge_config {
  std::string name;
  /// The judge component ("sql_adherence", "sql_correctness", ...); defaults to `name`.
  std::string component;
  /// The component's options.
  std::map<std::string, spec_value, std::less<>> options;
  /// "FILE:LINE:COL" of the declaration.
  std::string origin;
};

/// Reads [judges] (a table of [judges.NAME] tables with `plugin` and `options`), in file order.
/// Throws usage_error with FILE:LINE:COL.
std::vector<judge_config> read_judges_table(const std::filesystem::path& file, const toml::node& n);

}  // namespace sqlmorph::core
