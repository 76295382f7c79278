#pragma once
// Vector code wider than the x86-64 baseline (SSE2) where the processor has AVX2, chosen at run
// time, for loops whose results do not depend on the vector width: element-wise work, no sum
// reassociated, and no FMA (AVX2 does not bring it, so a product and a sum are never fused): the
// same bits on every machine; only the speed differs. GCC on x86-64 only; elsewhere the baseline.
//
// - SQLMORPH_WIDE_VECTORS before a function: compiled twice, for the baseline and for AVX2, the
//   loader picking one (GCC's target_clones).
// - SQLMORPH_AVX2 before a function: compiled for AVX2 only; call it when processor_has_avx2().
// - SQLMORPH_AVX512DQ before a function: compiled for AVX-512 F and DQ (64-bit lanes multiplied);
//   call it when processor_has_avx512dq().
// - load_vector / store_vector: a vector (GCC and Clang vector extensions) from or to memory of
//   any alignment.

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SQLMORPH_WIDE_VECTORS __attribute__((target_clones("avx2", "default")))
#define SQLMORPH_AVX2 __attribute__((target("avx2")))
#define SQLMORPH_AVX512DQ __attribute__((target("avx512f,avx512dq")))
#define SQLMORPH_HAS_AVX2_PATH 1
#else
#define SQLMORPH_WIDE_VECTORS
#define SQLMORPH_AVX2
#define SQLMORPH_AVX512DQ
#define SQLMORPH_HAS_AVX2_PATH 0
#endif

#include <cstring>

namespace sqlmorph {

// (By reference: a vector wider than 16 bytes passed by value would depend on the instruction
// set's ABI.)
template <typename V, typename T>
inline void load_vector(V& v, const T* p) {
  std::memcpy(&v, p, sizeof v);
}
template <typename V, typename T>
inline void store_vector(T* p, const V& v) {
  std::memcpy(p, &v, sizeof v);
}

/// Whether SQLMORPH_AVX2 functions may run here (false where there are none).
inline bool processor_has_avx2() {
#if SQLMORPH_HAS_AVX2_PATH
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
#else
  return false;
#endif
}

/// Whether SQLMORPH_AVX512DQ functions may run here (false where there are none).
inline bool processor_has_avx512dq() {
#if SQLMORPH_HAS_AVX2_PATH
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
#else
  return false;
#endif
}

}  // namespace sqlmorph
