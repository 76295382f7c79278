// The manifest of the basic normalizers.

#include <sqlmorph/plugin.hpp>

#include "value_normalizers.hpp"

namespace {
using namespace sqlmorph::normalizers;
using sqlmorph::plugin::component;

const sqlmorph_option_v1 numbers_options[] = {
    {"trim", "bool", "true", "ignore whitespace around a numeral (\" 42 \" becomes 42)"}};
const sqlmorph_option_v1 round_options[] = {{"digits", "int", "6", "decimal places kept (0 to 15)"}};
}  // namespace

SQLMORPH_PLUGIN_LIBRARY(
    "normalizers_basic", "1.0.0",
    component<numbers_from_text>("numbers_from_text", "1.0.0",
                                 "text that reads as a number becomes that number (1 == 1.0 == \"1\")",
                                 numbers_options),
    component<trim_text>("trim", "1.0.0", "removes whitespace around text"),
    component<case_fold>("case_fold", "1.0.0", "lower-cases text as Python's str.lower() does"),
    component<round_reals>("round_reals", "1.0.0", "rounds reals to a number of decimal places",
                           round_options))
