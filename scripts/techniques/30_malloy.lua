-- The Malloy-style evaluator with its defaults (scripts/lib/malloy.lua holds the definition and
-- its options).
require("malloy").technique{}
