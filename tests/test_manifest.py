"""The provenance manifest lists the configuration, seeds, versions, commit and every input file's hash."""

import hashlib
import json
from pathlib import Path

from conftest import REPO, run_rule_script, tiny_config

from ordeval.results.manifest import build_manifest, git_commit, output_records, pinned_packages
from ordeval.workflow.plan import plan as make_plan


def _run_manifest(plan, commit: str, outputs: list[str]) -> None:
    """Script manifest as rule manifest (workflow/rules/report.smk) runs it."""
    run_rule_script(
        "manifest",
        input={"sources": plan.input_files(), "outputs": outputs, "requirements": str(REPO / "requirements.txt")},
        output={"manifest": f"{plan.results}/manifest.json"},
        params={
            "config": plan.config,
            "input_files": {name: list(plan.source_paths(name).values()) for name in plan.datasets},
            "commit": commit,
            "data_root": plan.config["data_root"],
        },
    )


def _line(topic: str, probabilities) -> str:
    return "\t".join([topic, *map(str, probabilities)]) + "\n"


def test_manifest_script_hashes_every_input_file(tmp_path, monkeypatch):
    """The manifest script (what the rule runs) lists the configuration, seeds, versions, commit and
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
    assert sorted(plan.input_files()) == sorted(str(data / name) for name in ("gold.txt", "run1.txt", "run2.txt"))
    _run_manifest(plan, git_commit(REPO), outputs=[])
    manifest = json.loads((work / "results" / "tiny" / "manifest.json").read_text())
    listed = {entry["path"]: entry["sha256"] for entry in manifest["input_files"]}
    expected = {
        name: hashlib.sha256((data / name).read_bytes()).hexdigest() for name in ("gold.txt", "run1.txt", "run2.txt")
    }
    assert listed == expected  # relative to data_root, however the configuration named them
    assert {entry["dataset"] for entry in manifest["input_files"]} == {"Files"}
    assert manifest["configuration"]["datasets"]["Files"]["gold"]["path"] == "gold.txt"
    assert manifest["seeds"]["seed"] == config["seed"]
    assert set(manifest["dependencies"]) == set(pinned_packages(REPO / "requirements.txt"))
    assert "not installed" not in manifest["dependencies"].values()
    assert manifest["python"]["version"].startswith("3.")
    assert manifest["git_commit"] == git_commit(REPO)


def test_an_input_file_outside_data_root_keeps_its_path(tmp_path):
    (tmp_path / "root").mkdir()
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("x")
    inside = tmp_path / "root" / "sub" / "in.txt"
    inside.parent.mkdir()
    inside.write_text("y")
    files = {"D": [str(outside), str(inside)]}
    manifest = build_manifest({"name": "x"}, files, REPO / "requirements.txt", "unknown", tmp_path / "root")
    assert [entry["path"] for entry in manifest["input_files"]] == [str(outside), "sub/in.txt"]


def test_git_commit_outside_a_repository_is_unknown(tmp_path):
    assert git_commit(tmp_path) == "unknown"


def test_build_manifest_without_input_files(tmp_path):
    manifest = build_manifest({"name": "x", "seed": 3}, {}, REPO / "requirements.txt", "unknown")
    assert manifest["input_files"] == []
    assert manifest["git_commit"] == "unknown"


def test_manifest_records_the_hash_of_every_output_it_is_given(tmp_path, monkeypatch):
    """The manifest script records the SHA-256 and size of every output of the other jobs it takes as input (rule
    manifest takes every stage's targets: tests/workflow/test_rules.py), sorted, paths relative."""
    monkeypatch.chdir(tmp_path)
    plan = make_plan(tiny_config(), workdir=tmp_path, check_files=False)
    outputs = [f"{plan.results}/tables/{index}.csv" for index in range(60)]
    for index, path in enumerate(outputs):  # stand-ins for the outputs
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(str(index).encode())
    _run_manifest(plan, "unknown", outputs)
    manifest = json.loads(Path(f"{plan.results}/manifest.json").read_text())
    assert [entry["path"] for entry in manifest["output_files"]] == sorted(outputs)
    for entry in manifest["output_files"]:
        index = int(Path(entry["path"]).stem)
        assert entry["sha256"] == hashlib.sha256(str(index).encode()).hexdigest()
        assert entry["bytes"] == len(str(index))
    assert not any(Path(entry["path"]).is_absolute() for entry in manifest["output_files"])


def test_output_records_are_sorted_by_path_with_hash_and_size(tmp_path):
    files = {name: tmp_path / name for name in ("b.csv", "a.tex")}
    for path in files.values():
        path.write_text(path.name * 3)
    records = output_records([str(path) for path in files.values()])
    assert [record["path"] for record in records] == [str(files["a.tex"]), str(files["b.csv"])]
    assert records[0] == {"path": str(files["a.tex"]), "sha256": hashlib.sha256(b"a.tex" * 3).hexdigest(), "bytes": 15}
    assert output_records(str(files["b.csv"])) == records[1:]  # one path
