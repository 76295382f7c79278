-- The official Spider evaluation (test-suite-sql-eval): the comparison `result_eq`, and the
-- per-example exec score that first rewrites both queries as the official evaluator does.

local columns, rows, scorers, rewriters = sqlmorph.columns, sqlmorph.rows, sqlmorph.scorers, sqlmorph.rewriters

sqlmorph.technique{
  name = "test_suite",
  description = "the official Spider comparison (result_eq): any column order, rows as a multiset unless "
    .. "the gold SQL contains 'order by'",
  columns = columns.any_order{},
  rows = rows.permutation_equivalence{},
  scorer = scorers.verdict{},
}

sqlmorph.technique{
  name = "spider_official_exec",
  description = "the official Spider per-example exec score: test_suite after the official rewrites "
    .. "(DISTINCT removed, '> =' fixed, YEAR(CURDATE()) -> 2020)",
  rewriters = {
    rewriters.spider_fix_spaced_operators{},
    rewriters.spider_remove_distinct{ keep_distinct = false },
    rewriters.spider_curdate_year{},
  },
  columns = columns.any_order{},
  rows = rows.permutation_equivalence{},
  scorer = scorers.verdict{},
}
