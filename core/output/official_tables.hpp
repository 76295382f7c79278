#pragma once
// The tables the official evaluators print, filled from a run's summary, so a number can be checked
// against the official script's output at a glance: Spider's table (evaluation.py print_scores
// with --etype all: execution accuracy per hardness with the test-suite accuracy beside it, exact
// set match and the partial-match table) and BIRD's blocks (mini-dev evaluation_utils.py
// print_data: EX, Soft-F1 and R-VES per difficulty).

#include <string>

#include "output/run_summary.hpp"

namespace sqlmorph::core {

/// Spider's table for one system: the execution block from spider_official_exec ("execution") and
/// spider_test_suite ("test-suite"), then the exact-match block of spider_exact_match; the levels
/// easy, medium, hard, extra, all, counts of scored examples (the exact-match block gets its own
/// count row where its counts differ: it needs tables.json only, execution a database file).
/// Empty when the run has none of the three for examples of Spider's hardness levels. A technique
/// that judged no prediction (every record a technique, script or backend error, or db_missing)
/// gets no row.
std::string spider_official_table(const run_summary& summary, const std::string& system);

/// BIRD's blocks for one system: EX (execution_accuracy, or the EX of bird_soft_f1), Soft-F1
/// (bird_soft_f1) and R-VES (bird_ves), each as print_data prints it (simple, moderate,
/// challenging, total; scores × 100 with two decimals). Empty when the run has none of them for
/// examples of BIRD's difficulty levels; a block whose technique judged no prediction is left out.
std::string bird_official_table(const run_summary& summary, const std::string& system);

/// Every system's Spider and BIRD tables, each under a title line ("" when there are none): what
/// `eval` and `merge` print after their own tables.
std::string official_tables_text(const run_summary& summary);

}  // namespace sqlmorph::core
