#include "row_similarity.hpp"

#include <algorithm>

#include <sqlmorph/wide_vectors.hpp>

namespace sqlmorph::semantic {
namespace {

// Float32 lanes (SSE2 or AVX2 on x86-64, NEON on AArch64): lane l of an accumulator runs the
// sequential sum `dot += a[i] * b[i]` of one pair, exactly as row_cosine does, so no sum is
// reassociated. (An FMA would round differently: the product and the sum stay two operations, as
// in row_cosine under the same compiler flags — AVX2 does not bring FMA; the plugin tests compare
// the bits.) Four lanes everywhere, eight where the processor has AVX2.
// The vectors `as` are taken eight at a time: eight independent sums hide the latency of the adds.
constexpr std::size_t group = 8;

template <std::size_t lanes>
struct lane_vectors;
template <>
struct lane_vectors<4> {
  typedef float type __attribute__((vector_size(16)));
};
template <>
struct lane_vectors<8> {
  typedef float type __attribute__((vector_size(32)));
};

// out[a * nb + b] for every pair, `lanes` vectors of bs at a time (all of one length d > 0).
template <std::size_t lanes>
[[gnu::always_inline]] inline void cosine_pairs(std::span<const float_vector> as,
                                                std::span<const float_vector> bs, std::size_t d, float* out) {
  using lane_vector = typename lane_vectors<lanes>::type;
  const std::size_t na = as.size();
  const std::size_t nb = bs.size();
  // bs transposed by blocks of `lanes` vectors: dimension i of bs[k·lanes + l] at
  // bt[(k·d + i)·lanes + l], zeros past the end.
  const std::size_t blocks = (nb + lanes - 1) / lanes;
  std::vector<float> bt(blocks * d * lanes, 0.0f);
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t k = b / lanes;
    const std::size_t l = b % lanes;
    for (std::size_t i = 0; i < d; ++i) bt[(k * d + i) * lanes + l] = bs[b].values[i];
  }
  // The vectors `as` of a group are read in place, each value broadcast to every lane (a group
  // shorter than `group` reads zeros for the missing ones).
  const std::vector<float> zeros(d, 0.0f);
  for (std::size_t a0 = 0; a0 < na; a0 += group) {
    const std::size_t an = std::min(group, na - a0);
    const float* a_of[group];
    for (std::size_t q = 0; q < group; ++q) a_of[q] = q < an ? as[a0 + q].values.data() : zeros.data();
    const float *p0 = a_of[0], *p1 = a_of[1], *p2 = a_of[2], *p3 = a_of[3], *p4 = a_of[4], *p5 = a_of[5],
                *p6 = a_of[6], *p7 = a_of[7];
    for (std::size_t k = 0; k < blocks; ++k) {
      const float* col = bt.data() + k * d * lanes;
      // (Eight named sums: an array of them would live in memory at -O2.)
      lane_vector a0v = {}, a1v = {}, a2v = {}, a3v = {}, a4v = {}, a5v = {}, a6v = {}, a7v = {};
      lane_vector bv;
      for (std::size_t i = 0; i < d; ++i) {
        load_vector(bv, col + i * lanes);
        a0v += bv * p0[i];
        a1v += bv * p1[i];
        a2v += bv * p2[i];
        a3v += bv * p3[i];
        a4v += bv * p4[i];
        a5v += bv * p5[i];
        a6v += bv * p6[i];
        a7v += bv * p7[i];
      }
      const lane_vector acc[group] = {a0v, a1v, a2v, a3v, a4v, a5v, a6v, a7v};
      for (std::size_t q = 0; q < an; ++q) {
        const float_vector& a = as[a0 + q];
        for (std::size_t l = 0; l < lanes && k * lanes + l < nb; ++l) {
          const float_vector& b = bs[k * lanes + l];
          out[(a0 + q) * nb + k * lanes + l] = acc[q][l] / ((a.norm + 1e-8f) * (b.norm + 1e-8f));
        }
      }
    }
  }
}

// The eight-lane path, compiled for AVX2 (sqlmorph/wide_vectors.hpp), run where the processor has it.
SQLMORPH_AVX2 void cosine_pairs_avx2(std::span<const float_vector> as, std::span<const float_vector> bs,
                                     std::size_t d, float* out) {
  cosine_pairs<8>(as, bs, d, out);
}

}  // namespace

std::vector<float> row_cosine_matrix(std::span<const float_vector> as, std::span<const float_vector> bs,
                                     lane_width width) {
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
  if (width == lane_width::widest && processor_has_avx2())
    cosine_pairs_avx2(as, bs, d, out.data());
  else
    cosine_pairs<4>(as, bs, d, out.data());
  return out;
}

}  // namespace sqlmorph::semantic
