"""Captions in the PDF: maths written as text in a caption file ("MAE^µ", "10^-4", "α_ORD", "σ²", "√VE2") is set as
maths (ordeval.reports.latex.typeset), never printed as "^" or "_"; the lists' entry taken from a caption's first
sentence is not cut at an abbreviation ("Fieller et al.", "e.g.")."""

from __future__ import annotations

import pytest

from ordeval.reports.latex import typeset
from ordeval.reports.latex.report import short_caption


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("MAE^µ", r"MAE\textsuperscript{$\mu$}"),
        ("F1^M of the runs", r"F1\textsuperscript{M} of the runs"),
        ("B = 10^-4", "B = 10\\textsuperscript{$-$4}"),
        ("α_ORD", r"$\alpha$\textsubscript{ORD}"),
        ("σ² over √VE2", r"$\sigma$$^{2}$ over $\surd$VE2"),
        ("a file_name and x_y stay text", r"a file\_name and x\_y stay text"),
        ("≥ 50% of 3 × 4", r"$\ge$ 50\% of 3 $\times$ 4"),
    ],
)
def test_maths_written_as_text_is_typeset(text, latex):
    assert typeset(text) == latex


def test_no_list_entry_is_cut_at_an_abbreviation():
    caption = "Fisher z with the Fieller et al. variance, e.g. for tau; the intervals. More text."
    assert short_caption(caption) == "Fisher z with the Fieller et al. variance, e.g. for tau"
    assert short_caption("One sentence without a stop") == "One sentence without a stop"
