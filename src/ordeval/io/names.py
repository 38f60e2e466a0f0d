"""One name policy for configuration names, data sets, runs and measures.

Names become folder and file names, CSV cells, LaTeX text and figure labels, so they are checked
when the configuration is loaded (and when a file brings run names): letters, digits and ``_ . + -``,
starting with a letter or digit, at most 64 characters; no path separators, no ``.``/``..``, no
whitespace or control characters; none of the words the outputs use for themselves (``all``,
``mean``, ``TOTAL``, ``POOLED``, column names such as ``topic``), in any case, alone or as a prefix
before ``_`` for the summary names (``mean_half``, ``all_oc``, ``dnkt_NMD``); and nothing Windows cannot
name a file: its device names (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0``-``COM9``, ``LPT0``-``LPT9``, in any
case, also before an extension: ``nul.x``) and a name ending in ``.`` (Windows drops it: ``TinyOC.`` would be
the file of ``TinyOC``).
"""

from __future__ import annotations

import re

from ordeval.io.errors import ConfigError, shorten_repr

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")
#: Words used by the outputs themselves: summary rows and files, and column names.
RESERVED = frozenset(
    {
        "all",
        "mean",
        "similarity",
        "pooled",
        "total",
        "topic",
        "run",
        "item",
        "label",
        "class",
        "prob",
        "measure",
        "dataset",
        "data_origin",
        "group",
    }
)
#: Windows's device names: no file or folder may be named so, with or without an extension.
DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{digit}" for digit in range(10)), *(f"lpt{digit}" for digit in range(10))}
)
#: Summary outputs are named ``<word>_<something>``: a data set may not start like that.
RESERVED_PREFIXES = ("all_", "mean_", "similarity_", "dnkt_")


def name_problem(name: object, *, kind: str = "name") -> str | None:
    """Why ``name`` breaks the policy, or None when it is fine (the name shown cut to 200 characters)."""
    if not isinstance(name, str):
        return f"{kind} {shorten_repr(name)} is not a string"
    shown = shorten_repr(name)
    if name in {".", ".."}:
        return f"{kind} {shown} is a relative path"
    if "/" in name or "\\" in name:
        return f"{kind} {shown} contains a path separator"
    if any(character.isspace() or not character.isprintable() for character in name):
        return f"{kind} {shown} contains whitespace or a control character"
    if not NAME.match(name):
        return (
            f"{kind} {shown} is not allowed: use letters, digits and _ . + - (starting with a letter or digit, "
            "at most 64 characters)"
        )
    lowered = name.lower()
    if lowered.split(".")[0] in DEVICES:
        return (
            f"{kind} {shown} is a device name on Windows (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9, also before an "
            "extension): no file may be named so there"
        )
    if name.endswith("."):
        return f"{kind} {shown} ends with '.', which Windows drops from file names (it would name another's file)"
    if lowered in RESERVED:
        return f"{kind} {shown} is a reserved word ({', '.join(sorted(RESERVED))})"
    if kind == "data set" and lowered.startswith(RESERVED_PREFIXES):
        return f"{kind} {shown} starts like a summary output ({', '.join(RESERVED_PREFIXES)})"
    return None


def distinct(text: str) -> str:
    """``repr(text)`` for a name read from a file, such that two names that differ only in Unicode
    normalisation print differently: a name not in NFC form (``'cafe\\u0301'``, e with a combining accent,
    beside ``'café'``) shows its characters beyond ASCII as code points."""
    import unicodedata

    return repr(text) if unicodedata.is_normalized("NFC", text) else ascii(text)


def printable(text: str) -> str:
    """``text`` on one line: every non-printable character as its Python escape (``\\n``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_name(name: object, *, kind: str, key: str) -> str:
    """``name`` if it follows the policy; otherwise a ConfigError naming the configuration ``key``."""
    problem = name_problem(name, kind=kind)
    if problem:  # the key may hold the name itself: shown with its control characters escaped
        raise ConfigError(f"{printable(key)}: {problem}")
    return name  # type: ignore[return-value]


def check_paths(owners) -> None:
    """``owners``: (output path, catalogue entry, its data set or None, its measure or None) of every output a
    configuration's names give. Two outputs with one path, or with paths that differ only in case (one file on
    a case-insensitive file system), are a ConfigError naming the configuration key of the name to change: the
    measure's, else the longer data set name (the one the pipeline's suffix makes look like the other), else
    the later one."""
    seen: dict[str, tuple] = {}
    for owner in owners:
        first = seen.setdefault(owner[0].casefold(), owner)
        if first is owner or first[1:] == owner[1:]:
            continue
        blamed = min((owner, first), key=lambda item: (item[3] is None, -len(item[2] or "")))
        kind = f"measure {blamed[3]!r}" if blamed[3] else f"data set {blamed[2]!r}"
        key = "measures" if blamed[3] and not blamed[2] else f"datasets.{blamed[2]}"
        made = [
            f"{entry} of data set {dataset!r}" + (f" (measure {measure!r})" if measure else "") if dataset else entry
            for _, entry, dataset, measure in (first, owner)
        ]
        if first[0] == owner[0]:
            clash = f"{owner[0]} would be written twice"
        else:
            clash = (
                f"{first[0]} and {owner[0]} differ only in case, one file on a case-insensitive file system "
                "(macOS, Windows)"
            )
        raise ConfigError(f"config key {key}: {clash}: as {made[0]} and as {made[1]}; rename {kind}")


def _form(text: str) -> str:
    import unicodedata

    for form in ("NFC", "NFD"):
        if unicodedata.is_normalized(form, text):
            return form
    return "neither NFC nor NFD"


def normalisation_twin(name: str, names) -> str | None:
    """The one of ``names`` that differs from ``name`` only in Unicode normalisation (the same text in NFC:
    ``'café'`` written with a precomposed é, or as e and a combining accent), or None. Only a name beyond ASCII
    can have one; ``names`` is read once (call it where an error is raised, not per name of a file)."""
    import unicodedata

    if name.isascii():
        return None
    target = unicodedata.normalize("NFC", name)
    for other in names:
        if other != name and not other.isascii() and unicodedata.normalize("NFC", other) == target:
            return other
    return None


def normalisation_hint(name: str, names, where: str = "") -> str:
    """A hint for an error about ``name`` not found among ``names`` (topics of a run against the gold's, item ids):
    "; 'cafe\\u0301' (NFD) and 'café' (NFC) differ only in Unicode normalisation: write both in one form (NFC)",
    naming the other's place (``where``, e.g. "in the gold") -- or "" where no name of ``names`` is its twin
    (:func:`normalisation_twin`)."""
    other = normalisation_twin(name, names)
    if other is None:
        return ""
    place = f" {where}" if where else ""
    return (
        f"; {distinct(name)} ({_form(name)}) and {distinct(other)}{place} ({_form(other)}) differ only in Unicode "
        "normalisation: write both in one form (NFC, as most editors save)"
    )


def normalisation_hints(missing, extra) -> str:
    """The :func:`normalisation_hint` of the first name of ``missing`` that has a twin among ``extra`` (two sets of
    names that should be equal, e.g. the topics of two files), or ""."""
    extra = list(extra)
    for name in missing:
        hint = normalisation_hint(name, extra)
        if hint:
            return hint
    return ""
