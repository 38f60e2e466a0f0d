"""The LaTeX markup a measure may bring for its name (the ``latex`` column of ``measures.tsv``).

A measure's label in the tables is LaTeX written by its registry (``$\\alpha_{ORD}$``, ``MAE$^{M}$``).
A ``measures.tsv`` can be edited by hand, or come from someone else, and its ``latex`` column goes into
``.tex`` files verbatim; so markup is accepted only from a small safe subset (:func:`markup_problem`):
letters, digits, spaces, ``$ ^ _ { } ( ) [ ] + - * / = , . : ; ' | < > !``, balanced braces, paired ``$``,
and backslash commands from :data:`COMMANDS` (Greek letters, font switches, a few symbols) or an
escaped special character (``\\_``, ``\\%``, ``\\&``, ``\\#``, ``\\$``, ``\\{``, ``\\}``, ``\\,``).
Anything else -- ``\\input``, ``\\write``, ``\\catcode``, ``^^5c`` (TeX's own escape for a backslash),
``%``, ``#``, ``&``, ``~``, control characters -- is refused.
"""

from __future__ import annotations

import re

GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho "
    "varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon "
    "Phi Psi Omega"
).split()
#: Backslash commands a measure label may use.
COMMANDS = frozenset(
    GREEK
    + "mathrm mathit mathbf mathsf mathtt mathcal text textrm textit textbf textsf texttt textsubscript "
    "textsuperscript operatorname emph cdot times prime ell star ast circ dagger infty pm mp leq geq neq "
    "approx sim vert lvert rvert hat bar tilde overline underline".split()
)
#: Characters a backslash may escape.
ESCAPED = frozenset("_%&#${} ,;!")
_ALLOWED = re.compile(r"[A-Za-z0-9 $^_{}()\[\]+\-*/=,.:;'|<>!\\]*")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
MAX_LENGTH = 200


def markup_problem(markup: str) -> str | None:
    """Why ``markup`` is not safe LaTeX for a measure label, or None when it is (also for "")."""
    if len(markup) > MAX_LENGTH:
        return f"LaTeX label of {len(markup)} characters (at most {MAX_LENGTH})"
    if not _ALLOWED.fullmatch(markup):
        bad = next(c for c in markup if not _ALLOWED.fullmatch(c))
        return f"LaTeX label {markup[:60]!r} contains {bad!r}, which a measure label may not use"
    if "^^" in markup:
        return f"LaTeX label {markup[:60]!r} contains '^^' (a TeX character code)"
    for match in _COMMAND.finditer(markup):
        command = match.group(1)
        if command not in COMMANDS and command not in ESCAPED:
            return f"LaTeX label {markup[:60]!r} uses \\{command}, which a measure label may not use"
    depth = 0
    for character in _COMMAND.sub("", markup):
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth < 0:
            break
    if depth:
        return f"LaTeX label {markup[:60]!r} has unbalanced braces"
    if _COMMAND.sub("", markup).count("$") % 2:
        return f"LaTeX label {markup[:60]!r} has an unpaired $"
    return None
