"""A toy file format, registered from outside the package (a plugin): ``toy_csv``, one line per topic,
``topic,p(c_1),...,p(c_K)`` separated by commas. Used by tests/test_formats.py."""

import numpy as np

from ordeval.io.errors import InputError
from ordeval.tasks.quantification import register_format
from ordeval.tasks.quantification.readers import TopicDistributions, checked_distributions


@register_format("toy_csv", roles=("gold", "run"), description="topic,p(c_1),...,p(c_K): comma-separated")
def read_toy_csv(path, classes, source):
    topics, rows, lines = [], [], []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split(",")
            if len(fields) != len(classes) + 1:
                raise InputError(path, f"line {number}", f"expected {len(classes) + 1} fields, found {len(fields)}")
            try:
                rows.append([float(value) for value in fields[1:]])
            except ValueError:
                raise InputError(path, f"line {number}", "a probability is not a number") from None
            topics.append(fields[0])
            lines.append(f"line {number}")
    values = checked_distributions(np.array(rows, dtype=float).reshape(-1, len(classes)), path, lambda row: lines[row])
    return {"": TopicDistributions(str(path), topics, values, lines)}
