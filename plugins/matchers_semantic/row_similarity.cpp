#include "row_similarity.hpp"

#include <algorithm>
#include <cstring>

namespace sqlmorph::semantic {
namespace {

// Four float32 lanes (SSE2 on x86-64, NEON on AArch64): lane l of an accumulator runs the
// sequential sum `dot += a[i] * b[i]` of one pair, exactly as row_cosine does, so no sum is
// reassociated. (An FMA would round differently: the product and the sum stay two operations, as
// in row_cosine under the same compiler flags; the plugin tests compare the bits.)
typedef float lanes4 __attribute__((vector_size(16)));
constexpr std::size_t lanes = 4;
// The vectors `as` are taken eight at a time: eight independent sums hide the latency of the adds.
constexpr std::size_t group = 8;

lanes4 load(const float* p) {
  lanes4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

std::vector<float> row_cosine_matrix(std::span<const float_vector> as, std::span<const float_vector> bs) {
  const std::size_t na = as.size();
  const std::size_t nb = bs.size();
  std::vector<float> out(na * nb);
  if (na == 0 || nb == 0) return out;
  const std::size_t d = as.front().values.size();
  const auto same_length = [d](const float_vector& v) { return v.values.size() == d; };
  if (d == 0 || !std::all_of(as.begin(), as.end(), same_length) ||
      !std::all_of(bs.begin(), bs.end(), same_length)) {
    for (std::size_t a = 0; a < na; ++a) {
      for (std::size_t b = 0; b < nb; ++b) out[a * nb + b] = row_cosine(as[a], bs[b]);
    }
    return out;
  }
  // bs transposed by blocks of `lanes` vectors: dimension i of bs[k·lanes + l] at
  // bt[(k·d + i)·lanes + l], zeros past the end.
  const std::size_t blocks = (nb + lanes - 1) / lanes;
  std::vector<float> bt(blocks * d * lanes, 0.0f);
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t k = b / lanes;
    const std::size_t l = b % lanes;
    for (std::size_t i = 0; i < d; ++i) bt[(k * d + i) * lanes + l] = bs[b].values[i];
  }
  // Each a of the group, dimension by dimension, repeated in every lane: at splat[(i·group + q)·lanes].
  std::vector<float> splat(d * group * lanes);
  for (std::size_t a0 = 0; a0 < na; a0 += group) {
    const std::size_t an = std::min(group, na - a0);
    for (std::size_t i = 0; i < d; ++i) {
      for (std::size_t q = 0; q < group; ++q) {
        const float x = q < an ? as[a0 + q].values[i] : 0.0f;
        std::fill_n(splat.begin() + static_cast<std::ptrdiff_t>((i * group + q) * lanes), lanes, x);
      }
    }
    for (std::size_t k = 0; k < blocks; ++k) {
      const float* col = bt.data() + k * d * lanes;
      lanes4 acc[group] = {};
      lanes4 a0v = {}, a1v = {}, a2v = {}, a3v = {}, a4v = {}, a5v = {}, a6v = {}, a7v = {};
      for (std::size_t i = 0; i < d; ++i) {
        const lanes4 bv = load(col + i * lanes);
        const float* s = splat.data() + i * group * lanes;
        a0v += bv * load(s);
        a1v += bv * load(s + lanes);
        a2v += bv * load(s + 2 * lanes);
        a3v += bv * load(s + 3 * lanes);
        a4v += bv * load(s + 4 * lanes);
        a5v += bv * load(s + 5 * lanes);
        a6v += bv * load(s + 6 * lanes);
        a7v += bv * load(s + 7 * lanes);
      }
      acc[0] = a0v;
      acc[1] = a1v;
      acc[2] = a2v;
      acc[3] = a3v;
      acc[4] = a4v;
      acc[5] = a5v;
      acc[6] = a6v;
      acc[7] = a7v;
      for (std::size_t q = 0; q < an; ++q) {
        const float_vector& a = as[a0 + q];
        for (std::size_t l = 0; l < lanes && k * lanes + l < nb; ++l) {
          const float_vector& b = bs[k * lanes + l];
          out[(a0 + q) * nb + k * lanes + l] = acc[q][l] / ((a.norm + 1e-8f) * (b.norm + 1e-8f));
        }
      }
    }
  }
  return out;
}

}  // namespace sqlmorph::semantic
