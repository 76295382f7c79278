#pragma once
// The known name a mistyped one was probably meant to be ("did you mean --techniques?"): the
// nearest by edit distance, offered only when it is close.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sqlmorph::core {

/// Edits turning `a` into `b`: characters inserted, deleted or replaced, and two neighbouring
/// characters swapped (each counts 1). Letters are compared without case.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The name of `known` nearest to `typed`, when it is close: at most a third of its length away
/// (1 to 3 edits), or one of the two is a prefix of the other and the shorter has 3 characters or
/// more (`evaluate` for `eval`, `--tech` for `--techniques`). Ties go to the first in `known`.
std::optional<std::string> nearest_name(std::string_view typed, const std::vector<std::string>& known);

}  // namespace sqlmorph::core
