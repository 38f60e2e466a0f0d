"""What a run shows as a user starts it: on a terminal (a real pseudo-terminal here) a progress bar redrawn in place
(the workflow profile's logger, snakemake-logger-plugin-rich), then the summary of the run (the Snakefile's
onsuccess: where the PDF, the HTML report's command and the tables are); on failure (onerror) the failed job's rule
and log; Snakemake's own log keeps every job."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest
from conftest import REPO, tiny_config

pytestmark = pytest.mark.workflow


def _project(tmp_path, name):
    import yaml

    config = tiny_config(name, report={"pdf": False})
    del config["datasets"]["TinyDQ"]
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config))
    return [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--configfile",
        "config.yaml",
        "--cores",
        "2",
    ]


def run_in_terminal(command, cwd, timeout=600, **environment) -> tuple[int, str]:
    """``command`` with a pseudo-terminal as its stdin, stdout and stderr (what a user's terminal is): (exit status,
    everything written to the terminal, escape sequences included)."""
    main, child = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40", **environment}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(command, cwd=cwd, stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    chunks, deadline = [], time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                try:
                    data = os.read(main, 65536)
                except OSError:  # EIO: the terminal's other end is closed
                    break
                if not data:
                    break
                chunks.append(data)
            elif process.poll() is not None:
                break
    finally:
        os.close(main)
    status = process.wait(timeout=60)
    return status, b"".join(chunks).decode("utf-8", errors="replace")


def test_a_run_on_a_terminal_draws_a_progress_bar_in_place_and_ends_with_the_summary(tmp_path):
    command = _project(tmp_path, "terminal")
    status, shown = run_in_terminal([*command, "scores", "agreement"], tmp_path)
    assert status == 0, shown[-3000:]
    # the bar: drawn, then redrawn in place (the cursor moved back up over it), not printed line after line
    assert shown.count("Total Progress") >= 2 and re.search(r"\x1b\[\d*A", shown), shown[-2000:]
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert "━" in plain and "100%" in plain
    assert "ordeval: configuration 'terminal' done: results in results/terminal/" in plain
    assert "PDF report: not compiled (report: {pdf: false} in the configuration)" in plain
    assert "HTML report: snakemake --cores all --snakefile" in plain  # the report stage first: no manifest yet
    # no job's details on the terminal; Snakemake's log has every job
    assert "localrule" not in plain and "rule score_runs" not in plain
    [log] = (tmp_path / ".snakemake" / "log").glob("*.snakemake.log")
    text = log.read_text()
    jobs = int(re.search(r"(\d+) of (\d+) steps \(100%\) done", text).group(2))
    assert len(re.findall(r"^Finished jobid: \d+", text, re.M)) == jobs
    assert "rule score_runs:" in text and "ordeval: configuration 'terminal' done" in text


def test_a_failed_run_names_the_failed_job_and_its_log(tmp_path):
    """A job that fails (here: every figure job, matplotlib given a backend that does not exist): the summary says
    which rule and where its log is, in the output and in Snakemake's log."""
    command = _project(tmp_path, "failing")
    environment = {**os.environ, "MPLBACKEND": "no-such-backend"}
    done = subprocess.run(
        [*command, "agreement"], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=environment
    )
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "ordeval: configuration 'failing' FAILED: results in results/failing/" in output, output[-3000:]
    failed = re.search(r"^failed: rule (\w+).*, log (\S+)$", output, re.M)
    assert failed and failed.group(1) == "agreement_heatmap", output[-3000:]
    assert (tmp_path / failed.group(2)).is_file() and failed.group(2).startswith("results/failing/logs/")
    [log] = (tmp_path / ".snakemake" / "log").glob("*.snakemake.log")
    assert "failed: rule agreement_heatmap" in log.read_text()


def test_ordeval_run_reads_snakemake_s_plain_text_with_the_workflow_profile_s_other_settings():
    """``ordeval run`` turns the workflow profile off (its logger draws a bar, not the text it reads) and gives each
    of the profile's other settings on the command line, as options the installed Snakemake has."""
    from snakemake.cli import get_argument_parser

    from ordeval.cli.run import plain_output_arguments

    arguments = plain_output_arguments(REPO)
    assert arguments == [
        "--workflow-profile",
        "none",
        "--quiet",
        "rules",
        "--max-checksum-file-size",
        "0",
        "--scheduler",
        "greedy",
        "--max-jobs-per-timespan",
        "300/3s",
        "--force-use-threads",
    ]
    options = {option for action in get_argument_parser()._actions for option in action.option_strings}
    assert {argument for argument in arguments if argument.startswith("--")} <= options
