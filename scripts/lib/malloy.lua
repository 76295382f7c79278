-- The Malloy-style evaluator (TECHNIQUES.md §4): permutation / multiset equivalence after type
-- normalization, written over core components.
--
--   * any column order;
--   * rows compared as a multiset (duplicates counted) unless the gold SQL orders its final result
--     with a top-level ORDER BY, detected from the SQL's tokens (not a substring: "ORDER\nBY"
--     counts, ORDER BY inside a subquery or a string does not);
--   * numbers and numeric text compare as numbers: 1 == 1.0 == "1"; NULL equals only NULL;
--   * no quick-rejection quirk (the official evaluator sorts values by str+type first).
--
-- Options (all off by default):
--   float_digits = N   reals equal when they agree after rounding to N decimal places
--   case_fold = true   text compared lower-cased (Python's str.lower())
--   trim = true        text compared without surrounding whitespace
--
--   local malloy = require("malloy")
--   malloy.technique{ name = "malloy_tolerant", float_digits = 6, case_fold = true }

local M = {}

--- The normalizers a Malloy-style comparison applies, in order.
function M.normalizers(options)
  options = options or {}
  local n = sqlmorph.normalizers
  local list = {}
  if options.trim then list[#list + 1] = n.trim{} end
  list[#list + 1] = n.numbers_from_text{ trim = true }
  if options.case_fold then list[#list + 1] = n.case_fold{} end
  if options.float_digits then list[#list + 1] = n.round_reals{ digits = options.float_digits } end
  return list
end

--- Declares a Malloy-style technique and returns its name.
function M.technique(options)
  options = options or {}
  for key in pairs(options) do
    if key ~= "name" and key ~= "description" and key ~= "float_digits" and key ~= "case_fold" and key ~= "trim" then
      error("malloy.technique: unknown option '" .. tostring(key) .. "' (name, description, float_digits, case_fold, trim)", 2)
    end
  end
  return sqlmorph.technique{
    name = options.name or "malloy",
    description = options.description or
      "Malloy-style: any column order, multiset rows unless a top-level ORDER BY, 1 == 1.0 == \"1\"",
    normalize = M.normalizers(options),
    columns = sqlmorph.columns.any_order{},
    rows = sqlmorph.rows.permutation_equivalence{ order_rule = "sql_tokens", quick_reject = false },
    scorer = sqlmorph.scorers.verdict{},
  }
end

return M
