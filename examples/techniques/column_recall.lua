-- A whole scorer written in Lua: which gold columns the prediction reproduces, whatever their
-- names and order. A gold column is reproduced when an unused predicted column holds the same
-- multiset of values. EXR = reproduced / gold columns, EXP = reproduced / predicted columns, EX = 1
-- when every column on both sides is paired; the extra field `matched_columns` says how many.

local function column_key(result, c)
  local values = {}
  for _, row in result:rows() do values[#values + 1] = sqlmorph.str(row[c]) end
  table.sort(values)
  return table.concat(values, "\31")
end

local function score(gold, pred, context)
  local available = {}
  for c = 1, pred:column_count() do
    local key = column_key(pred, c)
    available[key] = (available[key] or 0) + 1
  end
  local matched = 0
  for c = 1, gold:column_count() do
    local key = column_key(gold, c)
    if (available[key] or 0) > 0 then
      available[key] = available[key] - 1
      matched = matched + 1
    end
  end
  local recall = matched / gold:column_count()
  local precision = matched / pred:column_count()
  return {
    EX = (matched == gold:column_count() and matched == pred:column_count()) and 1 or 0,
    EXP = precision,
    EXR = recall,
    F1 = (precision + recall > 0) and 2 * precision * recall / (precision + recall) or 0,
    matched_columns = matched,
  }
end

sqlmorph.technique{
  name = "column_recall",
  description = "gold columns reproduced by some predicted column, by value multiset (a Lua scorer)",
  columns = sqlmorph.columns.any_order{},
  rows = sqlmorph.rows.none{},
  scorer = sqlmorph.scorer(score),
}
