#pragma once
// SQLMORPH_WIDE_VECTORS before a function: it is compiled twice, for the baseline x86-64 (SSE2)
// and for AVX2, and the loader picks the AVX2 one where the processor has it (GCC's
// target_clones). For element-wise loops only: each element is computed by the same operations
// either way (AVX2 does not bring FMA, so a product and a sum are never fused), so the results are
// the same bits on every machine; only the vector width differs.

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SQLMORPH_WIDE_VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define SQLMORPH_WIDE_VECTORS
#endif
