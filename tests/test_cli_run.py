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

    from ordeval.tasks import get_task, plugins

    folder, _ = project
    _fake_snakemake(folder, monkeypatch, ["1 of 1 steps (100%) done"], 0)
    plugin = REPO / "tests" / "formats" / "toy_format.py"
    (folder / "gold.csv").write_text("t1,0.2,0.2,0.2,0.2,0.2\nt2,0.1,0.2,0.4,0.2,0.1\n")
    config = tiny_config("plugincfg", data_root=str(folder), plugins=[str(plugin)])
    config["datasets"] = {
        "Toy": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "toy_csv", "path": "gold.csv"},
            "runs": [{"type": "toy_csv", "path": "gold.csv", "name": "Copy"}, {"type": "simulate", "systems": 6}],
        }
    }
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
    # A shell's background job inherits SIGINT ignored, and so do the fake's processes: they then stop only
    # at the SIGKILL after the grace period, here 2 s rather than 30.
    monkeypatch.setattr("ordeval.cli.run.STOP_GRACE", 2.0)

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
    assert f"stopped by {signal.Signals(number).name}" in err and "hint: to continue: ordeval run --configfile" in err


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


# --------------------------------------------------------------------------- issue 34: every exit path, pass-through


def _busy_snakemake(folder, monkeypatch, lines: int) -> tuple:
    """A Snakemake stand-in that starts a job, writes both pids, prints ``lines`` lines and then runs on."""
    pids = folder / "pids"
    script = folder / "busy_snakemake.py"
    script.write_text(
        "import os, subprocess, sys, time\n"
        "job = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{job.pid}}')\n"
        f"for i in range({lines}):\n"
        "    print(f'{i} of 1000 steps (0%) done ' + 'x' * 100, flush=True)\n"
        "time.sleep(60)\n"
    )
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} {script}")
    return pids


def _all_stopped(pids) -> bool:
    snakemake, job = map(int, pids.read_text().split())
    for _ in range(200):
        if not _alive(job) and not _alive(snakemake):
            return True
        time.sleep(0.05)
    return False


def _lock_is_free(lock) -> bool:
    import fcntl

    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
    return True


def test_a_full_disk_while_logging_stops_snakemake_and_its_jobs_and_names_the_log(project, monkeypatch, capsys):
    """ENOSPC from the log's writes (as on a full disk; tests/workflow/test_full_disk.py fills a real one): the
    run stops Snakemake's process group, reads its output to the end, releases its lock and says which file."""
    import builtins
    import errno

    from ordeval.cli import run as run_module

    folder, config = project
    pids = _busy_snakemake(folder, monkeypatch, 2000)

    class FullDisk:
        def __init__(self, handle):
            self.handle, self.room = handle, 20_000

        def write(self, text):
            self.room -= len(text)
            if self.room < 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.handle.write(text)

        def __getattr__(self, name):
            return getattr(self.handle, name)

    def opener(path, mode="r", *arguments, **keywords):
        handle = builtins.open(path, mode, *arguments, **keywords)
        return FullDisk(handle) if str(path).endswith("ordeval-run.log") else handle

    monkeypatch.setattr(run_module, "open", opener, raising=False)
    started = time.monotonic()
    assert main(["run", "--configfile", str(config), "--cores", "2"]) == 2
    assert time.monotonic() - started < 45
    line = one_error_line(capsys.readouterr().err.split("\n", 1)[1])  # after the run's first line
    log = os.path.join("results", "clitest", "logs", "ordeval-run.log")
    assert (
        f"ordeval: error: {log}: cannot write the log (No space left on device); Snakemake and its jobs were "
        "stopped" in line
    )
    assert line.endswith(f"once there is room: ordeval run --configfile {config} --cores 2")
    assert _all_stopped(pids)
    assert _lock_is_free(folder / "results" / "clitest" / "logs" / ".ordeval-run.lock")


def test_an_error_of_its_own_stops_snakemake_before_it_is_raised(project, monkeypatch):
    from ordeval.cli import run as run_module

    folder, config = project
    pids = _busy_snakemake(folder, monkeypatch, 50)

    def broken(self, text):
        if text.startswith("10 of"):
            raise RuntimeError("a bug in the summary")

    monkeypatch.setattr(run_module._Watch, "__call__", broken)
    with pytest.raises(RuntimeError, match="a bug in the summary"):
        main(["run", "--configfile", str(config)])
    assert _all_stopped(pids)
    assert _lock_is_free(folder / "results" / "clitest" / "logs" / ".ordeval-run.lock")


def test_the_target_comes_before_the_pass_through_arguments(project, monkeypatch, capsys):
    """``-- --config data_root=...`` with any --target (a --config at the end would take the target)."""
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["1 of 1 steps (100%) done"], 0)
    status = main(
        [
            "run",
            "--configfile",
            str(config),
            "--target",
            "leaderboard",
            "--cores",
            "2",
            "--",
            "--config",
            f"data_root={folder}",
        ]
    )
    captured = capsys.readouterr()
    assert status == 0, captured.err
    arguments = (folder / "results" / "clitest" / "logs" / "ordeval-run.log").read_text().splitlines()[1]
    assert arguments.endswith(f"--cores 2 leaderboard --config data_root={folder}")
    # the HTML report's command, with the same --config, after the report stage (no manifest yet)
    assert (
        f"HTML report: ordeval run --configfile {config} --target report --cores 2 -- --config data_root={folder}"
        f" && snakemake --configfile {config} --config data_root={folder} --report results/clitest/report.html"
        in captured.out.splitlines()
    )


def test_a_dry_run_writes_nothing(project, monkeypatch, capsys):
    folder, config = project
    stats = ["Job stats:", "job      count", "-----  -------", "prepare_data 1", "score_runs 2", "all 1", "total 4"]
    _fake_snakemake(folder, monkeypatch, stats, 0)
    for flag in ("-n", "--dry-run"):
        assert main(["run", "--configfile", str(config), flag, "--", "--config", "seed=3"]) == 0
        captured = capsys.readouterr()
        assert "dry run: 4 jobs would run (prepare_data, score_runs x2, all); nothing was computed or written" in (
            captured.out
        )
        assert "full log" not in captured.out and "dry run: nothing is written" in captured.err
        assert sorted(path.name for path in folder.iterdir()) == ["Snakefile", "fake_snakemake.py", "tiny.yaml"]


@pytest.mark.parametrize(
    "items, expected",
    [
        (["kendal=a"], "-- --config kendal=a: config key (top level): unexpected key(s) 'kendal'"),
        (["seed=-4"], "-- --config seed=-4: config key seed: -4 is less than the minimum of 0"),
        (["kendall=a", "seed=x"], "-- --config seed=x: config key seed: "),
        (
            ["data_root=/no/such/folder"],
            "-- --config data_root=/no/such/folder: config key data_root: '/no/such/folder': no such folder; the "
            "configuration reads 1 file below it (e.g. gold.txt)",
        ),
    ],
)
def test_errors_about_pass_through_arguments_name_them_not_the_configuration_file(
    project, monkeypatch, capsys, items, expected
):
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["SHOULD NOT RUN"], 0)
    if items[0].startswith("data_root"):  # a data set that reads a file
        data = yaml.safe_load(config.read_text())
        data["datasets"]["TinySem"]["gold"] = {"type": "semeval_dist", "path": "gold.txt"}
        config.write_text(yaml.safe_dump(data))
    assert main(["run", "--configfile", str(config), "--", "--config", *items]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"ordeval: error: {expected}" in line and str(config) not in line.split(": config key")[0]
    assert not (folder / "results").exists()


def test_an_error_in_the_file_still_names_the_file_with_pass_through_arguments(project, monkeypatch, capsys):
    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["SHOULD NOT RUN"], 0)
    config.write_text(config.read_text() + "sytems: 3\n")
    assert main(["run", "--configfile", str(config), "--", "--config", "seed=3"]) == 2
    assert one_error_line(capsys.readouterr().err).startswith(f"ordeval: error: {config}: config key (top level)")


def test_hints_name_a_live_snakemake_as_live_and_quote_the_commands_they_print(project, monkeypatch, capsys):
    """A Snakemake running in the project now (here a stand-in whose command line says so): no advice to
    --unlock or --rerun-incomplete; none running: the advice, as a command that pastes (quoted)."""
    import subprocess

    folder, _ = project
    spaced = folder / "my config.yaml"
    spaced.write_text(yaml.safe_dump(tiny_config("clitest")))
    for lines in (
        ["LockException:", "Error: Directory cannot be locked."],
        ["IncompleteFilesException:", "The files below seem to be incomplete."],
    ):
        _fake_snakemake(folder, monkeypatch, lines, 1)
        assert main(["run", "--configfile", str(spaced), "--", "--keep-going"]) == 1
        err = capsys.readouterr().err
        hint = next(line for line in err.splitlines() if line.startswith("hint:"))
        more = "--unlock" if "Lock" in lines[0] else "--keep-going --rerun-incomplete"
        assert hint.endswith(f"ordeval run --configfile '{spaced}' -- {more}"), hint
        assert "none runs on this machine now" in hint or "interrupted run" in hint
        live = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)", "-m", "snakemake", "--directory", str(folder)]
        )
        try:
            assert main(["run", "--configfile", str(spaced)]) == 1
            hint = next(line for line in capsys.readouterr().err.splitlines() if line.startswith("hint:"))
        finally:
            live.kill()
            live.wait()
        assert f"a Snakemake is running in {folder} now (process {live.pid})" in hint
        assert "--unlock" in hint and "do not --unlock or --rerun-incomplete while it runs" in hint


def test_live_snakemake_finds_only_snakemake_processes_of_the_project(tmp_path):
    import subprocess

    from ordeval.cli.run import live_snakemake

    if live_snakemake(tmp_path) is None:
        pytest.skip("no /proc: processes cannot be listed here")
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    started = [
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "-m", "snakemake", *where])
        for where in (["--directory", str(tmp_path)], ["-d", str(elsewhere)], [])
    ]
    started.append(
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "not-snakemake"], cwd=tmp_path)
    )
    try:
        time.sleep(0.2)
        assert live_snakemake(tmp_path) == [started[0].pid]
        assert live_snakemake(elsewhere) == [started[1].pid]
    finally:
        for process in started:
            process.kill()
            process.wait()
    assert live_snakemake(tmp_path) == []


def test_an_evaluate_measure_dry_run_writes_nothing(project, monkeypatch, capsys):
    from conftest import REPO

    from ordeval.tasks import get_task, plugins

    folder, config = project
    _fake_snakemake(folder, monkeypatch, ["total 9"], 0)
    plugin = REPO / "examples" / "my_measure.py"
    try:
        assert main(["evaluate-measure", str(plugin), "--configfile", str(config), "--measure", "RNCSD", "-n"]) == 0
    finally:
        for task, name in (("quantification", "RNCSD"), ("classification", "MSE_M")):
            get_task(task).registry._measures.pop(name, None)
        plugins._loaded.pop(str(plugin.resolve()), None)
    captured = capsys.readouterr()
    assert "(temporary: a dry run writes nothing)" in captured.err and "dry run: 9 jobs would run" in captured.out
    assert sorted(path.name for path in folder.iterdir()) == ["Snakefile", "fake_snakemake.py", "tiny.yaml"]
