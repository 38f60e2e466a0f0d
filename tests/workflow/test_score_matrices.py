"""A data set given as precomputed per-topic score matrices (``task: scores``), e.g. from a trec_eval-style
tool, runs through every analysis: measures that are not in any registry, with their own directions."""

import copy

from conftest import run_workflow

from ordeval.tasks.stack import read_score_matrix


def test_a_score_matrix_data_set_runs_through_every_analysis(pipeline, tmp_path):
    source = pipeline.results / "scores" / "TinyDQ"
    # NMD as is (lower is better) and 1 - RNOD as an unregistered higher-is-better measure
    topics, runs, rnod = read_score_matrix(source / "RNOD.tsv")
    flipped = tmp_path / "CLOSENESS.tsv"
    lines = ["topic\t" + "\t".join(runs)]
    lines += [
        f"{topic}\t" + "\t".join(repr(float(1.0 - value)) for value in row)
        for topic, row in zip(topics, rnod, strict=True)
    ]
    flipped.write_text("\n".join(lines) + "\n")
    config = copy.deepcopy(pipeline.config)
    config["name"] = "matrices"
    config["plugins"] = []
    config.pop("measures", None)
    config["datasets"] = {
        "External": {
            "task": "scores",
            "scores": [
                {"type": "score_matrix", "path": str(source / "NMD.tsv"), "measure": "NMD"},
                {"type": "score_matrix", "path": str(flipped), "measure": "CLOSENESS", "lower_is_better": False},
            ],
        }
    }
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "matrices"
    for path in [
        "scores/External/means.tsv",
        "tables/agreement/External.csv",
        "tables/consistency/External_half.csv",
        "tables/consistency/External_10v10.csv",
        "tables/discriminative_power_scores.csv",
        "tables/popularity_vs_uniform.csv",
        "figures/dp_curves/all_scores.png",
        "tables/sso/External.csv",
        "tables/leaderboard/External.md",
        "figures/leaderboard/External.png",
        "report/ordeval.tex",
    ]:
        assert (results / path).is_file(), path
    # 1 - RNOD ranks the runs exactly as RNOD does once its direction is honoured: tau = 1 with NMD's tau
    agreement = (results / "tables/agreement/External.csv").read_text().splitlines()
    assert agreement[0].startswith("measure_a,measure_b,tau") and len(agreement) == 2
    assert "CLOSENESS" in agreement[1] and "NMD" in agreement[1]
    board = (results / "tables/leaderboard/External.csv").read_text()
    assert "CLOSENESS" in board and "NMD" in board
