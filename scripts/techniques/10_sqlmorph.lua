-- The SQLMorph techniques (TECHNIQUES.md §3), assembled from the components of the
-- matchers_reference plugin. Declaring a technique only composes components: nothing here runs
-- per row or per cell.

local columns, rows, scorers = sqlmorph.columns, sqlmorph.rows, sqlmorph.scorers

sqlmorph.technique{
  name = "execution_accuracy",
  description = "EX only: the set of gold rows equals the set of predicted rows (column order matters)",
  columns = columns.positional{},
  rows = rows.set_equality{},
  scorer = scorers.verdict{},
}

sqlmorph.technique{
  name = "exact_column_and_exact_cell",
  description = "columns matched by exact name; cells counted by multiset intersection of projected rows",
  columns = columns.exact_names{},
  rows = rows.multiset{},
  scorer = scorers.sqlmorph_cells{},
}

sqlmorph.technique{
  name = "exact_column_and_partial_cell",
  description = "columns matched by exact name; leftover rows paired greedily by their share of equal cells",
  columns = columns.exact_names{},
  rows = rows.greedy_partial{ cells = sqlmorph.cells.exact{} },
  scorer = scorers.sqlmorph_cells{},
}

sqlmorph.technique{
  name = "no_column_and_partial_cell",
  description = "column names ignored; rows as sets of str() values, paired exactly then greedily by Jaccard",
  columns = columns.ignore_names{},
  rows = rows.value_set_partial{},
  scorer = scorers.sqlmorph_cells{},
}
