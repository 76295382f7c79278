// The manifest of the semantic components: the column matcher, row matcher and scorers that
// semantic_column_and_exact_cell, semantic_column_and_partial_cell and
// unified_column_and_semantic_row are assembled from (with matchers_reference's row matchers).

#include <sqlmorph/plugin.hpp>

#include "scorers.hpp"
#include "semantic_columns.hpp"
#include "semantic_rows.hpp"

namespace {

using namespace sqlmorph::semantic;
using sqlmorph::plugin::component;

// The embedder option names the `default` embedder: the one [embedding] embedder of sqlmorph.toml
// chooses (hash_trigram unless configured), wrapped by the embedding cache.
const sqlmorph_option_v1 semantic_column_options[] = {
    {"embedder", "embedder", "default",
     "embedder of the column descriptions (default: [embedding] embedder)"},
    {"threshold", "double", "0.7", "pairs need a cosine similarity strictly above this"}};

const sqlmorph_option_v1 semantic_row_options[] = {
    {"embedder", "embedder", "default", "embedder of the row strings (default: [embedding] embedder)"}};

const sqlmorph_option_v1 semantic_cells_options[] = {
    {"penalize_extra_pred_cols", "bool", "true",
     "count every predicted cell in precision (true) or only cells of paired columns (false)",
     SQLMORPH_OPTION_SWEEPABLE}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY("matchers_semantic", "1.0.0",
                        component<semantic_columns>(
                            "semantic", "1.0.0",
                            "columns paired by an optimal assignment on the cosine similarity of embedded "
                            "column descriptions (name, dtype, top-10 values); pairs above the threshold, "
                            "sorted by (predicted name, gold name)",
                            semantic_column_options),
                        component<semantic_rows>(
                            "semantic_rows", "1.0.0",
                            "rows as strings over the union of column names, embedded, assigned optimally by "
                            "float32 cosine; reports the coverage-weighted similarity sum",
                            semantic_row_options),
                        component<semantic_cells_scorer>(
                            "semantic_cells", "1.0.0",
                            "SQLMorph EX / EXP / EXR / F1 of the semantic-column techniques (EX forced "
                            "to 1 when both cell counts are 0)",
                            semantic_cells_options),
                        component<row_similarity_scorer>(
                            "row_similarity", "1.0.0",
                            "EXP / EXR / F1 from the semantic_rows similarity sum (may be negative)"))
