"""The command line on the state it finds: empty paths and folders are named as such, a Snakemake started
by hand is recognised as running, locks left in the folder never get rerun-incomplete advice, and a workflow that
fails to load is shown with its message, not its first line."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import yaml
from cli_helpers import one_error_line
from conftest import tiny_config

from ordeval.cli import main


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["--run", "C="], "ordeval: error: --run C: empty path"),
        (["--run", "C=FOLDER"], "ordeval: error: FOLDER: is a folder, not a file"),
        (
            ["--run", "C=GOLD", "--plugins", "FOLDER"],
            "ordeval: error: config key --plugins[0]: plugin 'FOLDER' is a "
            "folder, not a Python file (*.py) nor an importable module",
        ),
        (
            ["--run", "C=GOLD", "--plugins", "FOLDER/"],
            "ordeval: error: config key --plugins[0]: plugin 'FOLDER/' is a "
            "folder, not a file (a plugin is a Python file or an importable module)",
        ),
    ],
)
def test_empty_paths_and_folders_are_named_as_such(tmp_path, monkeypatch, capsys, arguments, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FOLDER").mkdir()
    (tmp_path / "GOLD").write_text("t1\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    assert main(["score", "--task", "quantification", "--format", "semeval_dist", "--gold", "GOLD", *arguments]) == 2
    assert one_error_line(capsys.readouterr().err) == expected


def test_a_snakemake_started_by_hand_is_recognised_as_running(tmp_path):
    """A console script runs as ``python /path/bin/snakemake ...`` (was not recognised: ``ordeval run`` beside it
    advised --rerun-incomplete, which would clobber its running jobs)."""
    from ordeval.cli.run import _runs_snakemake, live_snakemake

    assert _runs_snakemake(["/usr/bin/python3.11", "/usr/local/bin/snakemake", "--cores", "2"])
    assert _runs_snakemake(["/usr/bin/python3", "-u", "/opt/venv/bin/snakemake"])
    assert not _runs_snakemake(["/usr/bin/python3", "/opt/snakemake-helper.py", "snakemake"])
    if live_snakemake(tmp_path) is None:
        pytest.skip("no /proc: processes cannot be listed here")
    script = tmp_path / "bin" / "snakemake"
    script.parent.mkdir()
    script.write_text("import time\ntime.sleep(60)\n")
    started = subprocess.Popen([sys.executable, str(script), "--cores", "2"], cwd=tmp_path)
    try:
        for _ in range(100):
            if live_snakemake(tmp_path):
                break
            time.sleep(0.05)
        assert live_snakemake(tmp_path) == [started.pid]
    finally:
        started.kill()
        started.wait()


def test_locks_left_in_the_folder_never_get_rerun_incomplete_advice(tmp_path, monkeypatch, capsys):
    """Incomplete outputs while Snakemake's lock files are there (a Snakemake this machine cannot see, or a killed
    one): the advice is to make sure none runs and --unlock, never --rerun-incomplete."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(tiny_config("locks")))
    script = tmp_path / "fake.py"
    script.write_text(
        "print('IncompleteFilesException:')\nprint('The files below seem to be incomplete.')\nraise SystemExit(1)\n"
    )
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} {script}")
    assert main(["run", "--configfile", "c.yaml"]) == 1
    assert "--rerun-incomplete" in capsys.readouterr().err
    (tmp_path / ".snakemake" / "locks").mkdir(parents=True)
    (tmp_path / ".snakemake" / "locks" / "0.input.lock").write_text("")
    assert main(["run", "--configfile", "c.yaml"]) == 1
    hint = [line for line in capsys.readouterr().err.splitlines() if line.startswith("hint:")]
    assert len(hint) == 1 and "--rerun-incomplete" not in hint[0] and hint[0].endswith("-- --unlock"), hint
    assert "if no Snakemake on another machine uses this folder" in hint[0] or "if no other Snakemake runs" in hint[0]


def test_a_workflow_load_error_is_shown_with_its_message_not_its_first_line(tmp_path, monkeypatch, capsys):
    """Snakemake prints an exception raised while it loads the workflow on two lines: the heading and the
    message (was: only 'error: InputError in file .../common.smk, line 43:')."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Snakefile").write_text("# stand-in\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(tiny_config("load")))
    script = tmp_path / "fake.py"
    lines = [
        'InputError in file "/x/workflow/rules/common.smk", line 43:',
        "/x/published.tsv, line 5: expected 6 tab-separated fields, found 5",
        '  File "/x/Snakefile", line 17, in <module>',
        "AmbiguousRuleException:",
        "Rules a and b are ambiguous for the file x.csv.",
    ]
    script.write_text("".join(f"print({line!r})\n" for line in lines) + "raise SystemExit(1)\n")
    monkeypatch.setenv("ORDEVAL_SNAKEMAKE", f"{sys.executable} {script}")
    assert main(["run", "-n", "--configfile", "c.yaml"]) == 1
    err = capsys.readouterr().err
    assert (
        '  InputError in file "/x/workflow/rules/common.smk", line 43: /x/published.tsv, line 5: expected 6 '
        "tab-separated fields, found 5"
    ) in err.splitlines()
    assert "  AmbiguousRuleException: Rules a and b are ambiguous for the file x.csv." in err.splitlines()
