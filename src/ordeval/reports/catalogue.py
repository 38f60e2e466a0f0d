"""The analysis catalogue: every output ordeval writes, once.

Each :class:`Entry` names an output kind: where it goes (a path pattern under ``results/<name>/``),
its formats, the stage that makes it, its caption, and where it appears in the HTML report (category)
and in the LaTeX report (section). The planner expands the patterns for the configured data sets, the
Snakemake rules take their outputs from it, the HTML report its captions and categories, and the
LaTeX report its sections: there is no second list.

Pattern fields, named as the rules' wildcards: ``{dataset}``, ``{condition}`` (consistency), ``{measure}`` (a
data set's score matrices; the measure M of a DNKT_M table; a measure reported on by itself), ``{task_suffix}``
(``""`` for quantification, ``_oc`` for classification: outputs that combine the data sets of one task), ``{key}``
(caption files) and ``{ext}``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Stages in pipeline order; each is a Snakemake target rule (``snakemake consistency``).
STAGES = (
    "data",
    "scores",
    "agreement",
    "consistency",
    "significance",
    "popularity",
    "leaderboard",
    "topic_set_size",
    "classification",
    "replication",
    "measure_reports",
    "report",
)

#: HTML report categories, in order. The report numbers those a configuration shows with two digits from their
#: position (:func:`ordeval.workflow.pipeline.report_marks`; Snakemake's report sorts them as text), so that a
#: category is inserted by adding one line.
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
        "Every run's mean score under every measure, the measures side by side, with "
        "its significance groups. Each run's interval and rank are in tables/leaderboard/<data set>.csv, "
        "drawn in figures/leaderboard/, and tables/leaderboard/<data set>.html is a sortable results "
        "page with every run's per-topic scores.",
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


@dataclass(frozen=True)
class Entry:
    """One kind of output."""

    key: str  #: unique, e.g. ``agreement/dataset``
    stage: str  #: the stage (Snakemake target rule) that makes it
    pattern: str  #: path under results/<name>/ with ``{...}`` fields and ``.{ext}``
    formats: tuple[str, ...]  #: file extensions
    caption: str  #: what it shows; ``{...}`` fields are filled from the plan's parameters
    per: tuple[str, ...] = ()  #: pattern fields that vary (dataset, condition, combination, suffix)
    category: str = ""  #: HTML report category key (CATEGORIES); empty: not in the HTML report
    section: str = ""  #: LaTeX report section key (SECTIONS); empty: not in the LaTeX report
    #: made only for the data sets (or tasks) whose task provides it (``Task.outputs``: its canonical files,
    #: its own tables, its own stage), else for every task
    task_specific: bool = False

    @property
    def reported_format(self) -> str:
        """The format shown in the HTML report: the CSV of a table, the PNG of a figure, else the first."""
        for preferred in ("csv", "png", "md", "tsv", "json", "pdf"):
            if preferred in self.formats:
                return preferred
        return self.formats[0]


_ENTRIES = [
    # published versus reproduced (first in both reports)
    Entry(
        "replication/summary",
        "replication",
        "tables/replication/summary.{ext}",
        ("csv", "tex"),
        "Published versus reproduced: for each published table, how many of its numbers this configuration "
        "reproduces exactly at the printed precision, within randomisation error ({replication_tolerance}), "
        "differently, or cannot compare (runs not public, or not in this configuration).",
        (),
        "replication",
        "replication",
    ),
    Entry(
        "replication/page",
        "replication",
        "tables/replication/published_vs_reproduced.{ext}",
        ("html",),
        "Published versus reproduced, to read first: the counts per verdict, per published table, then every "
        "published number beside the reproduced one with its verdict (one self-contained page).",
        (),
        "replication",
    ),
    Entry(
        "replication/pooled",
        "replication",
        "tables/replication/pooled.{ext}",
        ("csv", "tex"),
        "Published versus reproduced: the discriminative power pooled over the eight OQ data sets (Sakai, CIKM "
        "2021 LQ workshop, Table 3, POOLED).",
        (),
        "replication",
        "replication",
    ),
    Entry(
        "replication/dataset",
        "replication",
        "tables/replication/{dataset}.{ext}",
        ("csv", "tex"),
        "{dataset}: every published number beside the reproduced one, the difference (reproduced - "
        "published), the verdict and the tolerance applied.",
        ("dataset",),
        "replication",
        "replication",
    ),
    # data and scores
    Entry(
        "data/gold",
        "data",
        "data/{dataset}/gold.{ext}",
        ("tsv",),
        "Canonical gold of {dataset}.",
        ("dataset",),
        task_specific=True,
    ),
    Entry(
        "data/runs",
        "data",
        "data/{dataset}/runs.{ext}",
        ("tsv",),
        "Canonical runs of {dataset}.",
        ("dataset",),
        task_specific=True,
    ),
    Entry(
        "data/arrays",
        "data",
        "data/{dataset}/arrays.{ext}",
        ("npz",),
        "The canonical gold and runs of {dataset} as arrays, with the SHA-256 of the two tables they mirror "
        "(scoring reads them instead of parsing the tables, when the hashes match).",
        ("dataset",),
        task_specific=True,
    ),
    Entry(
        "data/scores",
        "data",
        "data/{dataset}/scores.{ext}",
        ("npz",),
        "The validated score matrices of {dataset}, given as precomputed scores.",
        ("dataset",),
        task_specific=True,
    ),
    Entry(
        "data/provenance",
        "data",
        "data/{dataset}/provenance.{ext}",
        ("json",),
        "Where the gold and every run of {dataset} come from.",
        ("dataset",),
    ),
    Entry(
        "data/table",
        "data",
        "tables/datasets.{ext}",
        ("csv", "tex"),
        "The data sets (as the ACL 2021 paper's Table 1): task, classes, topics, items, runs (real, baselines, "
        "simulated) and data origin.",
        (),
        "data",
        "data",
    ),
    Entry(
        "scores/matrix",
        "scores",
        "scores/{dataset}/{measure}.{ext}",
        ("tsv",),
        "Per-topic scores of every run under {measure} on {dataset}.",
        ("dataset", "measure"),
    ),
    Entry(
        "scores/means",
        "scores",
        "scores/{dataset}/means.{ext}",
        ("tsv",),
        "Mean score of every run under every measure on {dataset} (each measure's direction is in "
        "measures.tsv beside it).",
        ("dataset",),
        "scores",
    ),
    Entry(
        "scores/measures",
        "scores",
        "scores/{dataset}/measures.{ext}",
        ("tsv",),
        "The measures scored on {dataset}: display name, direction, task.",
        ("dataset",),
    ),
    Entry(
        "scores/stack",
        "scores",
        "scores/{dataset}/stack.{ext}",
        ("npz",),
        "All score matrices of {dataset} in one binary file (read by the analyses).",
        ("dataset",),
    ),
    Entry(
        "scores/conventions",
        "scores",
        "scores/{dataset}/conventions.{ext}",
        ("tsv",),
        "How often each documented 0/0 convention of the ordinal classification measures was applied on "
        "{dataset} (topic x run cells).",
        ("dataset",),
        "scores",
        task_specific=True,
    ),
    Entry(
        "scores/pooled",
        "scores",
        "scores/{dataset}/pooled.{ext}",
        ("tsv",),
        "The official SemEval protocol on {dataset}: every measure on one confusion matrix over all items "
        "of the test set, per run.",
        ("dataset",),
        "scores",
        task_specific=True,
    ),
    # ranking agreement
    Entry(
        "agreement/dataset",
        "agreement",
        "tables/agreement/{dataset}.{ext}",
        ("csv", "tex"),
        "{dataset}: Kendall's τ-{kendall} between the run rankings of every pair of measures, with "
        "{ci_level:.0%} CIs ({ci_method}).",
        ("dataset",),
        "agreement",
        "agreement",
    ),
    Entry(
        "agreement/mean",
        "agreement",
        "tables/agreement/mean{task_suffix}.{ext}",
        ("csv", "tex"),
        "Kendall's τ-{kendall} between the measures' run rankings averaged over the {task_name} data sets.",
        ("task_suffix",),
        "agreement",
        "agreement",
    ),
    Entry(
        "agreement/similarity",
        "agreement",
        "tables/agreement/similarity{task_suffix}.{ext}",
        ("csv", "tex"),
        "Average similarity of each measure with the others ({task_name} data sets).",
        ("task_suffix",),
        "agreement",
        "agreement",
    ),
    Entry(
        "agreement/dnkt",
        "agreement",
        "tables/agreement/dnkt_{measure}.{ext}",
        ("csv", "tex"),
        "Kendall's τ between DNKT, {measure} and their harmonic mean DNKT_{measure}, per data set and averaged.",
        ("measure",),
        "agreement",
        "agreement",
    ),
    Entry(
        "agreement/heatmap",
        "agreement",
        "figures/agreement/mean_heatmap{task_suffix}.{ext}",
        ("pdf", "png"),
        "Heatmap of the averaged tau matrix ({task_name} data sets).",
        ("task_suffix",),
        "agreement",
        "agreement",
    ),
    # consistency
    Entry(
        "consistency/taus",
        "consistency",
        "consistency/{dataset}/{condition}.{ext}",
        ("tsv",),
        "{dataset}, {condition}: Kendall's τ of every measure in each of {consistency_trials} random topic splits.",
        ("dataset", "condition"),
    ),
    Entry(
        "consistency/summary",
        "consistency",
        "tables/consistency/{dataset}_{condition}.{ext}",
        ("csv", "tex"),
        "{dataset}, {condition}: mean τ over {consistency_trials} splits, the measures each one significantly "
        "outperforms (randomised Tukey HSD, B = {consistency_hsd_trials}, α = {consistency_alpha}) and VE2.",
        ("dataset", "condition"),
        "consistency",
        "consistency",
    ),
    Entry(
        "consistency/pairs",
        "consistency",
        "tables/consistency/{dataset}_{condition}_pairs.{ext}",
        ("csv", "tex"),
        "{dataset}, {condition}: difference, effect size and p-value of every pair of measures.",
        ("dataset", "condition"),
        "consistency",
        "consistency",
    ),
    Entry(
        "consistency/mean",
        "consistency",
        "tables/consistency/mean_{condition}{task_suffix}.{ext}",
        ("csv", "tex"),
        "Mean τ per measure and {task_name} data set, condition {condition}.",
        ("condition", "task_suffix"),
        "consistency",
        "consistency",
    ),
    Entry(
        "consistency/figure",
        "consistency",
        "figures/consistency/{dataset}_{condition}.{ext}",
        ("pdf", "png"),
        "{dataset}, {condition}: distribution of the split taus of every measure.",
        ("dataset", "condition"),
        "consistency",
        "consistency",
    ),
    # significance
    Entry(
        "significance/pvalues",
        "significance",
        "significance/{dataset}/pvalues.{ext}",
        ("tsv",),
        "{dataset}: randomised Tukey HSD p-value (B = {significance_hsd_trials}) of every run pair under "
        "every measure.",
        ("dataset",),
    ),
    Entry(
        "significance/arrays",
        "significance",
        "significance/{dataset}/pvalues.{ext}",
        ("npz",),
        "{dataset}: the p-values of pvalues.tsv as arrays, with the table's SHA-256 (read instead of parsing "
        "it while the hash matches).",
        ("dataset",),
    ),
    Entry(
        "significance/identical",
        "significance",
        "significance/{dataset}/identical_runs.{ext}",
        ("tsv",),
        "{dataset}: runs with identical scores under every measure.",
        ("dataset",),
    ),
    Entry(
        "significance/power",
        "significance",
        "tables/discriminative_power{task_suffix}.{ext}",
        ("csv", "tex"),
        "Discriminative power: run pairs with p < {significance_alpha} (randomised Tukey HSD, "
        "B = {significance_hsd_trials}) per {task_name} data set and pooled.",
        ("task_suffix",),
        "power",
        "power",
    ),
    Entry(
        "significance/sso",
        "significance",
        "tables/sso/{dataset}.{ext}",
        ("csv", "tex"),
        "{dataset}: significance overlap SSO = b/(a+b+c) of every pair of measures.",
        ("dataset",),
        "sso",
        "sso",
    ),
    Entry(
        "significance/counts",
        "significance",
        "tables/contradiction_counts{task_suffix}.{ext}",
        ("csv", "tex"),
        "Contradictions per pair of measures and {task_name} data set.",
        ("task_suffix",),
        "contradictions",
        "contradictions",
    ),
    # the report prints the grouped list only (the same pairs, identical runs in one row: never two lists alike)
    Entry(
        "significance/contradictions",
        "significance",
        "tables/contradictions{task_suffix}.{ext}",
        ("csv", "tex"),
        "Contradicting run pairs ({task_name} data sets).",
        ("task_suffix",),
        "contradictions",
    ),
    Entry(
        "significance/collapsed",
        "significance",
        "tables/contradictions_grouped{task_suffix}.{ext}",
        ("csv", "tex"),
        "Contradicting run pairs with identical runs collapsed into one row ({task_name} data sets).",
        ("task_suffix",),
        "contradictions",
        "contradictions",
    ),
    Entry(
        "significance/curves",
        "significance",
        "figures/dp_curves/{dataset}.{ext}",
        ("pdf", "png"),
        "{dataset}: discriminative power curves.",
        ("dataset",),
        "power",
        "power",
    ),
    Entry(
        "significance/curves_all",
        "significance",
        "figures/dp_curves/all{task_suffix}.{ext}",
        ("pdf", "png"),
        "Discriminative power curves of the {task_name} data sets.",
        ("task_suffix",),
        "power",
        "power",
    ),
    # Popularity vs Uniform
    Entry(
        "popularity/table",
        "popularity",
        "tables/popularity_vs_uniform.{ext}",
        ("csv", "tex"),
        "Topics on which each measure prefers {uniform_run} or {popularity_run}, and ties.",
        (),
        "popularity",
        "popularity",
    ),
    Entry(
        "popularity/deltas",
        "popularity",
        "tables/popularity_deltas.{ext}",
        ("csv",),
        "Per-topic Delta_M = M({popularity_run}) - M({uniform_run}).",
        (),
        "popularity",
    ),
    Entry(
        "popularity/scatter_table",
        "popularity",
        "tables/popularity_scatter/{dataset}.{ext}",
        ("csv", "tex"),
        "{dataset}: quadrant counts and Pearson r of the deltas of two measures.",
        ("dataset",),
        "popularity",
        "popularity",
    ),
    Entry(
        "popularity/scatter",
        "popularity",
        "figures/popularity_scatter/{dataset}.{ext}",
        ("pdf", "png"),
        "{dataset}: scatter plots of the deltas of two measures.",
        ("dataset",),
        "popularity",
        "popularity",
    ),
    Entry(
        "popularity/examples",
        "popularity",
        "figures/popularity_examples.{ext}",
        ("pdf", "png"),
        "Example topics where NMD and RNOD judge Popularity vs Uniform most differently.",
        (),
        "popularity",
        "popularity",
    ),
    # leaderboards
    Entry(
        "leaderboard/table",
        "leaderboard",
        "tables/leaderboard/{dataset}.{ext}",
        ("csv", "tex", "md", "html"),
        "{dataset}: every run's mean score per measure with its {leaderboard_level:.0%} interval, rank and "
        "significance groups (randomised Tukey HSD, B = {significance_hsd_trials}, "
        "α = {significance_alpha}).",
        ("dataset",),
        "leaderboard",
    ),
    # for print (the LaTeX report's appendix): the measures side by side
    Entry(
        "leaderboard/compact",
        "leaderboard",
        "tables/leaderboard/{dataset}_compact.{ext}",
        ("tex",),
        "{dataset}: every run's mean score under every measure (a column each, the arrow pointing to the "
        "better end) with its significance groups: runs that share a letter do not differ significantly "
        "(randomised Tukey HSD, B = {significance_hsd_trials}, α = {significance_alpha}).",
        ("dataset",),
        section="leaderboard",
    ),
    Entry(
        "leaderboard/pooled",
        "leaderboard",
        "tables/leaderboard/{dataset}_pooled.{ext}",
        ("csv", "tex", "md"),
        "{dataset}: every run's score per measure under the official SemEval protocol (one confusion matrix "
        "over all items), and its rank.",
        ("dataset",),
        "leaderboard",
        task_specific=True,
    ),
    Entry(
        "leaderboard/figure",
        "leaderboard",
        "figures/leaderboard/{dataset}.{ext}",
        ("pdf", "png"),
        "{dataset}: means with intervals, best first, significance groups marked.",
        ("dataset",),
        "leaderboard",
    ),
    # topic set size design
    Entry(
        "topic_set_size/table",
        "topic_set_size",
        "tables/topic_set_size/{dataset}.{ext}",
        ("csv", "tex"),
        "{dataset}: topics needed per measure (paired t-test and one-way ANOVA at α = {tss_alpha}, power "
        "{tss_power}; CI width) for minimum detectable differences scaled to each measure's score range, from "
        "the residual variance of the two-way ANOVA.",
        ("dataset",),
        "topic_set_size",
        "topic_set_size",
    ),
    Entry(
        "topic_set_size/figure",
        "topic_set_size",
        "figures/topic_set_size/{dataset}.{ext}",
        ("pdf", "png"),
        "{dataset}: topics needed against the minimum detectable difference, per measure and design.",
        ("dataset",),
        "topic_set_size",
        "topic_set_size",
    ),
    # ordinal classification, laid out as in the ACL 2021 paper
    Entry(
        "classification/agreement",
        "classification",
        "tables/oc/agreement.{ext}",
        ("csv", "tex"),
        "Kendall's τ-{kendall} between the system rankings of the OC measures per data set (Table 2 layout).",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/consistency",
        "classification",
        "tables/oc/consistency.{ext}",
        ("csv", "tex"),
        "System ranking consistency of the OC measures: full split and {subset_size} vs. {subset_size}, VE2, "
        "marks for the worst measures each beats (Table 3 layout).",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/figure1",
        "classification",
        "figures/oc/dp_curves.{ext}",
        ("pdf", "png"),
        "Discriminative power curves of the OC measures (Figure 1 layout).",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/properties",
        "classification",
        "tables/oc/properties.{ext}",
        ("csv", "tex"),
        "Properties of the OC measures (Table 4 layout), with the rules that derive columns IV-VI.",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/kappa",
        "classification",
        "tables/oc/kappa_constant.{ext}",
        ("csv", "tex"),
        "Topics on which each constant baseline gets kappa = 0.",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/pooled",
        "classification",
        "tables/oc/pooled.{ext}",
        ("csv", "tex"),
        "The official SemEval protocol: one confusion matrix over all items per run.",
        (),
        "classification",
        "classification",
        True,
    ),
    Entry(
        "classification/conventions",
        "classification",
        "tables/oc/conventions.{ext}",
        ("csv", "tex"),
        "How often each 0/0 convention of the OC measures was applied.",
        (),
        "classification",
        "classification",
        True,
    ),
    # one measure's meta-evaluation (ordeval evaluate-measure)
    Entry(
        "measures/report",
        "measure_reports",
        "measures/{measure}/report.{ext}",
        ("md", "html", "tex"),
        "The meta-evaluation of {measure} next to the established measures of its task.",
        ("measure",),
    ),
    Entry(
        "measures/pdf",
        "measure_reports",
        "measures/{measure}/report.{ext}",
        ("pdf",),
        "The meta-evaluation of {measure}, compiled.",
        ("measure",),
    ),
    # provenance and reports
    Entry(
        "report/manifest",
        "report",
        "manifest.{ext}",
        ("json",),
        "Provenance: the configuration, seeds, versions of Python and every dependency, the git commit and the "
        "SHA-256 of every input file.",
        (),
        "paper",
    ),
    Entry(
        "report/tex",
        "report",
        "report/ordeval.{ext}",
        ("tex",),
        "The LaTeX report: every table fragment and figure with its caption.",
    ),
    Entry(
        "report/pdf",
        "report",
        "report/ordeval.{ext}",
        ("pdf",),
        "The compiled report: every table and figure with captions stating the data set, whether its data "
        "are real or synthetic, and the parameters.",
        (),
        "paper",
    ),
    Entry(
        "report/intro",
        "report",
        "report/intro.{ext}",
        ("rst",),
        "The first page of the HTML report: what ordeval is, this configuration and where its data come from, "
        "and a replication's counts per verdict with a link to every published number.",
    ),
    Entry(
        "report/captions",
        "report",
        "report/captions/{key}.{ext}",
        ("rst",),
        "Caption of the HTML report's entry {key}.",
        ("key",),
    ),
]

ENTRIES: dict[str, Entry] = {entry.key: entry for entry in _ENTRIES}


def entries(stage: str | None = None) -> list[Entry]:
    return [entry for entry in ENTRIES.values() if stage is None or entry.stage == stage]
