#pragma once
// How a run is cut into units of work: the examples of one benchmark item (all systems' answers to
// one question) form a unit, so the item's gold query runs once and its examples are written
// together. Units are written in order, which makes the output independent of the number of workers.
//
// Two neighbouring items that ask for the same gold query (Spider asks most questions twice, worded
// differently) form one unit too. Their examples are then evaluated one after the other by one worker:
// the second item reads the gold result, the predictions' results it shares and the scores of equal
// results from the first, instead of another worker waiting while the first runs them (or running
// them again). The examples keep their order, so the output is the same as with a unit per item.

#include <cstddef>
#include <span>
#include <vector>

#include "eval/example.hpp"

namespace sqlmorph::core {

struct work_unit {
  /// Indices into the run's examples, in input order.
  std::vector<std::size_t> examples;
};

/// Groups examples by item, units in order of their first example, then joins two neighbouring
/// units whose gold query is the same SQL on the same database and backend (never more than two:
/// a unit is what a worker finishes before it stops, and a run has units enough for its workers;
/// examples without a gold query are not joined).
std::vector<work_unit> plan_work(const std::vector<example>& examples);

/// Units of `sizes[k]` consecutive examples each, in order (a shard's units, as the whole run
/// planned them). The sizes must add up to `examples` (std::logic_error otherwise).
std::vector<work_unit> consecutive_units(std::span<const std::size_t> sizes, std::size_t examples);

}  // namespace sqlmorph::core
