"""'ordeval evaluate-measure' end to end: the example plugin's two measures (one per task) through the
pipeline's stages on a small configuration, each with its own report."""

import subprocess
import sys

import pytest
import yaml
from conftest import project_copy, tiny_config

pytestmark = pytest.mark.workflow


def test_evaluate_measure_writes_a_report_per_new_measure_and_its_html_hint_runs_as_printed(tmp_path):
    """In a project folder of its own (not the checkout); the command it prints for the HTML report of every
    output then runs as printed (issue 34: it failed for want of the manifest)."""
    name = "evaltest"
    project = project_copy(tmp_path / "project")
    config = tiny_config(name, classification=True, report={"pdf": False})
    (project / "my config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))  # a path to quote
    results = project / "results" / f"{name}-my_measure"
    command = [
        sys.executable,
        "-m",
        "ordeval",
        "evaluate-measure",
        "examples/my_measure.py",
        "--configfile",
        "my config.yaml",
        "--cores",
        "2",
    ]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    for measure, other in (("RNCSD", "NMD"), ("MSE_M", "MAE_M")):
        folder = results / "measures" / measure
        assert f"{measure}: results/{name}-my_measure/measures/{measure}/report.md" in done.stdout
        text = (folder / "report.md").read_text()
        for section in (
            "Properties (computed)",
            "Ranking agreement",
            "System ranking consistency",
            "Discriminative power",
            "Topic set size",
        ):
            assert f"## {section}" in text, (measure, section)
        assert f"| {other} |" in text and "synthetic" in text
        assert "<table>" in (folder / "report.html").read_text()
        assert not (folder / "report.pdf").exists()  # report: pdf: false
    assert yaml.safe_load((results / "evaluate-measure.yaml").read_text())["measure_reports"] == [
        "RNCSD",
        "MSE_M",
    ]
    hint = next(line for line in done.stdout.splitlines() if line.startswith("HTML report: "))
    pasted = hint.removeprefix("HTML report: ")
    assert pasted.startswith("ordeval run --configfile ") and " --target report " in pasted  # no manifest yet
    shell = pasted.replace("ordeval run ", f"{sys.executable} -m ordeval run ").replace(
        "&& snakemake ", f"&& {sys.executable} -m snakemake "
    )
    html = subprocess.run(["bash", "-e", "-c", shell], cwd=project, capture_output=True, text=True, timeout=900)
    assert html.returncode == 0, html.stderr[-3000:]
    assert "<html" in (results / "report.html").read_text(errors="replace")[:2000].lower()
