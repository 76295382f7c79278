#pragma once
// What the assignments optimize instead of a score (optimal_assignment.hpp).

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace sqlmorph::semantic {

/// NaN and -infinity become the lowest finite score minus one, +infinity a huge finite number.
class score_cleaner {
 public:
  explicit score_cleaner(std::span<const double> scores) {
    for (const double s : scores) {
      if (std::isfinite(s)) lowest_ = std::min(lowest_, s);
    }
    if (lowest_ == std::numeric_limits<double>::max()) lowest_ = 0;
  }
  double operator()(double s) const {
    if (std::isnan(s) || s == -std::numeric_limits<double>::infinity()) return lowest_ - 1;
    if (s == std::numeric_limits<double>::infinity()) return std::numeric_limits<double>::max() / 4;
    return s;
  }

 private:
  double lowest_ = std::numeric_limits<double>::max();
};

}  // namespace sqlmorph::semantic
