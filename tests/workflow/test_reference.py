"""A recorded reference of a real pipeline run (the session's tiny pipeline): it records every output the
manifest hashes, the run compares equal with it, and a table changed afterwards does not."""

from __future__ import annotations

import json
import shutil

from ordeval.cli import main
from ordeval.results.reference import VOLATILE, matches


def test_a_reference_of_a_pipeline_run(pipeline, tmp_path, capsys):
    reference = tmp_path / "reference"
    assert main(["reference", str(pipeline.results), str(reference)]) == 0
    recorded = json.loads((reference / "reference.json").read_text())["files"]
    manifest = json.loads((pipeline.results / "manifest.json").read_text())
    assert len(recorded) == len(manifest["output_files"]) > 100
    assert not [name for name in recorded if matches(name, VOLATILE)]
    assert main(["diff", str(reference), str(pipeline.results)]) == 0

    copy = shutil.copytree(pipeline.results, tmp_path / "copy")
    table = copy / "tables" / "agreement" / "TinySem.csv"
    header, first, *rest = table.read_text().splitlines()
    cells = first.split(",")
    tau = header.split(",").index("tau")
    cells[tau] = repr(float(cells[tau]) - 0.001)
    table.write_text("\n".join([header, ",".join(cells), *rest]) + "\n")
    capsys.readouterr()
    assert main(["diff", str(reference), str(copy), "--json"]) == 1
    [changed] = json.loads(capsys.readouterr().out)["tables"]
    assert changed["path"] == "tables/agreement/TinySem.csv" and changed["cells_changed"] == 1
    assert abs(changed["largest_difference"] + 0.001) < 1e-12
