-- BIRD mini-dev's three dialects in one run, each on its own engine: the SQLite gold and
-- predictions on SQLite, the PostgreSQL ones on PostgreSQL, the MySQL gold on MariaDB
-- (examples/bird/three_dialects.sh builds the databases and the backends `pg` and `maria`).
--
--   sqlmorph --config CONFIG run examples/bird/three_dialects.lua BIRD_DIR DB_ROOT OUT GOLD_PREDICTIONS_DIR
local bird, db_root, out, golds = arg[1], arg[2], arg[3], arg[4]

local function set(dialect, systems)
  return sqlmorph.bird{ gold = bird .. "/mini_dev_" .. dialect .. ".json", db_root = db_root, systems = systems }
end

local sqlite = set("sqlite", {
  { name = "gold-sqlite", pred = golds .. "/gold_sqlite.json" },
  { name = "gpt-4-turbo-sqlite", pred = bird .. "/predictions/predict_mini_dev_gpt-4-turbo_sqlite.json" },
})
local postgresql = set("postgresql", {
  { name = "gold-postgresql", pred = golds .. "/gold_postgresql.json" },
  { name = "gpt-4-turbo-postgresql", pred = bird .. "/predictions/predict_mini_dev_gpt-4-turbo_postgresql.json" },
})
local mysql = set("mysql", { { name = "gold-mysql", pred = golds .. "/gold_mysql.json" } })

local r = sqlmorph.evaluate{
  examples = { sqlite:on("sqlite"), postgresql:on("pg"), mysql:on("maria") },
  techniques = { "execution_accuracy" },
  judges = "sql_correctness",
  out = out,
  overwrite = true,
}
print("one run, each dialect on its engine:")
for _, row in ipairs(r.judges) do
  print(string.format("  %-24s binds %3d/%d", row.system, math.floor(row.mean_label * row.labelled + 0.5), row.count))
end
for _, row in ipairs(r.rows) do
  local statuses = {}
  for status, n in pairs(row.statuses) do statuses[#statuses + 1] = status .. "=" .. n end
  table.sort(statuses)
  print(string.format("  %-24s %s: %s", row.system, row.technique, table.concat(statuses, " ")))
end
