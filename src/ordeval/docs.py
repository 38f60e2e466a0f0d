"""The measures document, generated from the measure registries: ``python -m ordeval.docs > docs/measures.md``.

Everything in it comes from the code: each registered measure's name, display name, direction,
description and reference (its ``@register`` line), its formula (the function's docstring), the
notation of its task (the measures module's docstring) and, for ordinal classification, the property
flags of the ACL 2021 paper's Table 4 and the 0/0 conventions (``convention_masks``). A fast test checks
that the committed ``docs/measures.md`` is up to date. ``ordeval measures`` lists the same records.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys

#: The tasks with a measure registry, in document order.
TASKS = ("quantification", "classification")
TASK_TITLES = {"quantification": "Ordinal quantification (OQ)", "classification": "Ordinal classification (OC)"}
#: Property flags of the OC measures (the ACL 2021 paper's Table 4, columns I-III).
OC_PROPERTIES = {
    "ordinal": "(I) ordinal",
    "handles_constant": "(II) handles constant runs",
    "handles_imbalance": "(III) handles class imbalance",
}


def _registry(task: str):
    from .tasks import get_task

    return get_task(task).registry


def _properties(measure) -> dict:
    """The measure's properties as plain JSON values (without its LaTeX markup)."""
    return {key: value for key, value in dict(measure.properties).items() if key != "latex"}


def measure_records(task: str | None = None) -> list[dict]:
    """Every registered measure (of ``task``, or of every task): task, name, display, direction,
    lower_is_better, description, formula, reference, properties and, where the task has them, its
    0/0 conventions."""
    records = []
    for name in [task] if task else TASKS:
        conventions = conventions_of(name)
        for measure in _registry(name).values():
            records.append(
                {
                    "task": name,
                    "name": measure.name,
                    "display": measure.display,
                    "direction": measure.direction,
                    "lower_is_better": measure.lower_is_better,
                    "description": measure.description,
                    "formula": measure.formula,
                    "reference": measure.reference,
                    "properties": _properties(measure),
                    "conventions": conventions.get(measure.name, []),
                }
            )
    return records


def conventions_of(task: str) -> dict[str, list[dict]]:
    """``{measure: [{case, value}, ...]}``: the documented values of the undefined (0/0) cases, for tasks
    whose measures module has ``convention_masks`` (ordinal classification)."""
    module = _measures_module(task)
    masks = getattr(module, "convention_masks", None)
    if masks is None:
        return {}
    import numpy as np

    found: dict[str, list[dict]] = {}
    for measure, case, value, _ in masks(np.zeros((1, 3, 3))):
        found.setdefault(measure, []).append({"case": case, "value": value})
    return found


def _measures_module(task: str):
    return importlib.import_module(f"ordeval.tasks.{task}.measures")


def _notation(task: str) -> str:
    return inspect.cleandoc(_measures_module(task).__doc__ or "")


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _anchor(name: str) -> str:
    """The anchor GitHub gives a ``### <name>`` heading."""
    return "".join(character for character in name.lower() if character.isalnum() or character in "-_")


def _value(value) -> str:
    return "NaN (no score)" if value is None else repr(value)


def markdown() -> str:
    """docs/measures.md."""
    lines = [
        "# The measures",
        "",
        "<!-- Generated from the measure registries by `python -m ordeval.docs > docs/measures.md`; do not edit. -->",
        "",
        "Every measure ordeval scores, as registered in its task's measure registry: its name (used in the",
        "configuration, file names and CSV columns), the name shown in tables and figures, its direction, what",
        "it is, its formula (the docstring of the function that computes it) and where it is defined. Each",
        "measure gives one score per topic; runs are compared by their mean over the topics.",
        "`ordeval measures` lists the same on the command line (`--format json` with everything below).",
        "",
    ]
    for task in TASKS:
        records = measure_records(task)
        lines += [f"## {TASK_TITLES[task]}", "", "```text", _notation(task), "```", ""]
        lines += ["| Measure | Shown as | Direction | Description | Reference |", "|---|---|---|---|---|"]
        for record in records:
            lines.append(
                f"| [{_cell(record['name'])}](#{_anchor(record['name'])}) | {_cell(record['display'])} | "
                f"{record['direction']} | {_cell(record['description'])} | {_cell(record['reference'])} |"
            )
        lines.append("")
        flagged = [record for record in records if any(key in record["properties"] for key in OC_PROPERTIES)]
        if flagged:
            lines += [
                "Properties (the ACL 2021 paper's Table 4, columns I-III; checked by the property tests):",
                "",
                "| Measure | " + " | ".join(OC_PROPERTIES.values()) + " |",
                "|---|" + "---|" * len(OC_PROPERTIES),
            ]
            for record in flagged:
                flags = ["yes" if record["properties"].get(key) else "no" for key in OC_PROPERTIES]
                lines.append(f"| {_cell(record['name'])} | " + " | ".join(flags) + " |")
            lines.append("")
        for record in records:
            lines += [f"### {record['name']}", ""]
            lines.append(
                f"{record['description'][:1].upper()}{record['description'][1:]}; {record['direction']}. "
                f"Shown as {record['display']}."
                + (f" Reference: {record['reference']}." if record["reference"] else "")
            )
            lines += ["", "```text", record["formula"], "```", ""]
            others = {key: value for key, value in record["properties"].items() if key not in OC_PROPERTIES}
            if others:
                lines += ["Properties: " + ", ".join(f"{key} = {value!r}" for key, value in others.items()) + ".", ""]
            if record["conventions"]:
                lines += ["Undefined (0/0) cases and the values used (the outputs count how often each occurs):", ""]
                lines += [f"- {case['case']}: {_value(case['value'])}" for case in record["conventions"]]
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def records_json(task: str | None = None) -> str:
    return json.dumps(measure_records(task), indent=2, ensure_ascii=False)


if __name__ == "__main__":
    sys.stdout.write(markdown())
