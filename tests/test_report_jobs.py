"""ordeval.reports.jobs: what a table job writes, called directly on files in tmp_path (no Snakemake): exactly the
outputs its docstring names (a table's CSV, its page and its LaTeX fragment headed by the data-origin comment
alone), the numbers of the library functions it composes, and the note rows with what the data say."""

from pathlib import Path

import numpy as np
import pytest
from tabular_check import check_tabular

from ordeval.analysis.agreement import ranking_agreement
from ordeval.io.files import write_json
from ordeval.io.provenance import origin_sentence
from ordeval.io.table import read_csv
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

MEASURES = ["NMD", "JSD", "DNKT", "DNKT_JSD"]
SYNTHETIC = f"% {origin_sentence({'X': 'synthetic'})}"


def _dataset(folder: Path, name: str, seed: int, runs=("P", "U", "S1", "S2", "S3", "S4", "S5")) -> dict[str, str]:
    """A data set's score files and provenance in ``folder``/``name``."""
    rng = np.random.default_rng(seed)
    quality = rng.random(len(runs))
    values = quality[None, None, :] + 0.4 * rng.random((len(MEASURES), 18, len(runs)))
    stack = ScoreStack(MEASURES, [f"t{i:02d}" for i in range(18)], list(runs), values)
    paths = {key: str(path) for key, path in write_scores(stack, score_files(stack, folder / name)).items()}
    paths["provenance"] = str(folder / name / "provenance.json")
    record = {"dataset": name, "origin": "synthetic", "runs": {run: {"source": "simulated"} for run in runs}}
    write_json({**record, "gold": {"source": "simulated"}}, paths["provenance"])
    return paths


@pytest.fixture
def datasets(tmp_path) -> dict[str, dict[str, str]]:
    return {name: _dataset(tmp_path / "scores", name, seed) for seed, name in enumerate(["A", "B"])}


def _outputs(folder: Path, stem: str, prefix: str = "", exts=("csv", "html", "tex")) -> dict[str, str]:
    return {f"{prefix}{ext}": str(folder / f"{stem}.{ext}") for ext in exts}


def _only(folder: Path, outputs) -> None:
    """The folder holds exactly ``outputs``: a job writes what it declares and nothing else."""
    assert sorted(p.name for p in folder.iterdir()) == sorted(Path(path).name for path in outputs), folder


def _fragment(path) -> list[str]:
    """A fragment's lines, checked: one comment (the data origin), then a well-formed tabular."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("% ") and not lines[1].startswith("%"), path
    check_tabular("\n".join(lines))
    return lines


def test_agreement_tables(datasets, tmp_path):
    from ordeval.reports.jobs.agreement import (
        write_dataset_agreement,
        write_dnkt,
        write_mean_agreement,
        write_similarity,
    )

    out = tmp_path / "agreement"
    for name, files in datasets.items():
        outputs = _outputs(out, name)
        agreement = write_dataset_agreement(
            files["stack"], files["provenance"], outputs, measures=MEASURES[:3], level=0.9, variant="a"
        )
        assert agreement.runs == 7 and agreement.measures == MEASURES[:3]
        table = read_csv(outputs["csv"], numeric=["tau", "ci_low", "ci_high"])  # the numbers are ranking_agreement's
        expected = ranking_agreement(agreement_means(files), MEASURES[:3], [True] * 3, 0.9, "a", "fisher_z")
        np.testing.assert_array_equal(table.column("tau", float), expected.pair_table()["tau"])
        lines = _fragment(outputs["tex"])
        assert lines[0] == SYNTHETIC and lines[-2].endswith(
            r"{\footnotesize Rankings of 7 runs by their mean score.} \\"
        )
        assert "3 rows" in Path(outputs["html"]).read_text()
    pairs = {name: str(out / f"{name}.csv") for name in datasets}
    measure_tables = [files["measures"] for files in datasets.values()]
    provenance = [files["provenance"] for files in datasets.values()]
    summary = tmp_path / "summary"
    outputs = {**_outputs(summary, "mean", "mean_"), **_outputs(summary, "similarity", "similarity_")}
    mean = write_mean_agreement(pairs, measure_tables, provenance, outputs, measures=MEASURES[:3])
    similarity = write_similarity(pairs, measure_tables, provenance, outputs, measures=MEASURES[:3])
    _only(summary, outputs.values())
    taus = [read_csv(path, numeric=["tau"]).column("tau", float) for path in pairs.values()]
    np.testing.assert_array_equal(mean.column("tau", float), np.mean(taus, axis=0))
    assert similarity.columns == ["measure", "A", "B", "mean"]
    _fragment(outputs["mean_tex"]), _fragment(outputs["similarity_tex"])
    dnkt = _outputs(tmp_path / "dnkt", "dnkt_JSD")
    table = write_dnkt({name: files["stack"] for name, files in datasets.items()}, provenance, dnkt, measure="JSD")
    assert list(table["dataset"]) == ["A"] * 3 + ["B"] * 3 + ["mean"] * 3
    _only(tmp_path / "dnkt", dnkt.values())


def agreement_means(files):
    from ordeval.tasks.stack import read_stack

    return read_stack(files["stack"], MEASURES[:3]).means()


def test_consistency_tables(datasets, tmp_path):
    from ordeval.analysis.consistency import read_summary
    from ordeval.reports.jobs.consistency import write_consistency, write_mean_consistency

    conditions = ["half", "10v10"]
    kinds = ("taus", "summary", "summary_html", "summary_tex", "pairs", "pairs_html", "pairs_tex")
    settings = {"trials": 25, "subset_size": 4, "hsd_trials": 60, "alpha": 0.05, "seed": 1, "variant": "b"}
    summaries = {}
    for name, files in datasets.items():
        folder = tmp_path / name
        outputs = {f"{kind}_{c}": str(folder / f"{kind}_{c}.x") for kind in kinds for c in conditions}
        results = write_consistency(
            files["stack"],
            files["provenance"],
            outputs,
            dataset=name,
            measures=MEASURES,
            conditions=conditions,
            **settings,
        )
        _only(folder, outputs.values())
        assert [result.condition for result in results] == conditions
        for result in results:
            comparison = result.comparison
            summary = read_summary(outputs[f"summary_{result.condition}"])
            assert list(summary["measure"]) == comparison.measures and summary["trials"][0] == comparison.trials
            for part in ("summary_tex", "pairs_tex"):
                lines = _fragment(outputs[f"{part}_{result.condition}"])
                assert (
                    rf"{{\footnotesize 25 random splits, {comparison.trials} with every $\tau$ defined; VE2 = $"
                    in lines[-2]
                )
        summaries[name] = {c: outputs[f"summary_{c}"] for c in conditions}
    mean = tmp_path / "mean"
    outputs = {
        f"{kind}_{c}": str(mean / f"{kind}_{c}.x") for kind in ("mean", "mean_html", "mean_tex") for c in conditions
    }
    by_condition = {c: {name: files[c] for name, files in summaries.items()} for c in conditions}
    measure_tables = [files["measures"] for files in datasets.values()]
    tables = write_mean_consistency(by_condition, measure_tables, [f["provenance"] for f in datasets.values()], outputs)
    _only(mean, outputs.values())
    assert list(tables) == conditions and tables["half"].columns == ["measure", "A", "B", "mean"]


def test_the_significance_overlap_and_the_topic_set_size_tables(datasets, tmp_path):
    from ordeval.analysis.significance import write_significance
    from ordeval.reports.jobs.significance import write_overlap
    from ordeval.reports.jobs.topic_set_size import write_topic_set_size

    files = datasets["A"]
    pvalues = {
        key: str(tmp_path / "p" / name)
        for key, name in (("pvalues", "p.tsv"), ("arrays", "p.npz"), ("identical_runs", "i.tsv"))
    }
    write_significance(files["stack"], pvalues, dataset="A", trials=100, seed=2)
    outputs = _outputs(tmp_path / "sso", "A")
    overlap = write_overlap(
        pvalues["pvalues"],
        pvalues["arrays"],
        files["measures"],
        files["provenance"],
        outputs,
        measures=MEASURES[:2],
        alpha=0.05,
        trials=100,
    )
    assert len(overlap) == 1 and _fragment(outputs["tex"])[0] == SYNTHETIC
    _only(tmp_path / "sso", outputs.values())
    outputs = _outputs(tmp_path / "tss", "A")
    table = write_topic_set_size(
        files["stack"], files["provenance"], outputs, measures=MEASURES[:2], alpha=0.01, power=0.9, fractions=[0.1]
    )
    assert set(table["alpha"]) == {0.01}
    lines = _fragment(outputs["tex"])
    assert (
        lines[-2]
        == r"\multicolumn{6}{l}{\footnotesize $\alpha = 0.01$, power $= 0.9$; minD: 10\% of the score range.} \\"
    )
    _only(tmp_path / "tss", outputs.values())


def test_the_preference_table_says_which_data_sets_are_left_out_and_why(datasets, tmp_path):
    from ordeval.reports.jobs.popularity import write_preferences
    from ordeval.reports.latex.popularity import left_out_note

    skipped = {"C": "it has no run P or U", "D": "it has no run P or U", "E": "it has no run Q"}
    assert left_out_note(skipped) == "Left out: C, D: it has no run P or U; E: it has no run Q."
    assert left_out_note({}) == ""
    outputs = {
        **_outputs(tmp_path / "pop", "t"),
        "deltas": str(tmp_path / "pop" / "d.csv"),
        "deltas_html": str(tmp_path / "pop" / "d.html"),
    }
    table = write_preferences(
        {name: files["stack"] for name, files in datasets.items()},
        {name: files["provenance"] for name, files in datasets.items()},
        outputs,
        measures=["NMD", "JSD"],
        runs=["P", "U"],
        tolerance=1e-12,
        skipped=skipped,
    )
    assert list(dict.fromkeys(table["dataset"])) == ["A", "B", "TOTAL"]
    lines = _fragment(outputs["tex"])
    assert lines[-2] == rf"\multicolumn{{5}}{{l}}{{\footnotesize {left_out_note(skipped)}}} \\"
    _only(tmp_path / "pop", outputs.values())


def test_the_leaderboard_tables_and_the_data_set_table(datasets, tmp_path):
    from ordeval.analysis.significance import write_significance
    from ordeval.reports.jobs.datasets import write_datasets_table
    from ordeval.reports.jobs.leaderboard import write_leaderboard_tables

    files = datasets["B"]
    pvalues = {
        key: str(tmp_path / "p" / name)
        for key, name in (("pvalues", "p.tsv"), ("arrays", "p.npz"), ("identical_runs", "i.tsv"))
    }
    write_significance(files["stack"], pvalues, dataset="B", trials=100, seed=2)
    outputs = {
        **_outputs(tmp_path / "board", "B", exts=("csv", "tex", "md", "html")),
        "compact": str(tmp_path / "board" / "B_compact.tex"),
    }
    boards = write_leaderboard_tables(
        files["stack"],
        pvalues["pvalues"],
        pvalues["arrays"],
        files["provenance"],
        None,
        outputs,
        dataset="B",
        measures=["JSD"],
        alpha=0.05,
        level=0.95,
        trials=100,
    )
    assert [board.measure for board in boards.boards] == ["JSD"]
    _only(tmp_path / "board", outputs.values())
    assert Path(outputs["tex"]).read_text().splitlines()[:2] == [f"% {boards.setting}", SYNTHETIC]  # the setting kept
    assert _fragment(outputs["compact"])[0] == SYNTHETIC
    provenance = tmp_path / "X.json"
    write_json(
        {"dataset": "X", "origin": "synthetic", "task": "quantification", "runs": {"r": {"source": "simulated"}}},
        provenance,
    )
    outputs = _outputs(tmp_path / "data", "datasets")
    table = write_datasets_table([provenance], outputs)
    assert list(table["dataset"]) == ["X"] and table["simulated_runs"][0] == 1
    assert _fragment(outputs["tex"])[0] == SYNTHETIC


def test_the_manifest_records_the_outputs_made(tmp_path):
    import json

    from ordeval.results.manifest import write_manifest

    made = tmp_path / "made.csv"
    made.write_text("a\n1\n")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("numpy==2.0\n")
    manifest = write_manifest(
        {"name": "x", "seed": 1}, {}, requirements, "abc", [str(made)], tmp_path / "manifest.json"
    )
    assert json.loads((tmp_path / "manifest.json").read_text()) == manifest
    assert [record["path"] for record in manifest["output_files"]] == [str(made)] and manifest["git_commit"] == "abc"
