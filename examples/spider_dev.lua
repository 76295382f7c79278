-- Evaluates the four published systems of ../shared/benchmarks/spider-dev/predictions under every
-- technique and writes a comparison table (one row per technique variant, one column per system).
--
--   build/sqlmorph run examples/spider_dev.lua [SPIDER_DEV_DIR] [OUT_DIR]
--
-- SPIDER_DEV_DIR defaults to ../shared/benchmarks/spider-dev, OUT_DIR to spider-dev-results.
-- OUT_DIR receives results.jsonl (every example x technique), summary.json and comparison.txt.

local spider_dir = arg[1] or "../shared/benchmarks/spider-dev"
local out = arg[2] or "spider-dev-results"

local systems = {
  { name = "dail-sql-gpt4", pred = spider_dir .. "/predictions/dail-sql-gpt4.sql" },
  { name = "c3-gpt35",      pred = spider_dir .. "/predictions/c3-gpt35.sql" },
  { name = "din-sql-gpt4",  pred = spider_dir .. "/predictions/din-sql-gpt4.csv" },
  { name = "resdsql-3b",    pred = spider_dir .. "/predictions/resdsql-3b.sql" },
}

local examples = sqlmorph.spider{
  gold = spider_dir .. "/dev_gold.sql",
  db_root = spider_dir .. "/database",
  systems = systems,
}

local result = sqlmorph.evaluate{
  examples = examples,
  techniques = "all",
  penalize = "both",
  out = out,
}

-- One row per technique variant, one column per system: EX for the techniques that only decide
-- equivalence, F1 for the cell techniques (both penalize_extra_pred_cols variants).
local header = { "technique", "metric" }
for _, system in ipairs(systems) do header[#header + 1] = system.name end

local lines, index = {}, {}
for _, row in ipairs(result.rows) do
  local variant = row.technique
  if row.penalize ~= nil then variant = variant .. (row.penalize and " (penalize)" or " (no penalize)") end
  if not index[variant] then
    lines[#lines + 1] = { variant, row.penalize == nil and "EX" or "F1" }
    index[variant] = #lines
  end
  for s, system in ipairs(systems) do
    if row.system == system.name then
      lines[index[variant]][2 + s] = row.penalize == nil and row.EX or row.F1
    end
  end
end

local text = string.format("Spider dev: %d examples per system, %.2f s (wta_1 is missing: its examples are db_missing, left out of the means)\n\n%s",
  #examples // #systems, result.wall_seconds, sqlmorph.format_table(header, lines))
print(text)
sqlmorph.write_file(out .. "/comparison.txt", text)
sqlmorph.log.info("comparison written to %s/comparison.txt", out)
