"""``ordeval run``: the configuration checked first, the summary and its hints, --cores, signals forwarded to
Snakemake's process group, one run per configuration name at a time (Snakemake replaced by a script)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest
import yaml
from cli_helpers import one_error_line
from conftest import tiny_config

from ordeval.cli import main
from ordeval.cli.run import project_folder


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder (a Snakefile) with a tiny configuration; Snakemake replaced by a script."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny_config("clitest")), encoding="utf-8")
    return tmp_path, config


def _fake_snakemake(tmp_path, monkeypatch, lines: list[str], status: int):
    script = tmp_path / "fake_snakemake.py"
    script.write_text(
        "import sys\n"
        "print('ARGS', ' '.join(sys.argv[1:]))\n"
        + "".join(f"print({line!r})\n" for line in lines)
        + f"sys.exit({status})\n"
    )
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} {script}")


def test_run_checks_the_configuration_before_snakemake(project, monkeypatch, capsys):
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["SHOULD NOT RUN"], 0)
    bad = folder / "bad.yaml"
    bad.write_text("name: x\nseed: 1\ndatasets: {}\nsytems: 3\n")
    assert main(["run", "--configfile", str(bad)]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert str(bad) in line and "unexpected key(s) 'sytems'" in line
    assert not (folder / "results").exists()
    assert main(["run", "--configfile", str(folder / "missing.yaml")]) == 2
    one_error_line(capsys.readouterr().err)


def test_run_takes_a_file_format_of_a_plugin_in_the_configuration(project, monkeypatch, capsys):
    """The configuration's plugins are loaded before it is validated: a run source of a plugin's format."""
    from conftest import REPO

    from ordeval import plugins
    from ordeval.tasks import get_task

    folder, _ = project
    _fake_snakemake(folder, monkeypatch, ["1 of 1 steps (100%) done"], 0)
    plugin = REPO / "tests" / "formats" / "toy_format.py"
    (folder / "gold.csv").write_text("t1,0.2,0.2,0.2,0.2,0.2\nt2,0.1,0.2,0.4,0.2,0.1\n")
    config = tiny_config("plugincfg", data_root=str(folder), plugins=[str(plugin)])
    config["datasets"] = {"Toy": {"classes": [-2, -1, 0, 1, 2], "gold": {"type": "toy_csv", "path": "gold.csv"},
                                  "runs": [{"type": "toy_csv", "path": "gold.csv", "name": "Copy"},
                                           {"type": "simulate", "systems": 6}]}}  # fmt: skip
    path = folder / "plugin.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    formats = get_task("quantification").formats
    before = dict(formats)
    try:
        assert main(["run", "--configfile", str(path)]) == 0, capsys.readouterr().err
    finally:
        formats.clear()
        formats.update(before)
        plugins._loaded.pop(str(plugin.resolve()), None)


def test_run_summary_log_and_status(project, monkeypatch, capsys):
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["1 of 4 steps (25%) done", "2 of 4 steps (50%) done"], 0)
    assert main(["run", "--configfile", str(config), "--cores", "1", "--target", "scores", "--", "--keep-going"]) == 0
    captured = capsys.readouterr()
    log = (folder / "results" / "clitest" / "logs" / "ordeval-run.log").read_text()
    assert "--cores 1" in log and "--keep-going" in log and log.rstrip().endswith("2 of 4 steps (50%) done")
    assert "scores" in log.splitlines()[1]
    assert "jobs done: 2 of 4" in captured.out and "results/clitest" in captured.out
    _fake_snakemake(folder, monkeypatch, ["1 of 4 steps (25%) done", "Error in rule score_runs:", "  jobid: 3"], 1)
    assert main(["run", "--configfile", str(config), "--progress"]) == 1
    err = capsys.readouterr().err
    assert "jobs failed: 1 (score_runs)" in err and "Error in rule score_runs:" in err
    assert "--rerun-incomplete" not in err and "--unlock" not in err  # hints only where they apply


def test_run_summary_shows_the_jobs_one_line_error_without_hints_that_do_not_apply(project, monkeypatch, capsys):
    folder, config = project
    lines = [
        "Error in rule score_runs:",
        "2026-01-01 score_runs ERROR score_runs failed: gold.txt:3: negative probability -0.2",
        "Traceback (most recent call last):",
        '  File "x.py", line 1',
        "ValueError: x",
    ]
    _fake_snakemake(folder, monkeypatch, lines, 1)
    assert main(["run", "--configfile", str(config)]) == 1
    err = capsys.readouterr().err
    assert "error:\n  score_runs failed: gold.txt:3: negative probability -0.2" in err
    assert "Traceback" not in err and "hint:" not in err
    _fake_snakemake(folder, monkeypatch, ["LockException:", "Error: Directory cannot be locked."], 1)
    assert main(["run", "--configfile", str(config)]) == 1
    err = capsys.readouterr().err
    assert "--unlock" in err and "--rerun-incomplete" not in err


@pytest.mark.parametrize("cores", ["0", "-1", "two"])
def test_run_refuses_cores_below_one(project, monkeypatch, capsys, cores):
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["SHOULD NOT RUN"], 0)
    assert main(["run", "--configfile", str(config), "--cores", cores]) == 2
    assert "--cores" in one_error_line(capsys.readouterr().err)
    assert not (folder / "results").exists()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is not running
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


@pytest.mark.parametrize("number, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_to_ordeval_run_stops_snakemake_and_its_jobs(project, monkeypatch, capsys, number, status):
    folder, config = project
    pids = folder / "pids"
    script = folder / "fake_snakemake.py"
    script.write_text(
        "import os, subprocess, sys, time\n"
        "job = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{job.pid}}')\n"
        "print('1 of 2 steps (50%) done', flush=True)\n"
        "time.sleep(60)\n"
    )
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} {script}")

    def interrupt():
        for _ in range(600):  # up to 30 s on a busy machine: both pids written, then the signal
            if pids.is_file() and len(pids.read_text().split()) == 2:
                break
            time.sleep(0.05)
        time.sleep(0.2)
        os.kill(os.getpid(), number)

    threading.Thread(target=interrupt, daemon=True).start()
    started = time.monotonic()
    assert main(["run", "--configfile", str(config)]) == status
    assert time.monotonic() - started < 45
    snakemake, job = map(int, pids.read_text().split())
    for _ in range(100):
        if not _alive(job) and not _alive(snakemake):
            break
        time.sleep(0.05)
    assert not _alive(job) and not _alive(snakemake)
    err = capsys.readouterr().err
    assert f"stopped by {signal.Signals(number).name}" in err and "run the same command again" in err


def test_a_second_run_of_the_same_name_is_refused_before_touching_the_first_ones_log(project, monkeypatch, capsys):
    import fcntl

    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["SHOULD NOT RUN"], 0)
    logs = folder / "results" / "clitest" / "logs"
    logs.mkdir(parents=True)
    (logs / "ordeval-run.log").write_text("the first run's log\n")
    with open(logs / ".ordeval-run.lock", "a") as held:  # the first run holds the lock
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert main(["run", "--configfile", str(config)]) == 2
    assert "another 'ordeval run' of 'clitest' is running" in one_error_line(capsys.readouterr().err)
    assert (logs / "ordeval-run.log").read_text() == "the first run's log\n"
    assert main(["run", "--configfile", str(config)]) == 0  # once the first has finished


def test_run_knows_its_project_folder_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert (project_folder() / "Snakefile").is_file()
