"""The replication as a new user runs it from a fresh clone with no ../shared beside it: the README's two commands as
written, the data fetched from a mirror of their public origins on 127.0.0.1 (``ORDEVAL_DATA_URL``, the registry's
layout), a second fetch that downloads nothing, and the verdict counts docs/replicator.md states. Without the data,
or with a registered file changed by hand, Snakemake stops before any job with one line."""

from __future__ import annotations

import re
import subprocess
import sys

import pandas as pd
import pytest
from conftest import REPO, SHARED_RAW, no_shared_data, project_copy, run_as_written
from mirror_server import build_mirror, serve

from ordeval.data.registry import load

pytestmark = pytest.mark.workflow


def readme_block(heading: str, document: str = "README.md") -> str:
    text = (REPO / document).read_text(encoding="utf-8")
    return re.search(r"```bash\n(.*?)```", text[text.index(heading) :], re.S).group(1)


def fresh_clone(folder):
    """A project folder as a clone has it: the project's files and resources/ with its README only."""
    project = project_copy(folder)
    (project / "resources").mkdir()
    (project / "resources" / "README.md").write_bytes((REPO / "resources" / "README.md").read_bytes())
    return project


def real_data_or_skip():
    if not all((SHARED_RAW / entry.place).is_file() for entry in load().files):
        pytest.skip(no_shared_data())


@pytest.fixture(scope="module")
def replicated(tmp_path_factory):
    real_data_or_skip()
    root = tmp_path_factory.mktemp("fresh")
    mirror = build_mirror(SHARED_RAW, root / "mirror", load())
    project = fresh_clone(root / "clone")
    assert not (project.parent / "shared").exists() and not (project.parent.parent / "shared").exists()
    # docs/replicator.md's block: the README's two commands as written, then the HTML report
    block = readme_block("## Replicating the papers on the real data", "docs/replicator.md")
    assert block.startswith(readme_block("## Replicate the papers on the real data")), block
    with serve(mirror) as (base, requests):
        first = run_as_written(block, project, timeout=3000, ORDEVAL_DATA_URL=base)
        fetched = len(requests)
        second = run_as_written("ordeval fetch\n", project, timeout=300, ORDEVAL_DATA_URL=base)
        again = len(requests) - fetched
    return project, base, first, second, fetched, again


def test_the_readme_replication_runs_as_written_from_a_fresh_clone(replicated):
    project, base, first, second, fetched, again = replicated
    assert first.returncode == 0, first.stderr[-3000:]
    assert first.stdout.splitlines()[:3] == [
        f"Sem16T4CE: 31 files, 5.8 MB: 31 fetched from {base}",
        f"Sem17T4CE: 2 files, 0.4 MB: 2 fetched from {base}",
        f"STC3-DQ: 3 files, 3.0 MB: 3 fetched from {base}",
    ]
    assert fetched == 36
    assert (project / "results" / "replication" / "report.html").stat().st_size > 0  # docs/replicator.md's report
    # the second fetch downloads nothing
    assert second.returncode == 0 and again == 0
    assert second.stdout.splitlines() == [
        "Sem16T4CE: 31 files, 5.8 MB: all present and verified, nothing fetched",
        "Sem17T4CE: 2 files, 0.4 MB: all present and verified, nothing fetched",
        "STC3-DQ: 3 files, 3.0 MB: all present and verified, nothing fetched",
    ]
    # the verdict counts as docs/replicator.md states them
    text = " ".join((REPO / "docs" / "replicator.md").read_text(encoding="utf-8").split())
    stated = re.search(
        r"of the (\d+) published numbers: (\d+) exact, (\d+) within randomisation error, (\d+) differ, (\d+) fixed "
        r"by the set-up, (\d+) not comparable",
        text,
    )
    summary = pd.read_csv(project / "results" / "replication" / "tables" / "replication" / "summary.csv")
    total = summary.iloc[-1]
    found = [total["numbers"], total["exact"], total["within_randomisation_error"], total["differs"]]
    found += [total["fixed_by_the_set_up"], total["not_comparable"]]
    assert [int(value) for value in found] == [int(value) for value in stated.groups()]


def test_without_its_data_snakemake_stops_before_any_job_naming_the_files_and_the_command(tmp_path):
    project = fresh_clone(tmp_path / "clone")
    for arguments in (
        ["-n", "--configfile", "config/replication.yaml"],
        ["--cores", "1", "--configfile", "config/papers/semeval2016.yaml"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "snakemake", *arguments], cwd=project, capture_output=True, text=True, timeout=600
        )
        lines = [line for line in done.stderr.splitlines() if line.startswith("ordeval:")]
        assert done.returncode != 0 and len(lines) == 1, done.stderr[-2000:]
        assert re.match(
            r"ordeval: configuration error: data_root '.*/clone/resources' lacks \d+ input files: ", lines[0]
        )
        assert lines[0].endswith("they are public data (docs/data.md): fetch them with `ordeval fetch`")
    assert not (project / "results").exists()


def test_a_registered_file_changed_by_hand_is_refused_before_any_job(tmp_path):
    real_data_or_skip()
    project = fresh_clone(tmp_path / "clone")
    done = run_as_written(f"ordeval fetch --from {SHARED_RAW}\n", project, timeout=300)
    assert done.returncode == 0, done.stderr
    run = project / "resources" / "Sem16T4CE" / "official" / "runs" / "E" / "QCRI-E.output"
    run.write_text(run.read_text().replace("0.", "0.0", 1))  # a digit more: another number, the file still valid
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--configfile", "config/papers/semeval2016.yaml"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("ordeval:")]
    assert done.returncode != 0 and len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith(f"ordeval: configuration error: {run} (asked for by datasets.Sem16T4E.runs[0]) is not ")
    assert "changed: 8772 bytes, registered 8771; `ordeval fetch` restores the registered bytes" in lines[0]
    check = run_as_written("ordeval fetch --check\n", project, timeout=300)
    assert (
        check.returncode == 1
        and check.stdout == "resources/Sem16T4CE/official/runs/E/QCRI-E.output: changed: 8772 bytes, registered 8771\n"
    )
    assert run_as_written(f"ordeval fetch --from {SHARED_RAW}\n", project, timeout=300).returncode == 0
    assert run_as_written("ordeval fetch --check\n", project, timeout=300).returncode == 0
