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

-- The semantic techniques (components of the matchers_semantic plugin). Their embedder is the
-- configured one ([embedding] embedder of sqlmorph.toml, hash_trigram unless set), always behind
-- the embedding cache; pass `embedder = "NAME"` to a component to choose another.

sqlmorph.technique{
  name = "semantic_column_and_exact_cell",
  description = "columns paired by embedded descriptions (optimal assignment, cosine > 0.7); cells counted by "
    .. "multiset intersection of rows projected in pair order",
  columns = columns.semantic{},
  rows = rows.multiset{},
  scorer = scorers.semantic_cells{},
}

sqlmorph.technique{
  name = "semantic_column_and_partial_cell",
  description = "columns paired by embedded descriptions (optimal assignment, cosine > 0.7); leftover rows paired "
    .. "greedily by their share of equal cells",
  columns = columns.semantic{},
  rows = rows.greedy_partial{ cells = sqlmorph.cells.exact{} },
  scorer = scorers.semantic_cells{},
}

sqlmorph.technique{
  name = "unified_column_and_semantic_row",
  description = "rows as strings over the union of column names, embedded and assigned optimally by cosine, "
    .. "weighted by the share of gold column names the prediction has (may be negative)",
  columns = columns.exact_names{},
  rows = rows.semantic_rows{},
  scorer = scorers.row_similarity{},
}
