-- A normalizer written in Lua: text is trimmed and lower-cased before matching, so a prediction
-- that returns " ADA" where the gold has "Ada" still gets the cell.
--
--   sqlmorph --config examples/techniques/sqlmorph.toml compare --db DB --gold ... --pred ... \
--       --techniques case_insensitive_partial_cell

local function fold(v)
  if type(v) ~= "string" then return v end  -- numbers, NULL (sqlmorph.null) and blobs pass through
  local s = v:gsub("^%s+", "")
  s = s:gsub("%s+$", "")
  return s:lower()
end

sqlmorph.technique{
  name = "case_insensitive_partial_cell",
  description = "exact_column_and_partial_cell after trimming and lower-casing text (a Lua normalizer)",
  normalize = { sqlmorph.normalizer(fold) },
  columns = sqlmorph.columns.exact_names{},
  rows = sqlmorph.rows.greedy_partial{},
  scorer = sqlmorph.scorers.sqlmorph_cells{},
}
