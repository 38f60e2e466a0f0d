"""The measure lists of Sakai's papers on OQ measures: the analyses' defaults.

A measure added to the registry (``measures.register``) beyond the built-in ones is appended to
every default list, so that it shows up next to the papers' measures with no configuration change.
"""

from __future__ import annotations

from .measures import added_measures

#: Ranking agreement tables, in the papers' order.
AGREEMENT = ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD"]
#: The measures M of the DNKT_M tables.
DNKT_COMBINATIONS = ["JSD", "NMD", "RNOD"]
#: Discriminative power, SSO and contradiction tables; Popularity vs Uniform.
SIGNIFICANCE = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]
POPULARITY = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]


def with_added(defaults: list[str]) -> list[str]:
    """``defaults`` followed by every measure registered beyond the built-in ones."""
    return list(defaults) + [name for name in added_measures() if name not in defaults]
