"""Text and table input and output: errors that name file and line, strict field and JSON reading, floats as
shortest round-trip text, small column tables, atomic writes, names, and where numbers come from (data origin)."""
