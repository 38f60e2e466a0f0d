"""The whole pipeline on a tiny configuration in a temporary directory."""

from conftest import run_workflow, tiny_config

from ordeval.scoring import read_score_matrix


def test_pipeline_runs_on_tiny_config_and_then_has_nothing_to_do(tmp_path):
    config = tiny_config()
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "tiny"
    for dataset, (topics, runs) in {"TinySem": (12, 7), "TinyDQ": (14, 10)}.items():
        for measure in config["measures"]:
            these_topics, these_runs, values = read_score_matrix(results / "scores" / dataset / f"{measure}.tsv")
            assert values.shape == (topics, runs)
        assert (results / "data" / dataset / "gold.tsv").is_file()
    second = run_workflow(tmp_path, config, "--dry-run")
    assert "Nothing to be done" in second.stdout + second.stderr
