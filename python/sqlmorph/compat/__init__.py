"""Drop-in layers for code written against other evaluation tools (sqlmorph.compat.sqlmorph)."""
