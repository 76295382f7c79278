#pragma once
// The float32 row similarities of unified_column_and_semantic_row for every pair of two sets of
// vectors at once, bit for bit what row_cosine gives pair by pair.

#include <span>
#include <vector>

#include "similarity.hpp"

namespace sqlmorph::semantic {

/// How many pairs row_cosine_matrix computes at once: four, or eight where the processor has AVX2
/// (the default; `four` lets a test check the other path on any machine).
enum class lane_width { four, widest };

/// out[a * bs.size() + b] = row_cosine(as[a], bs[b]) for every pair, with the same float32
/// products and sums in the same order (so the same bits), computed for several pairs at once in
/// SIMD lanes: each lane runs one pair's sequential sum. Vectors of different lengths fall back to
/// row_cosine pair by pair.
std::vector<float> row_cosine_matrix(std::span<const float_vector> as, std::span<const float_vector> bs,
                                     lane_width width = lane_width::widest);

}  // namespace sqlmorph::semantic
