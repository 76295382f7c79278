// The manifest of the reference components: the matchers, scorers and SQL rewrites that the
// reference techniques of TECHNIQUES.md are assembled from.

#include <sqlmorph/plugin.hpp>

#include "column_matchers.hpp"
#include "exact_cells.hpp"
#include "row_matchers.hpp"
#include "scorers.hpp"
#include "spider_plug_value.hpp"
#include "spider_rewriters.hpp"

namespace {

using namespace sqlmorph::reference;
using sqlmorph::plugin::component;

const sqlmorph_option_v1 equivalence_cells[] = {
    {"cells", "cell_matcher", "exact", "cell equivalence used to compare values (must be an equivalence)"}};

const sqlmorph_option_v1 greedy_partial_options[] = {
    {"cells", "cell_matcher", "exact",
     "how two cells match; an equivalence (e.g. exact) runs in n·log n, any other similarity scores every "
     "row pair"}};

const sqlmorph_option_v1 permutation_options[] = {
    {"order_rule", "string", "sql_substring",
     "when row order matters: sql_substring (the gold SQL lower-cased contains 'order by', the official "
     "rule), "
     "sql_tokens (a top-level ORDER BY in the gold SQL's tokens), never, always"},
    {"quick_reject", "bool", "true",
     "apply the official evaluator's quick rejection (rows with values sorted by str+type must agree)"},
    {"cells", "cell_matcher", "exact", "cell equivalence used to compare values (must be an equivalence)"}};

const sqlmorph_option_v1 cells_scorer_options[] = {{"penalize_extra_pred_cols", "bool", "true",
                                                    "count every predicted cell in precision (true) or only "
                                                    "cells of aligned columns / matched rows (false)",
                                                    SQLMORPH_OPTION_SWEEPABLE}};

const sqlmorph_option_v1 remove_distinct_options[] = {
    {"keep_distinct", "bool", "false", "leave DISTINCT in place (the official evaluator's --keep_distinct)"}};

const sqlmorph_option_v1 plug_value_options[] = {
    {"plug_value", "bool", "false",
     "plug the gold query's values into the prediction's value slots in every possible way (the official "
     "evaluator's --plug_value; off: only the prediction itself)"},
    {"max_candidates", "int", "100000",
     "most ways of plugging tried per example; an example with more is reported as a technique error"}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "matchers_reference", "1.0.0",
    component<positional_columns>("positional", "1.0.0",
                                  "column i of the gold result against column i of the prediction"),
    component<exact_name_columns>(
        "exact_names", "1.0.0",
        "columns with equal names, sorted by code point; a duplicated name at its last position"),
    component<ignore_name_columns>("ignore_names", "1.0.0",
                                   "column identity ignored; rows compared as bags of values"),
    component<any_order_columns>("any_order", "1.0.0",
                                 "any one-to-one column mapping, searched by the row matcher"),
    component<exact_cells>(
        "exact", "1.0.0", "reference equality: NULL = NULL, 1 = 1.0, text and blobs byte for byte, '1' != 1"),
    component<set_equality_rows>("set_equality", "1.0.0",
                                 "equivalent iff the sets of rows are equal under a full column alignment",
                                 equivalence_cells),
    component<multiset_rows>("multiset", "1.0.0",
                             "matched cells = |aligned columns| x multiset intersection of projected rows",
                             equivalence_cells),
    component<greedy_partial_rows>(
        "greedy_partial", "1.0.0",
        "multiset intersection, then leftover rows paired greedily by their share of "
        "equal cells (SQLMorph's partial-cell rule)",
        greedy_partial_options),
    component<value_set_partial_rows>(
        "value_set_partial", "1.0.0",
        "rows as sets of str() values: equal sets paired in order, then leftovers "
        "greedily by Jaccard similarity (SQLMorph's no-column rule)"),
    component<permutation_equivalence_rows>(
        "permutation_equivalence", "1.0.0",
        "equivalent iff a column bijection makes the rows equal, as lists when "
        "order matters, else as multisets (Spider's result_eq)",
        permutation_options),
    component<no_rows>("none", "1.0.0", "matches nothing: for scorers that read the results themselves"),
    component<sqlmorph_cells_scorer>("sqlmorph_cells", "1.0.0",
                                     "SQLMorph EX (row-set equality) and cell precision / recall / F1",
                                     cells_scorer_options),
    component<verdict_scorer>("verdict", "1.0.0", "EX = the row matcher's equivalence verdict"),
    component<spider_fix_spaced_operators>(
        "spider_fix_spaced_operators", "1.0.0",
        "official Spider postprocess: '> =' -> '>=', '< =' -> '<=', '! =' -> '!='"),
    component<spider_remove_distinct>(
        "spider_remove_distinct", "1.0.0",
        "official Spider remove_distinct: first statement only, DISTINCT tokens dropped",
        remove_distinct_options),
    component<spider_curdate_year>("spider_curdate_year", "1.0.0",
                                   "official Spider replace_cur_year: YEAR(CURDATE()) -> 2020"),
    component<spider_plug_value>("spider_plug_value", "1.0.0",
                                 "official Spider get_all_preds_for_execution: the gold's values plugged "
                                 "into the prediction's value slots (with plug_value on)",
                                 plug_value_options))
