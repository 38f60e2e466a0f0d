"""How the reports are organised: the pipeline's stages, the HTML report's categories and the PDF's sections.

The outputs themselves are listed once, by the rules that make them (``workflow/rules/*.smk``): each rule names
its output paths, marks those the HTML report shows with ``report(caption=..., category=category(key))``, and
its stage's target rule lists what the stage makes. The captions are text files beside the rules
(``workflow/report/<stage>/<item>.rst``), read by both reports.
"""

from __future__ import annotations

#: Stages in pipeline order; each is a Snakemake target rule (``snakemake consistency``), the last rule of its rule
#: file (``figures``: every data set's figures, of the consistency, significance, leaderboard and topic set size
#: stages, one job per data set).
STAGES = (
    "data",
    "scores",
    "agreement",
    "consistency",
    "significance",
    "popularity",
    "leaderboard",
    "topic_set_size",
    "figures",
    "classification",
    "replication",
    "measure_reports",
    "report",
)

#: HTML report categories, in order (Snakemake's report sorts them as text: :func:`category` numbers them).
CATEGORIES = {
    "replication": "Published versus reproduced",
    "data": "Data",
    "scores": "Scores",
    "agreement": "Ranking agreement",
    "consistency": "Ranking consistency",
    "power": "Discriminative power",
    "sso": "Significance overlap",
    "contradictions": "Contradictions",
    "popularity": "Popularity vs Uniform",
    "leaderboard": "Leaderboards",
    "topic_set_size": "Topic set size",
    "classification": "Ordinal classification (ACL 2021 layout)",
    "paper": "Paper and provenance",
}

#: LaTeX report sections, in order: title and opening sentence.
SECTIONS = {
    "replication": (
        "Published versus reproduced",
        "Every number the replicated publications print for the data "
        "sets of this configuration (Sakai, ACL-IJCNLP 2021, Tables 2 and 3; Sakai, CIKM 2021 LQ "
        "workshop, Table 3; Sakai, the RNOD-variants and DNKT study, Tables 3 and 25; Nakov et al., "
        "SemEval-2016 Task 4 official results), beside the number reproduced here, with the difference "
        "and a verdict: exact at the printed precision; within randomisation error (statistics of random "
        "splits and permutations, within the stated tolerance); differs; not comparable (the runs are "
        "not the papers' runs here, most often because they are not public). First the counts per "
        "verdict, then every number (ordeval docs/methods.md, section 7).",
    ),
    "data": ("Data sets", "The data sets, their tasks and sizes, and where their data come from."),
    "agreement": (
        "Ranking agreement",
        "Kendall's tau between the measures' system rankings (Sakai, ACL-IJCNLP 2021; ordeval docs/methods.md 4.1).",
    ),
    "consistency": (
        "System ranking consistency",
        "Agreement of each measure's system rankings on random topic "
        "splits, tested with the randomised Tukey HSD (Sakai, ACL-IJCNLP 2021; ordeval "
        "docs/methods.md 4.2, 4.3).",
    ),
    "power": (
        "Discriminative power",
        "Significant run pairs under the randomised Tukey HSD (Sakai, ACL-IJCNLP 2021; ordeval docs/methods.md 4.4).",
    ),
    "sso": (
        "Significance overlap",
        "Overlap of the significant run pairs of two measures (ordeval docs/methods.md 4.5).",
    ),
    "contradictions": (
        "Contradictions",
        "Run pairs that two measures find significant in opposite directions (ordeval docs/methods.md 4.5).",
    ),
    "popularity": (
        "Popularity vs Uniform",
        "The oracle Popularity baseline against the Uniform baseline, topic "
        "by topic (Sakai, CIKM 2021 LQ workshop; ordeval docs/methods.md 4.6).",
    ),
    "leaderboard": (
        "Leaderboards",
        "Per data set, every run's mean score under each measure with its interval and significance groups (a "
        "figure), then every run's mean score under every measure, the measures side by side, with its "
        "significance groups (a table). The results folder has each run's interval and rank as a table "
        "(tables/leaderboard/, CSV) and a sortable results page with every run's per-topic scores (HTML).",
    ),
    "topic_set_size": (
        "Topic set size",
        "How many topics a test collection needs for each measure to detect a "
        "given difference between runs, from the measure's residual variance (Sakai, Information "
        "Retrieval Journal 19(3), 2016).",
    ),
    "classification": (
        "Ordinal classification",
        "The ordinal classification data sets laid out as in the "
        "ACL 2021 paper: agreement (its Table 2), consistency (Table 3), discriminative power "
        "(Figure 1), the measures' properties (Table 4), and the official SemEval protocol.",
    ),
}


def category(key: str) -> str:
    """The HTML report's category ``key`` (:data:`CATEGORIES`) as a rule's ``report()`` names it: numbered from its
    position, ``"03 Ranking agreement"``, so that Snakemake's report, which sorts them as text, keeps this order."""
    return f"{list(CATEGORIES).index(key) + 1:02d} {CATEGORIES[key]}"
