"""The provenance manifest lists the configuration, seeds, versions, commit and every input file's hash."""

import hashlib
import json

from conftest import REPO, tiny_config

from ordeval.jobs import Job
from ordeval.jobs import manifest as manifest_job
from ordeval.manifest import build_manifest, git_commit, pinned_packages
from ordeval.plan import plan as make_plan
from ordeval.workflow import Specs


def _line(topic: str, probabilities) -> str:
    return "\t".join([topic, *map(str, probabilities)]) + "\n"


def test_manifest_job_hashes_every_input_file(tmp_path, monkeypatch):
    """The plan's manifest job (what the rule runs) lists the configuration, seeds, versions, commit and
    the SHA-256 of every input file, relative and absolute paths alike."""
    data = tmp_path / "data"
    data.mkdir()
    topics = [f"t{i}" for i in range(8)]
    (data / "gold.txt").write_text("".join(_line(t, [0.2] * 5) for t in topics))
    (data / "run1.txt").write_text("".join(_line(t, [0.1, 0.1, 0.2, 0.3, 0.3]) for t in topics))
    (data / "run2.txt").write_text("".join(_line(t, [0.3, 0.3, 0.2, 0.1, 0.1]) for t in reversed(topics)))
    config = tiny_config(data_root=str(data))
    config["datasets"]["Files"] = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [
            {"type": "semeval_dist", "path": "run1.txt", "name": "R1"},
            {"type": "semeval_dist", "path": str(data / "run2.txt"), "name": "R2"},  # absolute path
            {"type": "simulate", "systems": 3},
        ],
    }
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    plan = make_plan(config, workdir=work)
    spec = Specs(plan).manifest(git_commit(REPO))
    assert spec.outputs == {"manifest": "results/tiny/manifest.json"}
    assert sorted(spec.inputs["sources"]) == sorted(str(data / name) for name in ("gold.txt", "run1.txt", "run2.txt"))
    job = Job("manifest", input={**spec.inputs, "requirements": str(REPO / "requirements.txt")},
              output=spec.outputs, params=spec.params)  # fmt: skip
    manifest_job.run(job)
    manifest = json.loads((work / "results" / "tiny" / "manifest.json").read_text())
    listed = {entry["path"]: entry["sha256"] for entry in manifest["input_files"]}
    expected = {str(data / name): hashlib.sha256((data / name).read_bytes()).hexdigest()
                for name in ("gold.txt", "run1.txt", "run2.txt")}  # fmt: skip
    assert listed == expected
    assert {entry["dataset"] for entry in manifest["input_files"]} == {"Files"}
    assert manifest["configuration"]["datasets"]["Files"]["gold"]["path"] == "gold.txt"
    assert manifest["seeds"]["seed"] == config["seed"]
    assert set(manifest["dependencies"]) == set(pinned_packages(REPO / "requirements.txt"))
    assert "not installed" not in manifest["dependencies"].values()
    assert manifest["python"]["version"].startswith("3.")
    assert manifest["git_commit"] == git_commit(REPO)


def test_git_commit_outside_a_repository_is_unknown(tmp_path):
    assert git_commit(tmp_path) == "unknown"


def test_build_manifest_without_input_files(tmp_path):
    manifest = build_manifest({"name": "x", "seed": 3}, {}, REPO / "requirements.txt", "unknown")
    assert manifest["input_files"] == []
    assert manifest["git_commit"] == "unknown"
