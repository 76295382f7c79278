-- The official Spider evaluation (test-suite-sql-eval): the comparison `result_eq`, the per-example
-- exec score that first rewrites both queries as the official evaluator does, and the same score over
-- every database of a test suite. Both exec scores take `--plug-value` (the official --plug_value):
-- it turns on the `plug_value` option of their candidates component.

local columns, rows, scorers, rewriters = sqlmorph.columns, sqlmorph.rows, sqlmorph.scorers, sqlmorph.rewriters
local candidates = sqlmorph.candidates

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
  candidates = candidates.spider_plug_value{},
  columns = columns.any_order{},
  rows = rows.permutation_equivalence{},
  scorer = scorers.verdict{},
}

sqlmorph.technique{
  name = "spider_test_suite",
  description = "the official test-suite accuracy: spider_official_exec on every *.sqlite of the example's "
    .. "database folder (sorted by name), correct only if every one agrees",
  rewriters = {
    rewriters.spider_fix_spaced_operators{},
    rewriters.spider_remove_distinct{ keep_distinct = false },
    rewriters.spider_curdate_year{},
  },
  databases = "variants",
  candidates = candidates.spider_plug_value{},
  columns = columns.any_order{},
  rows = rows.permutation_equivalence{},
  scorer = scorers.verdict{},
}
