"""Rule classification_tables: the ordinal classification results laid out as in the ACL 2021 paper -- its Table 2
(Kendall's τ between the OC measures per data set, shaded), Table 3 (consistency, halves and 10 vs 10, with VE2
and marks), Table 4 (the measures' properties) -- and the constant baselines' kappa, the official SemEval protocol
(one confusion matrix per run) and the 0/0 conventions; CSV and LaTeX."""

import numpy as np

from ordeval.analysis.agreement import mean_pair_table, tau_matrix
from ordeval.analysis.classification import constant_kappa_table, gold_single_class, properties_table
from ordeval.analysis.consistency import read_summary
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, read_csv, write_csv
from ordeval.properties import computed_flags
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.agreement import paper_tau_latex
from ordeval.reports.latex.classification import conventions_latex, kappa_constant_latex, pooled_latex, properties_latex
from ordeval.reports.latex.consistency import beaten_worst, paper_consistency_latex, split_heading
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.classification.measures import REGISTRY  # the measures whose properties Table 4 shows
from ordeval.tasks.classification.properties import TABLE_4_COLUMNS
from ordeval.tasks.plugins import load_plugins
from ordeval.tasks.stack import read_measure_tables, read_stack
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs, out = snakemake.params, snakemake.input, snakemake.output
    load_plugins(params.plugins)  # a plugin OC measure has its registry entry here too
    measures, conditions = params.measures, params.conditions
    files = {
        key: keyed(inputs[key], params.datasets) for key in ("agreement", "stack", "pooled", "conventions", "gold")
    }
    consistency = {c: keyed(inputs[f"consistency_{c}"], params.datasets) for c in conditions}
    datasets = {}  # each data set's files
    for name in params.datasets:
        datasets[name] = {key: found[name] for key, found in files.items()}
        datasets[name]["consistency"] = {c: consistency[c][name] for c in conditions}
        datasets[name]["topics"] = params.topics[name]
        datasets[name]["constant_runs"] = params.constant_runs[name]
    origins = origins_of(inputs.provenance)
    labels = measure_labels(read_measure_tables(inputs.measures))

    # Table 2: tau between the measures' rankings per data set
    pairs = {
        name: read_csv(files["agreement"], numeric=["tau", "ci_low", "ci_high"]) for name, files in datasets.items()
    }
    stacked = Table.concat([table.with_column("dataset", [name] * len(table)) for name, table in pairs.items()])
    write_csv(
        Table({c: stacked[c] for c in ["dataset", "measure_a", "measure_b", "tau", "ci_low", "ci_high"]}),
        out.agreement_csv,
        origins,
    )
    write_table_page(out.agreement_csv, out.agreement_html)
    write_latex(
        paper_tau_latex(pairs, measures, labels),
        out.agreement_tex,
        origins,
        f"Kendall's τ-{params.kendall} between the system rankings of the ordinal classification measures "
        "(the ACL 2021 paper's Table 2 layout); dark cells tau >= 0.8, light 0.6 <= tau < 0.8.",
    )

    # Table 3: consistency, halves and 10 vs 10
    panels, rows = {}, []
    headings = {}
    for name, files in datasets.items():
        panels[name] = {}
        for condition, path in files["consistency"].items():
            summary = read_summary(path)
            panels[name][condition] = summary
            headings[condition] = split_heading(condition, files["topics"], params.subset_size)
            marks = beaten_worst(summary)
            for row, k in zip(summary.records(), marks, strict=True):
                rows.append(
                    (
                        name,
                        condition,
                        split_heading(condition, files["topics"], params.subset_size),
                        row["measure"],
                        row["mean_tau"],
                        k,
                        row["ve2"],
                    )
                )
    columns = ["dataset", "condition", "split", "measure", "mean_tau", "beats_worst", "ve2"]
    write_csv(Table({c: [row[i] for row in rows] for i, c in enumerate(columns)}), out.consistency_csv, origins)
    write_table_page(out.consistency_csv, out.consistency_html)
    generic = {c: c.replace("half", "full split") for c in headings}
    write_latex(
        paper_consistency_latex(panels, generic, labels),
        out.consistency_tex,
        origins,
        f"System ranking consistency of the ordinal classification measures (the paper's Table 3 layout): "
        f"(a) full split, (b) {params.subset_size} vs. {params.subset_size}; mean τ over "
        f"{params.splits} splits, sorted; a mark says how many of the worst measures a measure "
        f"significantly outperforms (randomised Tukey HSD, B = {params.hsd_trials}, "
        f"α = {params.alpha}).",
    )

    # Table 4: properties
    mean_taus = tau_matrix(mean_pair_table(list(pairs.values())), measures)
    consistency = {
        m: float(
            np.mean(
                [
                    s.column("mean_tau", float)[list(s["measure"]).index(m)]
                    for panel in panels.values()
                    for s in panel.values()
                ]
            )
        )
        for m in measures
    }
    power_table = read_csv(inputs.power, numeric=["percent"], integer=["significant", "pairs"])
    power = {row["measure"]: float(row["percent"]) for row in power_table.records() if row["dataset"] == "POOLED"}
    flags = computed_flags(REGISTRY[m] for m in measures)  # (I)-(III) checked, not declared
    properties = properties_table(measures, flags, mean_taus, consistency, power)
    write_csv(properties, out.properties_csv, origins)
    write_table_page(out.properties_csv, out.properties_html)
    write_latex(
        properties_latex(properties, labels),
        out.properties_tex,
        origins,
        "Properties of the ordinal classification measures (the paper's Table 4). "
        + TABLE_4_COLUMNS
        + " (IV) ranking-similarity cluster: "
        "average-linkage clustering into two clusters on 1 - tau (tau averaged over the OC data sets), "
        "A holding alpha_ORD, A/B when a measure's mean τ with both clusters differs by at most 0.05; (V) "
        "consistency and (VI) discriminative power: good / fair / poor by thirds of the measures ranked by "
        "mean τ over both split conditions and data sets, and by pooled discriminative power.",
    )

    # the constant baselines' kappa; the official protocol; the conventions
    kappa_tables, pooled, conventions = [], {}, []
    for name, files in datasets.items():
        stack = read_stack(files["stack"])
        constants = files["constant_runs"]
        if "kappa" in stack.measures and constants:
            single = gold_single_class(files["gold"], stack.topics)
            runs = list(constants)
            kappa = stack.matrix("kappa")[:, [stack.runs.index(r) for r in runs]]
            undefined = np.array([[single[t] == str(constants[r]) for r in runs] for t in stack.topics])
            kappa_tables.append(constant_kappa_table(name, runs, [str(constants[r]) for r in runs], kappa, undefined))
        pooled[name] = Table.read(files["pooled"], numeric=[m for m in measures])
        table = Table.read(files["conventions"])
        conventions.append(table.with_column("dataset", [name] * len(table)))
    kappa_table = (
        Table.concat(kappa_tables)
        if kappa_tables
        else constant_kappa_table("", [], [], np.zeros((0, 0)), np.zeros((0, 0)))
    )
    write_csv(kappa_table, out.kappa_csv, origins)
    write_table_page(out.kappa_csv, out.kappa_html)
    write_latex(
        kappa_constant_latex(kappa_table),
        out.kappa_tex,
        origins,
        "Linear weighted kappa of the runs that always return one class: topics where kappa = 0 among those "
        "where it is defined (undefined: the gold too is all in the run's class, where the documented "
        "convention value 1 is used). The paper proves kappa = 0 on every topic where it is "
        "defined.",
    )
    pooled_table = Table.concat([table.with_column("dataset", [name] * len(table)) for name, table in pooled.items()])
    write_csv(Table({c: pooled_table[c] for c in ["dataset", "run", *measures]}), out.pooled_csv, origins)
    write_table_page(out.pooled_csv, out.pooled_html)
    write_latex(
        pooled_latex(pooled, measures, labels),
        out.pooled_tex,
        origins,
        "The official SemEval protocol: every measure computed on one confusion matrix over all items of the "
        "test set, per run (the papers average per-topic scores instead).",
    )
    convention_table = Table.concat(conventions)
    ordered = ["dataset", *[c for c in convention_table.columns if c != "dataset"]]
    convention_table = Table({c: convention_table[c] for c in ordered})
    write_csv(convention_table, out.conventions_csv, origins)
    write_table_page(out.conventions_csv, out.conventions_html)
    write_latex(
        conventions_latex(convention_table, labels),
        out.conventions_tex,
        origins,
        "How often each documented 0/0 convention of the ordinal classification measures was applied "
        "(topic x run cells, and the runs affected).",
    )
    log.info("%d OC data sets, %d measures", len(datasets), len(measures))
