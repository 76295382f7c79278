// The manifest of the built-in deterministic judges.

#include <sqlmorph/plugin.hpp>

#include "sql_correctness.hpp"

namespace {
using sqlmorph::plugin::component;

const sqlmorph_option_v1 correctness_options[] = {
    {"timeout", "double", "10", "seconds the engine may take to parse and bind one statement"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "judges_builtin", "1.0.0",
    component<sqlmorph::judges::sql_correctness>(
        "sql_correctness", "1.0.0",
        "does the SQL parse and bind against the database's schema (checked by the engine, "
        "never executed)",
        correctness_options))
