-- BIRD's official metrics (mini-dev evaluation/): Soft-F1 (evaluation_f1.py), a Soft-F1 that pairs
-- rows optimally instead of by position, and R-VES (evaluation_ves.py). BIRD's EX is set equality:
-- execution_accuracy, also reported as the EX of bird_soft_f1.

local columns, rows, scorers = sqlmorph.columns, sqlmorph.rows, sqlmorph.scorers

sqlmorph.technique{
  name = "bird_soft_f1",
  description = "BIRD's Soft-F1: repeated rows dropped, the i-th gold row against the i-th predicted row, a "
    .. "value matched when it occurs in the other row; EX set equality, EXP/EXR its precision/recall",
  columns = columns.ignore_names{},
  rows = rows.bird_soft_positional{},
  scorer = scorers.bird_soft_f1{},
}

sqlmorph.technique{
  name = "soft_f1_matched",
  description = "Soft-F1 with BIRD's cell rule but rows paired optimally (identical rows first, then an "
    .. "assignment maximizing the matched share), so row order does not matter",
  columns = columns.ignore_names{},
  rows = rows.bird_soft_matched{},
  scorer = scorers.bird_soft_f1{},
}

sqlmorph.technique{
  name = "bird_ves",
  description = "BIRD's R-VES reward: a prediction whose row set equals the gold's is timed against it "
    .. "(iterations = 100), outliers beyond 3 sigma dropped, the mean time ratio mapped to 0.25..1.25",
  columns = columns.ignore_names{},
  rows = rows.none{},
  scorer = scorers.bird_ves{},
  -- A hundred more executions of every correct prediction: only when asked for by name.
  opt_in = true,
}
