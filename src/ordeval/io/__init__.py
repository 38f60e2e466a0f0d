"""Text and table input and output: errors that name file and line, strict field, JSON and .npz reading, input
files that must be regular files, floats as shortest round-trip text, small column tables, atomic writes, names,
and where numbers come from (data origin)."""
