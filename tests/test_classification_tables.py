"""The ordinal classification tables of the ACL 2021 paper (rule classification_tables) and its Figure 1 (rule
classification_figures), run as their rules run them on two small simulated OC data sets after the jobs whose files
they read; and the functions of ordeval.analysis.classification they call (Table 3's numbers, Table 4's
consistency and discriminative power, the constant runs' kappa)."""

import copy
from pathlib import Path

import numpy as np
import pytest
from conftest import OC_MEASURES, build_and_score, canonical_files, run_rule_script, tiny_config
from tabular_check import check_tabular

from ordeval.analysis.classification import (
    consistency_table,
    constant_kappa,
    mean_consistency,
    pooled_power,
)
from ordeval.analysis.consistency import beaten_worst, read_summary
from ordeval.io.files import png_description
from ordeval.io.table import Table, dataset_rows, read_csv
from ordeval.tasks.stack import ScoreStack
from ordeval.workflow.plan import plan as make_plan

CONDITIONS = ["half", "10v10"]
OC = ["TinyOC", "TinyOC2"]


def _summary(measures, means, outperforms, ve2=0.01):
    return Table(
        {"measure": measures, "mean_tau": means, "outperforms": outperforms, "ve2": [ve2] * 3, "trials": [10] * 3}
    )


def test_table_3_numbers_and_table_4_consistency_from_the_summaries():
    panels = {
        "D": {
            "half": _summary(["a", "b", "c"], [0.9, 0.8, 0.1], ["b c", "c", ""]),
            "10v10": _summary(["b", "a", "c"], [0.7, 0.6, 0.2], ["c", "", ""]),
        },
        "E": {"half": _summary(["c", "a", "b"], [0.5, 0.4, 0.3], ["", "", ""], 0.02)},
    }
    table = consistency_table(panels, {"D": 41, "E": 20}, 10)
    assert table.columns == ["dataset", "condition", "split", "measure", "mean_tau", "beats_worst", "ve2"]
    assert list(table["split"]) == ["20 vs. 21"] * 3 + ["10 vs. 10"] * 3 + ["10 vs. 10"] * 3
    assert list(table["beats_worst"]) == [2, 1, 0, 1, 0, 0, 0, 0, 0]
    assert list(table["beats_worst"][:3]) == beaten_worst(panels["D"]["half"])
    consistency = mean_consistency(panels, ["a", "b", "c"])
    assert consistency == pytest.approx({"a": (0.9 + 0.6 + 0.4) / 3, "b": (0.8 + 0.7 + 0.3) / 3, "c": 0.8 / 3})
    power = Table({"dataset": ["D", "POOLED", "POOLED"], "measure": ["a", "a", "b"], "percent": [10.0, 20.0, 30.0]})
    assert pooled_power(power) == {"a": 20.0, "b": 30.0}


def test_a_constant_run_has_kappa_undefined_where_the_gold_is_all_its_class(tmp_path):
    gold = tmp_path / "gold.tsv"
    gold.write_text("topic\titem\tlabel\nt1\ti1\t0\nt1\ti2\t0\nt2\ti3\t0\nt2\ti4\t1\n")
    kappa = np.array([[1.0, 0.2], [0.0, 0.0]])  # topics x runs (C, S)
    stack = ScoreStack(["kappa"], ["t1", "t2"], ["C", "S"], kappa[None])
    table = constant_kappa(stack, gold, {"C": 0}, "D")
    assert table.records() == [
        {"dataset": "D", "run": "C", "class": "0", "topics": 2, "defined": 1, "kappa_zero": 1, "kappa_not_zero": 0}
    ]


@pytest.fixture(scope="module")
def oc_results(tmp_path_factory):
    """Two small OC data sets, prepared and scored, with the agreement, consistency, p-values, discriminative power
    and official protocol files that classification_tables reads (each from its rule's script)."""
    folder = tmp_path_factory.mktemp("oc")
    config = tiny_config(classification=True)
    config["measures"] = OC_MEASURES
    spec = config["datasets"]["TinyOC"]
    config["datasets"] = {"TinyOC": spec, "TinyOC2": {**copy.deepcopy(spec), "gold": {**spec["gold"], "topics": 12}}}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        plan = make_plan(config, workdir=folder)
        build_and_score(plan)
        files = {name: _dataset_jobs(plan, name) for name in OC}
        power = {ext: f"tables/discriminative_power_oc.{ext}" for ext in ("csv", "html", "tex")}
        inputs = {key: [files[name][key] for name in OC] for key in ("pvalues", "arrays", "identical_runs", "measures")}
        run_rule_script(
            "significance_summary",
            input={**inputs, "provenance": [files[name]["provenance"] for name in OC]},
            output={
                f"{stem}_{ext}": power[ext] if stem == "power" else f"tables/{stem}_oc.{ext}"
                for stem in ("power", "counts", "contradictions", "collapsed")
                for ext in ("csv", "html", "tex")
            },
            params={
                "datasets": OC,
                "measures": plan.dataset_measures("significance", OC[0]),
                "alpha": 0.05,
                "hsd_trials": 200,
            },
            wildcards={"task_suffix": "_oc"},
        )
    return plan, files, power["csv"], folder


def _dataset_jobs(plan, name):
    """The scripts of one OC data set's rules that classification_tables reads the files of."""
    data = canonical_files(f"{plan.results}/data/{name}")
    scores = f"{plan.results}/scores/{name}"
    files = {**data, "stack": f"{scores}/stack.npz", "measures": f"{scores}/measures.tsv"}
    tables = [f"{scores}/{measure}.tsv" for measure in plan.datasets[name].measures] + [files["measures"]]
    official = {"pooled": f"{scores}/pooled.tsv", "pooled_html": f"{scores}/pooled.html"}
    official.update(conventions=f"{scores}/conventions.tsv", conventions_html=f"{scores}/conventions.html")
    spec, measures = plan.datasets[name].spec, plan.datasets[name].measures
    run_rule_script(
        "official_scores",
        input={**data, "plugins": []},
        output=official,
        params={"spec": spec, "measures": measures, "plugins": []},
        wildcards={"dataset": name},
    )
    files.update(pooled=official["pooled"], conventions=official["conventions"], tables=tables)
    agreement = {ext: f"tables/agreement/{name}.{ext}" for ext in ("csv", "html", "tex")}
    run_rule_script(
        "agreement_dataset",
        input={key: files[key] for key in ("stack", "tables", "provenance")},
        output=agreement,
        params={
            "measures": plan.dataset_measures("agreement", name),
            "kendall": "b",
            "ci_level": 0.95,
            "ci_method": "fisher_z",
        },
        wildcards={"dataset": name},
    )
    consistency = {
        f"{kind}_{c}": f"tables/consistency/{name}_{kind}_{c}.x"
        for kind in ("taus", "summary", "summary_html", "summary_tex", "pairs", "pairs_html", "pairs_tex")
        for c in CONDITIONS
    }
    settings = {"splits": 20, "subset_size": 4, "hsd_trials": 50, "alpha": 0.05, "seed": 7, "kendall": "b"}
    run_rule_script(
        "consistency_taus",
        input={key: files[key] for key in ("stack", "tables", "provenance")},
        output=consistency,
        params={"measures": plan.dataset_measures("consistency", name), "conditions": CONDITIONS, **settings},
        wildcards={"dataset": name},
    )
    significance = {key: f"significance/{name}/{key}.x" for key in ("pvalues", "arrays", "identical_runs")}
    run_rule_script(
        "significance_pvalues",
        input={key: files[key] for key in ("stack", "tables")},
        output=significance,
        params={"hsd_trials": 200, "seed": 7},
        wildcards={"dataset": name},
    )
    return {
        **files,
        **significance,
        "agreement": agreement["csv"],
        **{f"consistency_{c}": consistency[f"summary_{c}"] for c in CONDITIONS},
    }


KINDS = ("agreement", "consistency", "properties", "kappa", "pooled", "conventions")


def test_the_classification_tables_as_the_rule_runs_them(oc_results, monkeypatch):
    plan, files, power, folder = oc_results
    monkeypatch.chdir(folder)
    output = {f"{kind}_{ext}": f"tables/oc/{kind}.{ext}" for kind in KINDS for ext in ("csv", "html", "tex")}
    keys = ("agreement", "stack", "measures", "provenance", "gold", "pooled", "conventions")
    run_rule_script(
        "classification_tables",
        input={
            **{key: [files[name][key] for name in OC] for key in keys},
            **{f"consistency_{c}": [files[name][f"consistency_{c}"] for name in OC] for c in CONDITIONS},
            "power": power,
            "tables": [table for name in OC for table in files[name]["tables"]],
            "plugins": [],
        },
        output=output,
        params={
            "datasets": OC,
            "measures": plan.dataset_measures("agreement", OC[0]),
            "conditions": CONDITIONS,
            "topics": {name: plan.datasets[name].topics for name in OC},
            "constant_runs": plan.constant_runs(OC),
            "plugins": [],
            "kendall": "b",
            "subset_size": 4,
            "splits": 20,
            "hsd_trials": 50,
            "alpha": 0.05,
        },
    )
    assert sorted(p.name for p in (folder / "tables" / "oc").iterdir()) == sorted(Path(p).name for p in output.values())
    for key, path in output.items():
        if key.endswith("_tex"):
            lines = Path(path).read_text().splitlines()
            assert lines[0].startswith("% SYNTHETIC") and not lines[1].startswith("%"), key
            check_tabular("\n".join(lines))
    # Table 2: the data sets' agreement tables one after the other, the shading said under it
    agreement = read_csv(output["agreement_csv"], numeric=["tau", "ci_low", "ci_high"])
    parts = {name: read_csv(files[name]["agreement"], numeric=["tau", "ci_low", "ci_high"]) for name in OC}
    assert agreement.records() == dataset_rows(parts).records()
    assert (
        r"{\footnotesize Shaded: dark $\tau \ge 0.8$, light $0.6 \le \tau < 0.8$.}"
        in Path(output["agreement_tex"]).read_text()
    )
    # Table 3 and Table 4's (V), (VI)
    panels = {name: {c: read_summary(files[name][f"consistency_{c}"]) for c in CONDITIONS} for name in OC}
    consistency = read_csv(output["consistency_csv"], numeric=["mean_tau", "ve2"], integer=["beats_worst"])
    expected = consistency_table(panels, {name: plan.datasets[name].topics for name in OC}, 4)
    assert consistency.records() == expected.records() and len(consistency) == 2 * 2 * len(OC_MEASURES)
    properties = read_csv(output["properties_csv"], numeric=["mean_tau", "pooled_dp_percent"])
    measures = plan.dataset_measures("agreement", OC[0])
    by_measure = {row["measure"]: row for row in properties.records()}
    pooled = pooled_power(read_csv(power, numeric=["percent"]))
    for measure, value in mean_consistency(panels, measures).items():
        assert by_measure[measure]["mean_tau"] == value and by_measure[measure]["pooled_dp_percent"] == pooled[measure]
    # the constant baseline: kappa = 0 wherever it is defined (the paper's proof)
    kappa = read_csv(output["kappa_csv"])
    assert list(kappa["dataset"]) == OC and set(kappa["run"]) == {"BL-neutral"}
    assert [int(x) for x in kappa["kappa_zero"]] == [int(x) for x in kappa["defined"]]
    assert list(dict.fromkeys(read_csv(output["pooled_csv"])["dataset"])) == OC
    assert read_csv(output["conventions_csv"]).columns[0] == "dataset"


def test_figure_1_as_the_rule_draws_it(oc_results, monkeypatch):
    plan, files, _, folder = oc_results
    monkeypatch.chdir(folder)
    output = {"pdf": "figures/oc/dp_curves.pdf", "png": "figures/oc/dp_curves.png"}
    run_rule_script(
        "classification_figures",
        input={key: [files[name][key] for name in OC] for key in ("pvalues", "arrays", "measures", "provenance")},
        output=output,
        params={
            "datasets": OC,
            "measures": plan.dataset_measures("significance", OC[0]),
            "alpha": 0.05,
            "hsd_trials": 200,
        },
    )
    assert png_description(output["png"]).startswith("SYNTHETIC data") and Path(output["pdf"]).stat().st_size > 1000
