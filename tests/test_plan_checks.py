"""What can be checked before the first job is checked when the configuration is planned: the data root and
the input files (missing ones named, the first three and a count; their contents, read only until a data job has
read the same bytes; a gold file counted line by line), simulation settings that cannot be met, too few runs in a
canonical table."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from cli_helpers import one_error_line, sparse
from conftest import REPO, shared_file, tiny_config
from input_helpers import attempt, write

from ordeval.cli import main
from ordeval.io.errors import ConfigError, InputError
from ordeval.workflow.plan import plan as make_plan

CLASSES = [-2, -1, 0, 1, 2]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: c["datasets"]["TinySem"]["runs"].__setitem__(1, {"type": "simulate", "systems": 3}),
            "config key datasets.TinySem.runs: 4 runs; the analyses need at least 5",
        ),
        (
            lambda c: c["consistency"].update(subset_size=7),
            "config key consistency.subset_size: 7, but data set TinySem has 12 topics",
        ),
        (
            lambda c: c["consistency"].update(subset_size=8),
            "config key consistency.subset_size: 8, but data set TinySem has 12 topics",
        ),
        (lambda c: c["datasets"]["TinyDQ"]["gold"].update(topics=3), "datasets.TinyDQ"),
    ],
)
def test_checks_that_can_be_made_before_the_first_job_are_made_at_plan_time(change, expected):
    assert expected in attempt(change)


def test_too_few_runs_in_a_canonical_table_fail_at_plan_time(tmp_path):
    gold = "topic\tclass\tprob\n" + "".join(f"t{i}\t{c}\t0.2\n" for i in range(10) for c in CLASSES)
    runs = "topic\trun\tclass\tprob\n" + "".join(
        f"t{i}\tR{r}\t{c}\t0.2\n" for r in range(3) for i in range(10) for c in CLASSES
    )
    write(tmp_path, "gold.tsv", gold)
    write(tmp_path, "runs.tsv", runs)
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"] = {
        "Small": {
            "classes": CLASSES,
            "gold": {"type": "tsv", "path": "gold.tsv"},
            "runs": [{"type": "tsv", "path": "runs.tsv"}, {"type": "uniform", "name": "BL-uniform"}],
        }
    }
    with pytest.raises(ConfigError, match=r"datasets\.Small\.runs: 4 runs; the analyses need at least 5"):
        make_plan(config, workdir=tmp_path)


def test_simulation_settings_that_cannot_be_met_fail_at_plan_time_naming_the_key():
    def change(config):
        config["datasets"]["TinyOC"] = copy.deepcopy(tiny_config(classification=True)["datasets"]["TinyOC"])
        config["datasets"]["TinyOC"]["gold"].update(items_min=50, items_max=10)
        config["measures"] = config["measures"] + ["F1_M", "MAE_M"]

    assert "datasets.TinyOC.gold.items_max" in attempt(change)


def test_a_missing_data_root_is_one_line_saying_the_folder_is_missing():
    """The replication configuration with a data_root that does not exist: one line (was: the 31 files over 33
    lines)."""
    from ordeval.workflow.config import load_yaml

    config = {**load_yaml(REPO / "config" / "replication.yaml"), "data_root": "/no/such/folder"}
    with pytest.raises(ConfigError) as error:
        make_plan(config, workdir=REPO)
    gold = "Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt"
    message = "config key data_root: '/no/such/folder': no such folder; the configuration reads 31 files below it"
    fetch = "they are public data (docs/data.md): fetch them with `ordeval fetch --to /no/such/folder`"
    assert str(error.value) == f"{message} (e.g. {gold}); {fetch}"


def test_missing_files_are_one_line_with_the_first_three_and_a_count(tmp_path):
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"]["Files"] = {
        "classes": [-2, -1, 0, 1, 2],
        "gold": {"type": "semeval_dist", "path": "gold.txt"},
        "runs": [{"type": "semeval_dist", "path": f"r{i}.txt", "name": f"R{i}"} for i in range(5)],
    }
    (tmp_path / "r0.txt").mkdir()
    with pytest.raises(ConfigError) as error:
        make_plan(config)
    assert str(error.value) == (
        f"data_root {str(tmp_path)!r} lacks 6 input files: {tmp_path / 'gold.txt'} (asked for by datasets.Files.gold)"
        f"; {tmp_path / 'r0.txt'} (a folder) (asked for by datasets.Files.runs[0]); {tmp_path / 'r1.txt'} (asked for "
        "by datasets.Files.runs[1]); and 3 more"
    )


def sem16e_copy(folder: Path, edit=None) -> dict:
    """The official Sem16T4E gold and runs copied to ``folder`` under ``Sem16T4CE/copy/`` (LYS's run edited by
    ``edit(lines)``; under the registered names, an edited copy would be refused as not the registered file), and
    the replication configuration's Sem16T4E alone, reading them."""
    from ordeval.workflow.config import load_yaml

    gold = shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt")
    official = gold.parents[1]
    for path in [gold, *(official / "runs" / "E").iterdir()]:
        target = folder / "Sem16T4CE" / "copy" / path.relative_to(official)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    if edit:
        lys = folder / "Sem16T4CE/copy/runs/E/LYS-E.output"
        lys.write_text("\n".join(edit(lys.read_text().splitlines())) + "\n")
    config = load_yaml(REPO / "config" / "replication.yaml")
    config["datasets"] = {"Sem16T4E": config["datasets"]["Sem16T4E"]}
    for source in [config["datasets"]["Sem16T4E"]["gold"], *config["datasets"]["Sem16T4E"]["runs"]]:
        source["path"] = source["path"].replace("Sem16T4CE/official/", "Sem16T4CE/copy/")
    config.update(data_root=str(folder), name="sem16e", measure_reports=[])
    return config


def test_a_content_error_in_an_official_file_is_refused_when_planned(tmp_path, monkeypatch, capsys):
    """A bad number in one official run: refused before any job, by the planner and by ``ordeval run`` (exit 2,
    one line naming the file and line), not by the data job (exit 1)."""
    import yaml

    def damage(lines):
        lines[4] = lines[4].replace(lines[4].split("\t")[2], "abc", 1)
        return lines

    config = sem16e_copy(tmp_path / "data", damage)
    lys = tmp_path / "data" / "Sem16T4CE/copy/runs/E/LYS-E.output"
    with pytest.raises(InputError, match=rf"^{lys}, line 5: probability 'abc' is not a number$"):
        make_plan(config, workdir=tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} -c 'raise SystemExit(9)'")
    assert main(["run", "-n", "--configfile", "c.yaml"]) == 2
    assert one_error_line(capsys.readouterr().err) == f"ordeval: error: {lys}:5: probability 'abc' is not a number"


def test_input_files_are_read_when_planned_only_until_a_data_job_has_read_these_bytes(tmp_path, monkeypatch):
    """The files' contents are checked at planning unless the data set's provenance.json records every input
    file with its SHA-256 as it is now (a run that changes nothing hashes the inputs, it does not read them)."""
    from conftest import build_and_score

    from ordeval.tasks import get_task

    config = sem16e_copy(tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    planned = make_plan(config, workdir=tmp_path)
    build_and_score(planned)  # the data job writes results/sem16e/data/Sem16T4E/provenance.json
    task = get_task("quantification")
    calls = []
    monkeypatch.setattr(type(task), "build", lambda self, *arguments: calls.append(arguments[0]))
    make_plan(config, workdir=tmp_path)
    assert calls == []
    lys = tmp_path / "data" / "Sem16T4CE/copy/runs/E/LYS-E.output"
    lys.write_text(lys.read_text().replace("\t\n", "\n"))  # its 100 trailing tabs gone: other bytes
    make_plan(config, workdir=tmp_path)
    assert calls == ["Sem16T4E"]


THREE_TOPICS = "".join(f"t{i}\t0.1\t0.2\t0.3\t0.2\t0.2\n" for i in range(3))


def test_the_planner_counts_a_gold_file_line_by_line(tmp_path):
    """topic_count (at every Snakemake start) no longer reads a gold file whole: a hole gives no count and the
    reading stops at its first block."""
    from ordeval.tasks import get_task

    sparse(tmp_path / "gold.txt", THREE_TOPICS)
    spec = {"classes": [-2, -1, 0, 1, 2], "gold": {"type": "semeval_dist", "path": "gold.txt"}}
    assert get_task("quantification").topic_count(spec, tmp_path) is None
    (tmp_path / "gold.txt").write_text(THREE_TOPICS)
    assert get_task("quantification").topic_count(spec, tmp_path) == 3
