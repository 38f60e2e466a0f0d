"""'ordeval evaluate-measure' end to end: the example plugin's two measures (one per task) through the
pipeline's stages on a small configuration, each with its own report."""

import os
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import REPO, tiny_config

pytestmark = pytest.mark.workflow


def test_evaluate_measure_writes_a_report_per_new_measure(tmp_path):
    name = f"evaltest{os.getpid()}"
    config = tiny_config(name, classification=True, report={"pdf": False})
    configfile = tmp_path / "config.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False))
    results = REPO / "results" / f"{name}-my_measure"
    try:
        command = [sys.executable, "-m", "ordeval", "evaluate-measure", "examples/my_measure.py", "--configfile",
                   str(configfile), "--cores", "2"]  # fmt: skip
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        for measure, other in (("RNCSD", "NMD"), ("MSE_M", "MAE_M")):
            folder = results / "measures" / measure
            assert f"{measure}: results/{name}-my_measure/measures/{measure}/report.md" in done.stdout
            text = (folder / "report.md").read_text()
            for section in ("Properties (computed)", "Ranking agreement", "System ranking consistency",
                            "Discriminative power", "Topic set size"):  # fmt: skip
                assert f"## {section}" in text, (measure, section)
            assert f"| {other} |" in text and "synthetic" in text
            assert "<table>" in (folder / "report.html").read_text()
            assert not (folder / "report.pdf").exists()  # report: pdf: false
        assert yaml.safe_load((results / "evaluate-measure.yaml").read_text())["measure_reports"] == [
            "RNCSD",
            "MSE_M",
        ]
    finally:
        shutil.rmtree(results, ignore_errors=True)
