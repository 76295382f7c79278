-- A cell matcher written in Lua: numbers within 1% of each other count as equal; any other cells
-- must be equal. It is a similarity, not an equivalence, so the partial matcher scores every pair
-- of rows with it (quadratic): fine for the result sizes text-to-SQL produces.

local function close(gold, pred)
  if type(gold) == "number" and type(pred) == "number" then
    local scale = math.max(math.abs(gold), math.abs(pred), 1e-12)
    return math.abs(gold - pred) / scale <= 0.01
  end
  return sqlmorph.equal(gold, pred)
end

sqlmorph.technique{
  name = "tolerant_partial_cell",
  description = "exact_column_and_partial_cell where numbers within 1% are equal (a Lua cell matcher)",
  columns = sqlmorph.columns.exact_names{},
  rows = sqlmorph.rows.greedy_partial{ cells = sqlmorph.cell_matcher(close) },
  scorer = sqlmorph.scorers.sqlmorph_cells{},
}
