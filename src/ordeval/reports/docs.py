"""The measures document, generated from the measure registries: ``python -m ordeval.reports.docs > docs/measures.md``.

Everything in it comes from the code: each registered measure's name, display name, direction,
description and reference (its ``@register`` line), its formula (the function's docstring), the
notation of its task (the measures module's docstring), its properties as :mod:`ordeval.properties`
computes them (for ordinal classification, the ACL 2021 paper's Table 4, columns I-III, among them) and
the 0/0 conventions (``convention_masks``). A fast test checks that the committed ``docs/measures.md`` is
up to date. ``ordeval measures`` lists the same records (without the property checks).
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys


def _tasks() -> list[str]:
    """The tasks with a measure registry (ordeval.tasks finds them), in document order."""
    from ordeval.tasks import scoring_tasks

    return scoring_tasks()


def _title(task: str) -> str:
    """ "Ordinal quantification (OQ)"."""
    from ordeval.tasks import get_task

    found = get_task(task)
    return f"{found.title[0].upper()}{found.title[1:]} ({found.short})"


def _registry(task: str):
    from ordeval.tasks import get_task

    return get_task(task).registry


def _properties(measure) -> dict:
    """The measure's properties as plain JSON values (without its LaTeX markup)."""
    return {key: value for key, value in dict(measure.properties).items() if key != "latex"}


def _property_checks(task: str) -> dict[str, dict]:
    """{measure: {property: result}}: the property checks of every registered measure of ``task``, run once
    for the grid and the measures' sections."""
    from ordeval.properties import check_measure

    return {name: check_measure(measure) for name, measure in _registry(task).items()}


def _property_lines(task: str, checked: dict[str, dict]) -> list[str]:
    """The task's property checks (``checked``, :func:`_property_checks`) of every registered measure: a
    grid, then the definitions."""
    from ordeval.properties import properties_of

    defined = properties_of(task)
    if not defined:
        return []
    lines = [
        "Properties, computed for every measure by `ordeval.properties` (the same checks run on plugin measures;",
        "a test fails when a measure's declared flag disagrees): *yes* / *no*, with `*` where the verdict rests on",
        "the search (no counterexample, or no witness, among the instances) rather than on an example.",
        "",
        "| Measure | " + " | ".join(_cell(p.title) for p in defined.values()) + " |",
        "|---|" + "---|" * len(defined),
    ]
    for name, results in checked.items():
        cells = [("yes" if result.holds else "no") + ("" if result.decided else "\\*") for result in results.values()]
        lines.append(f"| {_cell(name)} | " + " | ".join(cells) + " |")
    lines += ["", "The properties (each one's checker builds its defining cases and searches seeded random ones):", ""]
    for prop in defined.values():
        kind = "for every instance" if prop.quantifier == "all" else "for some instance"
        lines.append(f"- **{prop.title}** (`{prop.name}`, {kind}): {' '.join(prop.definition.split())}")
    return [*lines, ""]


def measure_records(task: str | None = None) -> list[dict]:
    """Every registered measure (of ``task``, or of every task): task, name, display, direction,
    lower_is_better, description, formula, reference, meta_evaluated (False: scored only where named,
    never in the analyses' defaults), properties and, where the task has them, its 0/0 conventions."""
    records = []
    for name in [task] if task else _tasks():
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
                    "meta_evaluated": measure.meta_evaluated,
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


def _format_lines(task: str) -> list[str]:
    """The task's file formats (its registry, ``ordeval.tasks.<task>.formats``) as a table."""
    from ordeval.tasks import get_task

    lines = [
        "File formats (a data source's `type`, `--format` on the command line):",
        "",
        "| Format | Gold / runs | Needs | What |",
        "|---|---|---|---|",
    ]
    for fmt in get_task(task).formats.values():
        roles = " / ".join("runs" if role == "run" else role for role in fmt.roles)
        lines.append(f"| `{fmt.name}` | {roles} | {', '.join(fmt.needs) or '-'} | {_cell(fmt.description)} |")
    return [*lines, ""]


def markdown() -> str:
    """docs/measures.md."""
    lines = [
        "# The measures",
        "",
        "<!-- Generated from the measure registries by `python -m ordeval.reports.docs > docs/measures.md`; "
        "do not edit. -->",
        "",
        "Every measure ordeval scores, as registered in its task's measure registry: its name (used in the",
        "configuration, file names and CSV columns), the name shown in tables and figures, its direction, what",
        "it is, its formula (the docstring of the function that computes it) and where it is defined. Each",
        "measure gives one score per topic; runs are compared by their mean over the topics.",
        "`ordeval measures` lists the same on the command line (`--format json` with everything below).",
        "",
    ]
    for task in _tasks():
        records = measure_records(task)
        lines += [f"## {_title(task)}", "", "```text", _notation(task), "```", ""]
        lines += ["| Measure | Shown as | Direction | Description | Reference |", "|---|---|---|---|---|"]
        for record in records:
            lines.append(
                f"| [{_cell(record['name'])}](#{_anchor(record['name'])}) | {_cell(record['display'])} | "
                f"{record['direction']} | {_cell(record['description'])} | {_cell(record['reference'])} |"
            )
        lines.append("")
        lines += _format_lines(task)
        checked = _property_checks(task)
        lines += _property_lines(task, checked)
        for record in records:
            lines += [f"### {record['name']}", ""]
            lines.append(
                f"{record['description'][:1].upper()}{record['description'][1:]}; {record['direction']}. "
                f"Shown as {record['display']}."
                + (f" Reference: {record['reference']}." if record["reference"] else "")
                + (
                    ""
                    if record["meta_evaluated"]
                    else " Scored only where named (`--measures`, the "
                    "configuration's `measures`); not one of the analyses' defaults."
                )
            )
            lines += ["", "```text", record["formula"], "```", ""]
            checks = _checks(task, checked.get(record["name"], {}))
            others = {key: value for key, value in record["properties"].items() if key not in checks}
            if others:
                lines += ["Properties: " + ", ".join(f"{key} = {value!r}" for key, value in others.items()) + ".", ""]
            if checks:
                lines += ["Property checks:", ""]
                lines += [f"- {title}: {_cell(text)}" for title, text in checks.values()]
                lines.append("")
            if record["conventions"]:
                lines += ["Undefined (0/0) cases and the values used (the outputs count how often each occurs):", ""]
                lines += [f"- {case['case']}: {_value(case['value'])}" for case in record["conventions"]]
                lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _checks(task: str, results: dict) -> dict[str, tuple[str, str]]:
    """``{property: (title, explanation)}`` of a measure's property check ``results``."""
    from ordeval.properties import properties_of

    defined = properties_of(task)
    return {key: (defined[key].title, result.explain()) for key, result in results.items()}


def records_json(task: str | None = None) -> str:
    return json.dumps(measure_records(task), indent=2, ensure_ascii=False)


if __name__ == "__main__":
    sys.stdout.write(markdown())
