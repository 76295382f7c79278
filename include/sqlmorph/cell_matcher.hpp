#pragma once
/// \file cell_matcher.hpp
/// The CellMatcher interface: decides if, or how much, two cells match.

#include <cstdint>

#include "sqlmorph/value.hpp"

namespace sqlmorph {

/// How much a gold cell and a predicted cell match, in [0, 1] (exact, numeric tolerance,
/// case-insensitive, semantic, ...). Stateless after construction; thread-safe.
///
/// An *equivalence* matcher answers only 0 or 1, and 1 exactly for values with the same
/// `equivalence_hash` that it deems equal; row matchers then index cells by hash instead of
/// comparing every pair of rows (this is what makes partial matching n·log n instead of n²).
class cell_matcher {
 public:
  static constexpr const char* kind_name = "cell_matcher";
  using interface_type = cell_matcher;

  virtual ~cell_matcher() = default;

  /// Similarity in [0, 1]; values outside are clamped.
  double similarity(const value& gold, const value& pred) const;

  /// True when similarity is an equivalence relation (0/1) described by `equivalence_hash`.
  virtual bool is_equivalence() const noexcept { return false; }
  /// For equivalence matchers: equal for any two values whose similarity is 1.
  virtual std::uint64_t equivalence_hash(const value& v) const;

 protected:
  virtual double do_similarity_(const value& gold, const value& pred) const = 0;
};

}  // namespace sqlmorph
