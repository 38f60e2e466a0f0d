"""LaTeX output: the primitives every table fragment is built from.

Every string that reaches LaTeX -- data set, run and measure names, captions -- goes through
:func:`escape`, which turns the special characters into their text commands and every control or
line-separating character into a space, so that no name can become live LaTeX (not even inside the
``%`` comment lines that head each fragment). Numbers use :func:`number`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ordeval.io.files import write_text
from ordeval.io.provenance import origin_sentence

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _greek() -> dict[str, str]:
    """The Greek letters LaTeX has a math command for (not omicron, final sigma, or the capitals that look
    Latin: those of :data:`~ordeval.io.markup.GREEK`), as inline math."""
    import unicodedata

    from ordeval.io.markup import GREEK

    capitals = {name for name in GREEK if name[0].isupper()}
    found = {}
    for code in [*range(0x3B1, 0x3CA), *range(0x391, 0x3AA)]:
        character = chr(code)
        words = unicodedata.name(character, "").split()
        if not words or code == 0x3C2 or words[-1] == "OMICRON":  # unassigned, final sigma, omicron
            continue
        name = words[-1].lower().replace("lamda", "lambda")
        command = name if character.islower() else name.capitalize()
        if character.isupper() and command not in capitals:
            continue
        found[character] = rf"$\{command}$"
    return found


#: Greek letters and signs that measure names and captions use (pdflatex's utf8 input knows Latin
#: letters only): as math. Any other character beyond Latin Extended-B becomes "?", so that no name can
#: stop the report from compiling.
UNICODE_LATEX = {
    **_greek(),
    "\u00b5": r"$\mu$",  # micro sign
    "\u2212": r"$-$",  # minus sign
    "\u2013": "--",
    "\u2014": "---",
    "\u2264": r"$\le$",
    "\u2265": r"$\ge$",
    "\u221a": r"$\surd$",  # square root: "√VE2"
    "\u00b2": r"$^{2}$",  # superscript two: "σ²"
    "\u00b3": r"$^{3}$",
    "\u00b1": r"$\pm$",
    "\u00d7": r"$\times$",
    "\u2248": r"$\approx$",
    "\u2260": r"$\ne$",
    "\u2192": r"$\rightarrow$",
    "\u2191": r"$\uparrow$",
    "\u2193": r"$\downarrow$",
    "\u221e": r"$\infty$",
    "\u2026": r"\ldots{}",
}
#: Control characters and the Unicode line and paragraph separators: each becomes a space.
_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u0085]")


def plain(text) -> str:
    """``text`` on one line: every control or line-separating character replaced by a space."""
    return _BREAKING.sub(" ", str(text))


def escape(text) -> str:
    """Plain text as LaTeX: special characters escaped, Greek letters and a few signs as math, any other
    character beyond Latin Extended-B as "?", control and line-break characters as spaces."""
    return "".join(_escaped(character) for character in plain(text))


MINUS = "\u2212"
#: A superscript or subscript written as text in a caption: "MAE^µ", "F1^M", "10^-4" (a letter, digit or closing
#: bracket, then ``^`` and a sign, letters or digits, or one Greek letter); "α_ORD" (a Greek letter, then ``_`` and
#: capitals: a measure's name, as the tables print it).
_SCRIPT = re.compile(
    r"(?<=[\w)\]])\^(?P<up>[-\u2212+]?[0-9A-Za-z]+|[\u0370-\u03ff\u00b5])|(?<=[\u0370-\u03ff])_(?P<down>[A-Z]+)\b"
)


def typeset(text) -> str:
    """Trusted prose (a caption, a note) as LaTeX: :func:`escape`, with a superscript or subscript written as text
    ("MAE^µ", "10^-4", "α_ORD") set as one, so that no maths reaches the PDF as plain text."""
    parts = []
    last = 0
    text = plain(text)
    for match in _SCRIPT.finditer(text):
        parts.append(escape(text[last : match.start()]))
        if match.group("up"):
            parts.append(rf"\textsuperscript{{{escape(match.group('up').replace('-', MINUS))}}}")
        else:
            parts.append(rf"\textsubscript{{{escape(match.group('down'))}}}")
        last = match.end()
    parts.append(escape(text[last:]))
    return "".join(parts)


def _escaped(character: str) -> str:
    if character in LATEX_SPECIAL:
        return LATEX_SPECIAL[character]
    if character in UNICODE_LATEX:
        return UNICODE_LATEX[character]
    return character if ord(character) <= 0x24F else "?"


def measure_label(display: str, latex: str = "") -> str:
    """How a measure is named in tables: its registry's trusted LaTeX markup, else its escaped
    display name."""
    return latex or escape(display)


def measure_labels(measures) -> dict[str, str]:
    """``{measure: LaTeX label}`` from a data set's measure table (``scores/<dataset>/measures.tsv``)
    or a ScoreStack."""
    if hasattr(measures, "values"):  # a ScoreStack
        return {
            m: measure_label(d, x) for m, d, x in zip(measures.measures, measures.display, measures.latex, strict=True)
        }
    return {
        m: measure_label(d, x)
        for m, d, x in zip(measures["measure"], measures["display"], measures["latex"], strict=True)
    }


def number(value, decimals: int = 3) -> str:
    """A number with ``decimals`` decimals; '-' for NaN/None (e.g. an undefined SSO)."""
    if value is None:
        return "-"
    value = float(value)
    if math.isnan(value):
        return "-"
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # never "-0.000"


def bold(text: str) -> str:
    return rf"\textbf{{{text}}}"


def underline(text: str) -> str:
    return rf"\underline{{{text}}}"


def tabular(
    header: Sequence[str] | Sequence[Sequence[str]],
    rows: Iterable[Sequence[str]],
    align: str,
    *,
    rules_after: Iterable[int] = (),
    note: str = "",
) -> str:
    """A booktabs ``tabular`` (no float): cells are LaTeX already (use :func:`escape` for text).

    ``header`` is one row or several; ``rules_after`` lists body row indices followed by a midrule; ``note``
    (LaTeX already: what the data say about the table, e.g. the number of runs) is a row after the bottom rule,
    in small type, across every column.
    """
    header_rows = [header] if header and isinstance(header[0], str) else list(header)
    rules = set(rules_after)
    lines = [rf"\begin{{tabular}}{{{align}}}", r"\toprule"]
    lines += [" & ".join(row) + r" \\" for row in header_rows]
    lines.append(r"\midrule")
    for index, row in enumerate(rows):
        lines.append(" & ".join(row) + r" \\")
        if index in rules:
            lines.append(r"\midrule")
    lines.append(r"\bottomrule")
    if note:
        lines.append(note_row(note, len(align_columns(align))))
    lines += [r"\end{tabular}", ""]
    return "\n".join(lines)


def align_columns(align: str) -> list[str]:
    """The columns of a tabular's alignment (``l``, ``c``, ``r``, ``p{...}``)."""
    return re.findall(r"[lcr]|p\{[^}]*\}", align)


def note_row(note: str, columns: int) -> str:
    """A table's note (LaTeX already) as a row across its ``columns`` columns, in small type: the row that
    :func:`tabular` writes after the bottom rule."""
    return rf"\multicolumn{{{columns}}}{{l}}{{\footnotesize {note}}} \\"


def upper_triangle_tabular(
    names: Sequence[str], cells: Sequence[Sequence[str]], *, corner: str = "", escaped: bool = False, note: str = ""
) -> str:
    """A booktabs ``tabular`` of the upper triangle of a square matrix over ``names`` (plain text, or
    LaTeX already with ``escaped=True``).

    Rows are ``names[:-1]``, columns ``names[1:]``; ``cells[i][j]`` (LaTeX already) fills row i,
    column j for j > i, and the cells on and below the diagonal stay empty. A cell may hold several
    lines separated by ``\\n``: the row is then written as that many table rows. ``note``: as :func:`tabular`'s.
    """
    label = (lambda name: name) if escaped else escape
    header = [corner] + [label(name) for name in names[1:]]
    rows = []
    for i, name in enumerate(names[:-1]):
        parts = [cells[i][j].split("\n") if j > i else [""] for j in range(1, len(names))]
        height = max(len(part) for part in parts)
        for line in range(height):
            first = label(name) if line == 0 else ""
            rows.append([first] + [part[line] if line < len(part) else "" for part in parts])
    return tabular(header, rows, "l" + "c" * (len(names) - 1), note=note)


def comment(text: str) -> str:
    """A LaTeX comment line holding ``text`` (one line, whatever ``text`` holds)."""
    return f"% {plain(text)}"


def write_latex(fragment: str, path: str | Path, origins: Mapping[str, str]) -> None:
    """Write a LaTeX fragment headed by a comment saying where the data come from (the LaTeX report's caption
    takes it from there: :func:`ordeval.reports.latex.report.origin_note`). What the fragment shows is said by
    its caption (``workflow/report/<stage>/<item>.rst``), and what its data say beyond its cells by its note
    row (:func:`tabular`'s ``note``)."""
    write_text(comment(origin_sentence(origins)) + "\n" + fragment, path)
