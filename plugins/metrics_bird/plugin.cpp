// The manifest of BIRD's official metrics: Soft-F1 (and a variant pairing rows optimally) and R-VES.

#include <sqlmorph/plugin.hpp>

#include "soft_f1.hpp"
#include "ves.hpp"

namespace {

using namespace sqlmorph::bird;
using sqlmorph::plugin::component;

const sqlmorph_option_v1 matched_options[] = {
    {"max_assignment_cells", "int", "4000000",
     "largest gold × predicted matrix of non-identical rows paired by optimal assignment; larger ones "
     "are paired by position (the row match says pairing = positional)"}};

const sqlmorph_option_v1 ves_options[] = {
    {"iterations", "int", "100",
     "times each query of a correct prediction is executed and timed (BIRD: 100; at least 2)"}};

}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "metrics_bird", "1.0.0",
    component<soft_positional_rows>(
        "bird_soft_positional", "1.0.0",
        "BIRD's Soft-F1 sums: repeated rows dropped, the i-th gold row against the "
        "i-th predicted row, a value matched when it occurs in the other row"),
    component<soft_matched_rows>("bird_soft_matched", "1.0.0",
                                 "Soft-F1 sums with rows paired optimally (identical rows first, then an "
                                 "assignment maximizing the matched share)",
                                 matched_options),
    component<soft_f1_scorer>(
        "bird_soft_f1", "1.0.0",
        "BIRD's Soft-F1 from the sums (both empty: 1), EXP/EXR its precision/recall, EX "
        "set equality"),
    component<ves_scorer>("bird_ves", "1.0.0",
                          "BIRD's R-VES reward: a correct prediction timed against the gold query, "
                          "outliers dropped, mean time ratio mapped to 0.25..1.25",
                          ves_options))
