"""The measure lists of Sakai's papers: the analyses' defaults, per task.

An analysis whose configuration section names no measures uses the paper's list for the task (in the
paper's order), followed by every registered measure the papers do not know -- so that a measure
added to a registry (in ordeval, in a plugin, by an installed package) shows up next to the papers'
measures in every analysis with no configuration change, wherever and whenever it was registered.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Ordinal quantification (ACL-IJCNLP 2021; CIKM 2021 LQ workshop; the RNOD-variants/DNKT study).
OQ_AGREEMENT = ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD"]
OQ_SIGNIFICANCE = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]
OQ_KNOWN = frozenset(OQ_AGREEMENT) | {"DNKT_JSD", "DNKT_NMD", "DNKT_RNOD"}
#: The measures M of the DNKT_M tables.
DNKT_COMBINATIONS = ["JSD", "NMD", "RNOD"]

#: Ordinal classification (ACL-IJCNLP 2021, Table 2 order).
OC_ORDER = ["alpha_ORD", "alpha_INT", "HMPR", "F1_M", "MAE_M", "kappa", "CEM_ORD", "Accuracy", "MAE_mu"]

#: task -> analysis -> the paper's list (None: every scored measure, in registry order).
DEFAULTS: dict[str, dict[str, list[str] | None]] = {
    "quantification": {
        "agreement": OQ_AGREEMENT,
        "consistency": None,
        "significance": OQ_SIGNIFICANCE,
        "popularity": OQ_SIGNIFICANCE,
        "leaderboard": OQ_SIGNIFICANCE,
        "topic_set_size": OQ_SIGNIFICANCE,
    },
    "classification": {
        "agreement": OC_ORDER,
        "consistency": OC_ORDER,
        "significance": OC_ORDER,
        "popularity": OC_ORDER,
        "leaderboard": OC_ORDER,
        "topic_set_size": OC_ORDER,
    },
}
KNOWN: dict[str, frozenset[str]] = {"quantification": OQ_KNOWN, "classification": frozenset(OC_ORDER)}


def default_measures(task: str, analysis: str, scored: Sequence[str]) -> list[str]:
    """The papers' list of ``analysis`` for ``task`` restricted to the ``scored`` measures, then every
    scored measure the papers do not know (in scoring order)."""
    base = DEFAULTS.get(task, {}).get(analysis)
    known = KNOWN.get(task, frozenset())
    listed = [name for name in (base if base is not None else scored) if name in scored]
    return listed + [name for name in scored if name not in known and name not in listed]
