"""Significance groups: the compact letter display of a leaderboard (Piepho 2004).

Two runs share a group if and only if their difference is not significant (p >= alpha). With the randomised
Tukey HSD, p(r, s) depends on |mean_r - mean_s| only (every pair is compared with the same null distribution
of the range), so "not significantly different" links runs whose means lie within one critical distance:
with the runs sorted by mean, every maximal run of mutually non-significant neighbours is a group, and the
groups describe the p-values exactly (checked; for any other significance matrix, Piepho's insert-absorb
algorithm).

How to read a group cell: groups are labelled, down the board, ``a`` ... ``z``, ``A`` ... ``Z``, then
the same 52 letters numbered ``a1`` ... ``Z1``, ``a2`` ... ``Z2`` and so on; a run's cell lists the
labels of its groups back to back. A label is one letter with an optional number, so a cell reads one
way only: ``bc`` is groups b and c, ``Z1a2`` is groups Z1 and a2 (:func:`parse_groups`). Up to 52
groups this is the usual compact letter display (Piepho 2004).
"""

from __future__ import annotations

import re
import string

import numpy as np

ALPHABET = string.ascii_lowercase + string.ascii_uppercase
_LABEL = re.compile(r"[A-Za-z][0-9]*")

#: How to read a group cell, for the tables' notes and the results page.
GROUPS_KEY = (
    "Runs sharing a group label do not differ significantly. Labels run a-z, A-Z, then a1-Z1, a2-Z2, ...; "
    "a cell lists a run's labels back to back (bc: groups b and c; Z1a2: groups Z1 and a2)."
)


def letter(index: int) -> str:
    """The label of group ``index`` (from 0): ``a`` ... ``z``, ``A`` ... ``Z``, then the same 52 letters
    numbered: ``a1`` ... ``Z1``, ``a2`` ... ``Z2``, ... A label is one letter and an optional number, so
    labels written back to back read unambiguously at any number of groups."""
    cycle, position = divmod(index, len(ALPHABET))
    return ALPHABET[position] + (str(cycle) if cycle else "")


def format_groups(indices) -> str:
    """A run's group cell: the labels of its groups (:func:`letter`), in order, back to back."""
    return "".join(letter(int(index)) for index in indices)


def parse_groups(cell: str) -> list[str]:
    """The group labels of a group cell (``"bc"`` -> ``["b", "c"]``, ``"Z1a2"`` -> ``["Z1", "a2"]``,
    ``""`` -> ``[]``); raises ``ValueError`` for a cell that is not labels back to back."""
    text = str(cell).strip()
    labels = _LABEL.findall(text)
    if "".join(labels) != text:
        raise ValueError(f"group cell {cell!r}: expected group labels back to back (a letter, optionally a number)")
    return labels


def group_label_index(label: str) -> int:
    """The inverse of :func:`letter`: ``"a"`` -> 0, ``"Z"`` -> 51, ``"a1"`` -> 52."""
    return ALPHABET.index(label[0]) + len(ALPHABET) * int(label[1:] or 0)


def _blocks(significant: np.ndarray) -> list[tuple[int, int]]:
    """The maximal blocks ``start..end`` of consecutive runs in which no pair differs significantly, in
    order (a block contained in an earlier block is none)."""
    count = significant.shape[0]
    blocks: list[tuple[int, int]] = []
    reach = -1
    end = 0
    for start in range(count):
        end = max(end, start)
        while end + 1 < count and not significant[start : end + 2, end + 1].any():
            end += 1
        if end > reach:
            blocks.append((start, end))
            reach = end
    return blocks


def _blocks_describe(significant: np.ndarray, blocks: list[tuple[int, int]]) -> bool:
    """Whether every pair that does not differ significantly lies in one of ``blocks`` (pairs in one
    block never differ: :func:`_blocks` makes them so). True whenever "not significantly different"
    links runs whose means lie within a critical distance, as with the randomised Tukey HSD."""
    count = significant.shape[0]
    reach = np.arange(count)
    for start, end in blocks:
        reach[start : end + 1] = np.maximum(reach[start : end + 1], end)
    later = np.arange(count)[None, :] > np.arange(count)[:, None]
    covered = later & (np.arange(count)[None, :] <= reach[:, None])
    return bool(np.array_equal(covered, later & ~significant))


def _insert_absorb(significant: np.ndarray) -> np.ndarray:
    """Groups (runs x groups membership) of any symmetric significance matrix: the insert-absorb
    algorithm of Piepho (2004, J. Comput. Graph. Stat. 13(2)). Start with one group of all runs; for
    each significant pair, split every group holding both into one without the first and one without
    the second; drop any group contained in another."""
    count = significant.shape[0]
    groups = np.ones((1, count), dtype=bool)
    for first, second in zip(*np.nonzero(np.triu(significant, 1)), strict=True):
        both = groups[:, first] & groups[:, second]
        if not both.any():
            continue
        split = groups[both]
        without_first, without_second = split.copy(), split.copy()
        without_first[:, first] = False
        without_second[:, second] = False
        kept = groups[~both]  # still maximal: each was not inside the split groups, so not inside a part
        parts = np.vstack([without_first, without_second])
        # a part is dropped when another group contains it (of equal parts, the first is kept)
        inside_kept = ~(parts[:, None, :] & ~kept[None, :, :]).any(axis=2)
        inside_part = ~(parts[:, None, :] & ~parts[None, :, :]).any(axis=2)
        np.fill_diagonal(inside_part, False)
        equal = inside_part & inside_part.T
        dropped = inside_kept.any(axis=1) | (inside_part & ~equal).any(axis=1) | np.triu(equal, 1).any(axis=0)
        groups = np.vstack([kept, parts[~dropped]])
    # letters in board order: by first member, then by last member
    members = np.arange(count)
    first = np.where(groups, members, count).min(axis=1)
    last = np.where(groups, members, -1).max(axis=1)
    return groups[np.lexsort((last, first))].T


def group_membership(significant: np.ndarray) -> np.ndarray:
    """Runs x groups booleans for runs already sorted by mean, from the boolean runs x runs matrix of
    significant differences: two runs share a group if and only if they do not differ significantly
    (the compact letter display). Maximal blocks of consecutive runs where they describe the matrix
    exactly (always with the randomised Tukey HSD: O(runs^2)), else :func:`_insert_absorb`."""
    significant = np.asarray(significant, dtype=bool)
    count = significant.shape[0]
    blocks = _blocks(significant)
    if _blocks_describe(significant, blocks):
        membership = np.zeros((count, len(blocks)), dtype=bool)
        for index, (start, end) in enumerate(blocks):
            membership[start : end + 1, index] = True
        return membership
    return _insert_absorb(significant)


def compact_letters(significant: np.ndarray) -> list[str]:
    """Every run's group cell (:func:`format_groups`) for runs already sorted by mean, from the boolean
    runs x runs matrix of significant differences (see :func:`group_membership`)."""
    membership = group_membership(significant)
    return [format_groups(np.flatnonzero(row)) for row in membership]
