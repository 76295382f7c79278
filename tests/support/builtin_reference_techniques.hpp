#pragma once
// The reference techniques declared in C++, as they were before they moved to
// scripts/techniques/*.lua: the "built-in path" the Lua declarations are compared with (same
// components and options) and benchmarked against.

#include "techniques/technique_catalog.hpp"

namespace sqlmorph::core {

void add_reference_techniques(technique_catalog& catalog);

}  // namespace sqlmorph::core
