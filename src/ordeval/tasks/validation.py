"""Checking a gold or run file and listing EVERY problem in it (``ordeval validate``, ``ordeval score``).

The readers of the tasks (:mod:`ordeval.tasks.quantification.readers`,
:mod:`ordeval.tasks.classification.readers`) stop at the first problem of a file. To list all of them
with exactly the readers' rules, :func:`check_file` reads the file, and after each problem re-reads it
with the offending part taken out (:mod:`ordeval.tasks.rereading`):

* line-based formats (``semeval_dist``, ``semeval_labels``, ``tsv``): the offending line is blanked
  (empty lines are skipped but keep their numbers, so later line numbers stay right); where a problem
  concerns a whole distribution of a long table (its sum, a probability out of range), every line of
  that topic (and run) is taken out, and problems that follow only from lines already reported are not
  listed again;
* JSON formats (``ntcir_annotations``, ``ntcir_submission``): the offending record is left out (records
  keep their numbers, and the line where each record starts is reported);
* problems that hide the rest of the file stop the check: a file that is not UTF-8 where the reader
  does not say the line, invalid JSON syntax, a wrong header, an empty file, a run paired by position
  with another number of lines than the gold has items.

With a gold, a run is also paired with it: topics (quantification) or items (classification) that the
run misses or that the gold lacks are listed one by one, with the gold's line for a missing one.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ordeval.io.errors import InputError
from ordeval.io.names import distinct, normalisation_hint
from ordeval.tasks.rereading import FileCopy, Problem, json_loop, line_loop


def _formats(task: str):
    """The task's registered file formats (:class:`ordeval.tasks.formats.FileFormats`)."""
    from ordeval.tasks import get_task

    return get_task(task).formats


#: The problems listed per file before the check stops.
MAX_PROBLEMS = 200
#: A distribution's sum further than this from 1 is reported (floating-point sums of exact fractions
#: are within ~1e-15); up to the reader's tolerance it is renormalised.
SUM_REPORTED = 1e-9


@dataclass
class Checked:
    """What checking one file found: its problems, and what could be read (``parsed``: run name -> the
    reader's result, ``""`` for a gold or a single run)."""

    path: Path
    task: str
    fmt: str
    role: str
    problems: list[Problem] = field(default_factory=list)
    parsed: dict | None = None
    truncated: bool = False  #: stopped after MAX_PROBLEMS problems
    notes: list[str] = field(default_factory=list)  #: what was not checked, and why

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """``ok: 100 topics, 12,379 items`` (what was read), for a file without problems."""
        values = list((self.parsed or {}).values())
        if not values:
            return "ok"
        first = values[0]
        parts = []
        if self.role == "run" and (len(values) > 1 or self.fmt == "tsv"):
            parts.append(f"{len(values):,} run{'s' if len(values) != 1 else ''}")
        if hasattr(first, "topics"):  # quantification distributions, classification gold items
            parts.append(_count(len(first.topics), "topic"))
        if hasattr(first, "items"):
            parts.append(_count(len(first.items), "item"))
        elif not hasattr(first, "topics"):  # a classification run: labels per line, or per gold item
            parts.append(_count(len(first), "item") + (" paired with the gold" if not hasattr(first, "fields") else ""))
        deviations = [found for value in values if (found := getattr(value, "sum_deviation", lambda: None)())]
        if deviations:
            largest, where, tolerance = max(deviations, key=lambda found: found[0])
            if largest > SUM_REPORTED:
                parts.append(f"largest |sum - 1| {largest:.3g} at {where}, renormalised (tolerance {tolerance})")
            else:
                parts.append("every distribution sums to 1")
        return "ok: " + ", ".join(parts)


# --------------------------------------------------------------------------- readers per format


def _count(number: int, noun: str) -> str:
    """``1 topic``, ``12,379 items``."""
    return f"{number:,} {noun}{'s' if number != 1 else ''}"


def role_of(path: str | Path, task: str, fmt: str, role: str | None = None) -> str:
    """``gold`` or ``run``: as asked, as the format implies, or from a long table's header (a ``run``
    column makes it a runs table)."""
    roles = _formats(task)[fmt].roles
    if role:
        if role not in roles:
            raise ValueError(f"a {fmt} file is a {' or '.join(roles)} file for {task}, not a {role}")
        return role
    if len(roles) == 1:
        return roles[0]
    if fmt == "tsv":
        return "run" if "run" in _first_line(path).split("\t") else "gold"
    return "gold"


def _first_line(path: str | Path) -> str:
    """The first non-empty line (none where the file is not text: the reader then says why)."""
    from ordeval.io.parsing import first_line

    try:
        return first_line(path)[1]
    except (OSError, InputError):
        return ""


def _reader(
    task: str, fmt: str, role: str, classes: Sequence, score: str | None, name: str, gold=None, align: str = "id"
) -> Callable[[Path], dict]:
    """A function reading one file (path -> {run name: parsed}) with the reader its format registers."""
    found = _formats(task)[fmt]
    if "score" in found.needs and not score:
        raise ValueError(f"{fmt} files hold several scores: say which with --score (A, E or S)")
    source = {"role": role, "score": score, "name": name}

    def read(p) -> dict:
        return found.read(p, classes, source)

    from ordeval.tasks import get_task

    return get_task(task).checked_reader(read, role, name, gold, align)


# --------------------------------------------------------------------------- checking a file


def check_file(
    path: str | Path,
    task: str,
    fmt: str,
    classes: Sequence,
    *,
    score: str | None = None,
    role: str | None = None,
    gold: Checked | None = None,
    align: str = "id",
    name: str = "",
    limit: int = MAX_PROBLEMS,
) -> Checked:
    """Every problem of one gold or run file (and, with ``gold``, of its pairing with the gold); for a line-based
    file without problems, what it does that the readers accept as the official scorers do (:func:`quirks`), as
    notes."""
    checked = _check_file(
        Path(path), task, fmt, classes, score=score, role=role, gold=gold, align=align, name=name, limit=limit
    )
    if checked.ok and not _formats(task)[fmt].json:
        checked.notes += quirks(path)
    return checked


def _check_file(
    path: Path,
    task: str,
    fmt: str,
    classes: Sequence,
    *,
    score: str | None,
    role: str | None,
    gold: Checked | None,
    align: str,
    name: str,
    limit: int,
) -> Checked:
    if fmt not in _formats(task):
        raise ValueError(f"{task} files can be {', '.join(_formats(task))}, not {fmt!r}")
    role = "run" if gold is not None else role_of(path, task, fmt, role)
    checked = Checked(path, task, fmt, role)
    name = name or path.stem
    gold_data = None
    if gold is not None:
        if gold.parsed is None:
            raise ValueError("the gold has problems: check it first")
        gold_data = gold.parsed[""]
    from ordeval.tasks import get_task

    pairing = get_task(task).pairing
    paired = pairing == "items" and gold_data is not None
    # First the file by itself (a run to be paired with a gold: its lines only), then the pairing.
    read = _reader(task, fmt, role, classes, score, name, None, "position" if paired else align)
    with tempfile.TemporaryDirectory(prefix="ordeval-validate-") as folder:
        copy = FileCopy(path, Path(folder))
        if _formats(task)[fmt].json:
            problems, parsed, truncated, left_out = json_loop(copy, read, limit)
        else:
            problems, parsed, truncated = line_loop(copy, read, fmt, limit)
            left_out = set()
        problems.sort(key=lambda problem: problem.line or 0 if problem.line else float("inf"))
        checked.problems, checked.parsed, checked.truncated = problems, parsed, truncated
        if gold_data is not None and (truncated or parsed is None):
            checked.notes.append("the pairing with the gold is checked once the problems above are fixed")
        if gold_data is None or truncated or parsed is None:
            return checked
        if pairing == "topics":
            checked.problems += _topic_pairing(path, parsed, gold, left_out | _blanked_topics(copy, task, fmt))
        elif align == "position" and problems:  # a line taken out would shift every later one
            checked.notes.append("the pairing with the gold is checked once the problems above are fixed")
        else:
            pair = _reader(task, fmt, role, classes, score, name, gold_data, align)
            more, checked.parsed, checked.truncated = line_loop(copy, pair, fmt, limit - len(problems))
            if more and _misses(more[-1]):  # "misses N items, e.g. ...": list every missing item instead
                more[-1:] = _missing_items(
                    path, read(copy.current()), gold_data, copy, limit - len(problems) - len(more) + 1
                )
            checked.problems += more
    if len(checked.problems) > limit:
        checked.problems, checked.truncated = checked.problems[:limit], True
    return checked


#: A number written without a digit before its point (``.01``, ``-.5``), as some official files write them.
_BARE_POINT = re.compile(r"^[+-]?\.[0-9]+(?:[eE][+-]?[0-9]+)?$")


def quirks(path: str | Path) -> list[str]:
    """What a line-based file does that the readers accept as the official scorers do, but that a file
    written anew should not (README, "The official SemEval-2016 results"): tabs after a line's last field,
    no newline at the end, numbers without a digit before the point. Read line by line."""
    from ordeval.io.parsing import iter_lines

    tabs, points, first_tab, first_point = 0, 0, 0, 0
    for number, line in iter_lines(path):
        if line.endswith("\t") and line.strip():
            tabs += 1
            first_tab = first_tab or number
        bare = sum(1 for field in line.split("\t") if _BARE_POINT.match(field))
        if bare:
            points += bare
            first_point = first_point or number
    found = []
    if tabs:
        lines = "1 line ends" if tabs == 1 else f"{tabs} lines end"
        found.append(
            f"{lines} with a tab after the last field (ignored, as the official scorers read them; first "
            f"at line {first_tab})"
        )
    if points:
        found.append(
            f"{points} number{'s' if points != 1 else ''} without a digit before the point, as .01 (read "
            f"as 0.01; first at line {first_point})"
        )
    with open(path, "rb") as handle:
        if handle.seek(0, os.SEEK_END):
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                found.append("no newline at the end of the file (the last line is read all the same)")
    return found


def _misses(problem: Problem) -> bool:
    return problem.line is None and " misses " in problem.problem


def _blanked_topics(copy: FileCopy, task: str, fmt: str) -> set[str]:
    """The topics of the lines blanked in ``copy`` (a run's topics left out of the pairing with its gold)."""
    from ordeval.tasks import get_task

    column = get_task(task).gold_topic_column.get(fmt)
    if column is None:
        return set()
    return {fields[column].strip() for number in copy.blanked if len(fields := copy.fields(number)) > column}


def _line_of(location: str) -> int | None:
    match = re.match(r"^(?:line|record) (\d+)", location)
    return int(match.group(1)) if match and location.startswith("line") else None


def _topic_pairing(path: Path, runs: dict, gold: Checked, left_out: set[str]) -> list[Problem]:
    """Quantification: topics a run has that the gold lacks, and gold topics the run misses."""
    gold_data = gold.parsed[""]
    gold_topics = set(gold_data.topics)
    problems = []
    for run, data in runs.items():
        who = f"run {run!r} " if run else ""
        for topic, location in zip(data.topics, data.locations, strict=True):
            if topic not in gold_topics:
                extra = "" if _line_of(location) else f"{location}: "
                hint = normalisation_hint(topic, gold_data.topics, "in the gold")
                problems.append(
                    Problem(
                        str(path),
                        _line_of(location),
                        f"{extra}{who}has topic {distinct(topic)}, which the gold lacks{hint}",
                    )
                )
        present = set(data.topics)
        for topic, location in zip(gold_data.topics, gold_data.locations, strict=True):
            if topic not in present and topic not in left_out:
                line = _line_of(location)
                place = f"{gold.path}:{line}" if line else f"{gold.path}, {location}"
                hint = normalisation_hint(topic, present - gold_topics, "in the run")
                problems.append(
                    Problem(str(path), None, f"{who}misses topic {distinct(topic)} of the gold ({place}){hint}")
                )
    return problems


def _missing_items(path: Path, tables: dict, gold, copy: FileCopy, limit: int) -> list[Problem]:
    """Classification: every gold item a run does not name (items of lines already reported aside)."""
    problems = []
    for run, table in tables.items():
        keys = set(table.key_bytes().tobytes().decode("utf-8").split("\n")[:-1])
        # items of lines already reported (a bad label, an item under another topic) are not listed again
        column = 0 if table.item_first else 1
        reported = {fields[column] for number in copy.blanked if len(fields := copy.fields(number)) > column}
        gold_keys = gold.keys(table.item_first)
        missing = [
            index for index, key in enumerate(gold_keys) if key not in keys and gold.items[index] not in reported
        ]
        for index in missing[:limit]:
            item, topic = gold.items[index], gold.topics[gold.item_topic[index]]
            hint = normalisation_hint(item, (key.split("\t")[column] for key in keys if "\t" in key), "in the run")
            hint = hint or normalisation_hint(topic, (key.split("\t")[1 - column] for key in keys if "\t" in key))
            problems.append(
                Problem(
                    str(path),
                    None,
                    f"run {run!r} misses item {distinct(item)} of topic {distinct(topic)} ({gold.where(index)}){hint}",
                )
            )
    return problems
