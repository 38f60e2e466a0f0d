"""PENDING (workflow tier): the tests of tests/test_significance.py that run Snakemake, moved here as they were.

Not collected (the file name does not match test_*.py). Fast-tier counterparts: tests/test_significance.py
(test_significance_jobs_write_the_documented_files: the three significance jobs on hand-made score stacks,
with the same column checks) and tests/test_plan.py (an unscored significance measure is a ConfigError).

Known changes the rewrite needs (found while porting):
* the planner's message for an unscored measure is now "config key significance.measures: JSD not scored;
  add them to 'measures' (...)", not "measure(s) JSD are not scored".
"""

import pandas as pd
from conftest import run_workflow, tiny_config


def test_workflow_writes_significance_outputs(tmp_path):
    config = tiny_config("tinysig", significance={"hsd_trials": 100, "measures": ["NMD", "RNOD", "JSD"]})
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "tinysig"
    datasets = list(config["datasets"])

    def columns(path):
        return list(pd.read_csv(path, nrows=0, sep="\t" if path.suffix == ".tsv" else ",").columns)

    for dataset in datasets:
        pvalues = results / "significance" / dataset / "pvalues.tsv"
        assert columns(pvalues) == ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]
        assert set(pd.read_csv(pvalues, sep="\t")["measure"]) == set(config["measures"])
        assert columns(results / "tables" / "sso" / f"{dataset}.csv") == [
            *["measure_a", "measure_b", "a", "b", "c", "sso", "data_origin"]
        ]
        assert (results / "tables" / "sso" / f"{dataset}.tex").is_file()
        for ext in ("pdf", "png"):
            assert (results / "figures" / "dp_curves" / f"{dataset}.{ext}").stat().st_size > 0
    tables = results / "tables"
    power = pd.read_csv(tables / "discriminative_power.csv")
    assert list(power.columns) == ["dataset", "measure", "significant", "pairs", "percent", "data_origin"]
    assert list(dict.fromkeys(power["dataset"])) == [*datasets, "POOLED"]
    assert (power["data_origin"] == "synthetic").all()
    assert columns(tables / "contradictions.csv") == [
        *["dataset", "measure_a", "measure_b", "run_x", "run_y", "data_origin"]
    ]
    assert columns(tables / "contradiction_counts.csv")[:4] == ["dataset", "measure_a", "measure_b", "contradictions"]
    groups = pd.read_csv(results / "significance" / "TinyDQ" / "run_groups.tsv", sep="\t")
    assert set(groups.loc[groups["run"].str.startswith("BL-popularity"), "group"]) == {"BL-popularity-{C,E}"}
    for name in ("discriminative_power", "contradiction_counts", "contradictions", "contradictions_grouped"):
        assert (tables / f"{name}.tex").read_text().count(r"\begin{tabular}") == 1
    for ext in ("pdf", "png"):
        assert (results / "figures" / "dp_curves" / f"all.{ext}").stat().st_size > 0


def test_significance_measures_must_be_scored(tmp_path):
    config = tiny_config(measures=["NMD", "RNOD"], significance={"measures": ["NMD", "JSD"]})
    result = run_workflow(tmp_path, config, "--dry-run", check=False)
    assert result.returncode != 0
    assert "measure(s) JSD are not scored" in result.stdout + result.stderr
