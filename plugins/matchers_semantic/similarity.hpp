#pragma once
// The cosine similarities of the semantic techniques (shared/design/EMBEDDING.md).

#include <cmath>
#include <cstddef>
#include <vector>

namespace sqlmorph::semantic {

/// Column matching: cosine in double precision, `u·v / sqrt(u·u · v·v)` (SciPy's `1 - cosine`
/// up to the last bits), 0 when either vector is zero.
inline double cosine(const std::vector<double>& u, const std::vector<double>& v) {
  const std::size_t n = std::min(u.size(), v.size());
  double uv = 0;
  double uu = 0;
  double vv = 0;
  for (std::size_t i = 0; i < n; ++i) {
    uv += u[i] * v[i];
    uu += u[i] * u[i];
    vv += v[i] * v[i];
  }
  if (uu == 0 || vv == 0) return 0;
  return uv / std::sqrt(uu * vv);
}

/// A vector cast to float32 with its float32 norm, for the row similarity.
struct float_vector {
  std::vector<float> values;
  float norm = 0;
};

inline float_vector to_float(const std::vector<double>& v) {
  float_vector out;
  out.values.reserve(v.size());
  float sum = 0;
  for (const double d : v) {
    const auto f = static_cast<float>(d);
    out.values.push_back(f);
    sum += f * f;
  }
  out.norm = std::sqrt(sum);
  return out;
}

/// Row matching: in float32, `a·b / ((|a| + 1e-8)(|b| + 1e-8))`.
inline float row_cosine(const float_vector& a, const float_vector& b) {
  const std::size_t n = std::min(a.values.size(), b.values.size());
  float dot = 0;
  for (std::size_t i = 0; i < n; ++i) dot += a.values[i] * b.values[i];
  return dot / ((a.norm + 1e-8f) * (b.norm + 1e-8f));
}

}  // namespace sqlmorph::semantic
