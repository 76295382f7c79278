#pragma once
// How a run is cut into units of work: the examples of one benchmark item (all systems' answers to
// one question) form a unit, so the item's gold query runs once and its examples are written
// together. Units are written in order, which makes the output independent of the number of workers.

#include <cstddef>
#include <vector>

#include "eval/example.hpp"

namespace sqlmorph::core {

struct work_unit {
  /// Indices into the run's examples, in input order.
  std::vector<std::size_t> examples;
};

/// Groups examples by item, units in order of their first example.
std::vector<work_unit> plan_work(const std::vector<example>& examples);

}  // namespace sqlmorph::core
