// The reference techniques of TECHNIQUES.md declared in C++ from the matchers_reference components:
// the built-in path that scripts/techniques/*.lua must reproduce exactly.

#include "builtin_reference_techniques.hpp"

namespace sqlmorph::core {
namespace {

technique_spec declare(std::string name, std::string description, component_spec columns, component_spec rows,
                       component_spec scorer, std::vector<component_spec> rewriters = {}) {
  technique_spec s;
  s.name = std::move(name);
  s.description = std::move(description);
  s.columns = std::move(columns);
  s.rows = std::move(rows);
  s.scorer = std::move(scorer);
  s.rewriters = std::move(rewriters);
  s.origin = "built-in (C++)";
  return s;
}

}  // namespace

void add_reference_techniques(technique_catalog& catalog) {
  catalog.add(declare("execution_accuracy",
                      "EX only: the set of gold rows equals the set of predicted rows (column order matters)",
                      component_spec("positional"), component_spec("set_equality"),
                      component_spec("verdict")));
  catalog.add(
      declare("exact_column_and_exact_cell",
              "columns matched by exact name; cells counted by multiset intersection of projected rows",
              component_spec("exact_names"), component_spec("multiset"), component_spec("sqlmorph_cells")));
  catalog.add(declare(
      "exact_column_and_partial_cell",
      "columns matched by exact name; leftover rows paired greedily by their share of equal cells",
      component_spec("exact_names"), component_spec("greedy_partial", {{"cells", std::string("exact")}}),
      component_spec("sqlmorph_cells")));
  catalog.add(declare(
      "no_column_and_partial_cell",
      "column names ignored; rows as sets of str() values, paired exactly then greedily by Jaccard",
      component_spec("ignore_names"), component_spec("value_set_partial"), component_spec("sqlmorph_cells")));
  catalog.add(declare(
      "test_suite",
      "the official Spider comparison (result_eq): any column order, rows as a multiset unless "
      "the gold SQL contains 'order by'",
      component_spec("any_order"), component_spec("permutation_equivalence"), component_spec("verdict")));
  catalog.add(declare("spider_official_exec",
                      "the official Spider per-example exec score: test_suite after the official rewrites "
                      "(DISTINCT removed, '> =' fixed, YEAR(CURDATE()) -> 2020)",
                      component_spec("any_order"), component_spec("permutation_equivalence"),
                      component_spec("verdict"),
                      {component_spec("spider_fix_spaced_operators"),
                       component_spec("spider_remove_distinct", {{"keep_distinct", false}}),
                       component_spec("spider_curdate_year")}));
}

}  // namespace sqlmorph::core
