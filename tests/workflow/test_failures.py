"""Bad input and bad configuration through Snakemake: the error is short, names the file and line (or the
configuration key), comes before any job where possible, and leaves no output behind."""

import copy
import os
import shutil
import subprocess
import sys

import pytest
from conftest import PLAIN_OUTPUT, REPO, run_workflow, tiny_config

GOLD = "".join(f"t{i}\t0.2\t0.2\t0.2\t0.2\t0.2\n" for i in range(1, 9))


def bad_input_config(tmp_path, run_text):
    """A data set read from files (8 topics, 5 runs) whose run file is ``run_text``."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "gold.txt").write_text(GOLD)
    (data / "run.txt").write_text(run_text)
    config = tiny_config(data_root=str(data))
    config["datasets"] = {
        "Bad": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "semeval_dist", "path": "gold.txt"},
            "runs": [
                {"type": "semeval_dist", "path": "run.txt", "name": "R1"},
                {"type": "uniform", "name": "BL-uniform"},
                {"type": "simulate", "systems": 3},
            ],
        },
        "TinySem": config["datasets"]["TinySem"],
    }
    return config


GOOD_LINES = [f"t{i}\t0.1\t0.1\t0.2\t0.3\t0.3" for i in range(1, 9)]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["t1\t0.1\t0.1\t0.2\t0.3\t1.3", *GOOD_LINES[1:]], "line 1: probability 1.3 is outside [0, 1]"),
        ([*GOOD_LINES[:1], "zz\t0.1\t0.1\t0.2\t0.3\t0.3", *GOOD_LINES[1:]], "line 2: run 'R1' has topic 'zz'"),
    ],
)
def test_bad_input_stops_the_job_with_file_and_line_and_leaves_no_output(tmp_path, lines, message):
    config = bad_input_config(tmp_path, "\n".join(lines) + "\n")
    result = run_workflow(tmp_path / "work", config, "--keep-going", check=False)
    assert result.returncode != 0
    assert message in result.stderr
    assert str(tmp_path / "data" / "run.txt") in result.stderr
    assert "Traceback" not in result.stderr  # the one-line error, no Python traceback
    data_dir = tmp_path / "work" / "results" / "tiny" / "data" / "Bad"
    assert not data_dir.exists() or not any(path.is_file() for path in data_dir.iterdir())


def test_a_missing_file_is_named_with_its_entry_before_any_job(tmp_path):
    config = bad_input_config(tmp_path, "\n".join(GOOD_LINES) + "\n")
    (tmp_path / "data" / "run.txt").unlink()
    result = run_workflow(tmp_path / "work", config, "--dry-run", check=False)
    assert result.returncode != 0
    assert "run.txt (asked for by datasets.Bad.runs[0])" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: c.update(sed=3), "config key (top level): unexpected key(s) 'sed'"),
        (
            lambda c: c["datasets"]["TinySem"]["runs"][1].update(sytems=2),
            "config key datasets.TinySem.runs[1]: unexpected key(s) 'sytems'",
        ),
        (lambda c: c.update(measures=["NMD", "RNOD3"]), "unknown measure(s) RNOD3"),
        (lambda c: c["consistency"].update(subset_size=40), "config key consistency.subset_size: 40"),
    ],
)
def test_a_configuration_error_is_one_line_naming_the_key(tmp_path, change, expected):
    config = copy.deepcopy(tiny_config())
    change(config)
    result = run_workflow(tmp_path, config, "--dry-run", check=False)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert expected in output
    # one line, not buried in hundreds; before it, only Snakemake's note that it reads profiles/default
    lines = output.strip().splitlines()
    assert len(lines) == 1 or (len(lines) == 2 and lines[0].startswith("Using workflow specific profile profiles/"))
    assert lines[-1].startswith("ordeval: configuration error:")


TEX_PROGRAMS = {"pdflatex", "latexmk", "latex", "lualatex", "xelatex", "pdftex", "tex", "kpsewhich"}


def path_without_tex(bin_dir):
    """A PATH of one directory that links every program of the current PATH but TeX's: the rest of the
    machine stays as it is (executor plugins that call ``which`` at import, for one)."""
    bin_dir.mkdir()
    for directory in [os.path.dirname(sys.executable), *os.environ.get("PATH", "").split(os.pathsep)]:
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            program = os.path.join(directory, name)
            link = bin_dir / name
            if name in TEX_PROGRAMS or link.exists() or link.is_symlink():
                continue
            if os.path.isfile(program) and os.access(program, os.X_OK):
                link.symlink_to(program)
    return str(bin_dir)


def test_without_tex_no_pdf_is_planned_and_asking_for_it_names_the_packages(pipeline, tmp_path):
    """On a copy of the session's results (so the session's PDF stays), without TeX on the PATH. The copy's
    parameters name its own folder, so only modification times decide what runs there: the PDF alone."""
    work = tmp_path / "copy"
    shutil.copytree(pipeline.workdir, work, symlinks=True)
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(work),
        "--configfile",
        str(work / "config.yaml"),
        "--rerun-triggers",
        "mtime",
        "--cores",
        "1",
    ]
    no_tex = {**os.environ, "PATH": path_without_tex(tmp_path / "bin")}
    (work / "results" / "tiny" / "report" / "ordeval.pdf").unlink(missing_ok=True)
    planned = subprocess.run([*command, "--dry-run", *PLAIN_OUTPUT], capture_output=True, text=True, env=no_tex)
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "report_pdf" not in planned.stdout and "Nothing to be done" in planned.stdout
    explicit = subprocess.run([*command, "results/tiny/report/ordeval.pdf"], capture_output=True, text=True, env=no_tex)
    assert explicit.returncode != 0
    assert "texlive-latex-base" in explicit.stdout + explicit.stderr
    assert not (work / "results" / "tiny" / "report" / "ordeval.pdf").exists()
