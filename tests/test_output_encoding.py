"""Output that does not depend on the terminal's encoding (issue 54, item 1).

Class: text written to standard output or error, or read from a child process, in a locale that cannot encode
it. Members: every command's stdout (measures, score's leaderboard, diff --markdown, validate's problem lines),
stderr, Snakemake's output as ordeval run logs it, file names that were not valid in the locale, and every text
file the package opens (its encoding named, never the locale's)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO, tiny_config

SRC = REPO / "src" / "ordeval"
LOCALES = {
    "ascii (LC_ALL=C)": {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
}


def _ordeval(*arguments: str, env: dict | None = None, stdin: bytes | None = None, cwd=None):
    environment = {**os.environ, "PYTHONPATH": str(REPO / "src"), **(env or {})}
    environment = {key: value for key, value in environment.items() if value != ""}
    return subprocess.run(
        [sys.executable, "-m", "ordeval", *arguments],
        capture_output=True,
        input=stdin,
        env=environment,
        cwd=cwd,
        timeout=300,
    )


@pytest.mark.parametrize("locale", list(LOCALES))
def test_measures_prints_every_line_in_any_locale(locale):
    utf8 = _ordeval("measures")
    other = _ordeval("measures", env=LOCALES[locale])
    assert other.returncode == 0 == utf8.returncode
    lines = other.stdout.decode("latin-1").splitlines()
    assert len(lines) == len(utf8.stdout.decode("utf-8").splitlines()) > 90
    amigo = next(line for line in lines if "CEM_ORD" in line)
    # what the locale cannot encode is escaped (Latin-1 has the o with an acute accent)
    assert ("Amigó" if locale == "latin-1" else "Amig\\xf3") in amigo


@pytest.mark.parametrize("locale", list(LOCALES))
def test_a_leaderboard_with_greek_measure_names_is_printed_whole(tmp_path, locale):
    gold = tmp_path / "gold.tsv"
    gold.write_text("topic\titem\tlabel\n" + "".join(f"t{t}\tt{t}-{i}\t{i % 3}\n" for t in range(3) for i in range(6)))
    run = tmp_path / "R.tsv"
    rows = "".join(f"t{t}\tt{t}-{i}\tR\t{i % 2}\n" for t in range(3) for i in range(6))
    run.write_text("topic\titem\trun\tlabel\n" + rows)
    arguments = ["score", "--task", "classification", "--gold", str(gold), "--run", str(run), "--trials", "20"]
    utf8 = _ordeval(*arguments, "--out", str(tmp_path / "a"))
    other = _ordeval(*arguments, "--out", str(tmp_path / "b"), env=LOCALES[locale])
    assert other.returncode == 0 == utf8.returncode
    assert len(other.stdout.splitlines()) == len(utf8.stdout.splitlines()) > 20
    assert b"## \\u03b1_ORD (higher is better)" in other.stdout


def test_diff_markdown_header_in_latin1(tmp_path):
    from test_diff import _manifest, _write

    for side in ("old", "new"):
        _write(tmp_path / side, "tables/x.csv", "a,b\nx,1\n")
        _manifest(tmp_path / side)
    done = _ordeval("diff", str(tmp_path / "old"), str(tmp_path / "new"), "--markdown", env=LOCALES["latin-1"])
    assert done.returncode == 0
    assert done.stdout.startswith(b"### ordeval diff: `") and b"\\u2192" in done.stdout.splitlines()[0]


@pytest.mark.parametrize("locale", list(LOCALES))
def test_validate_reports_an_emoji_label(tmp_path, locale):
    path = tmp_path / "gold.tsv"
    path.write_text("topic\tclass\tprob\nt1\t\U0001f600\t0.5\nt1\t-1\t0.5\n", encoding="utf-8")
    done = _ordeval("validate", "--task", "quantification", "--format", "tsv", str(path), env=LOCALES[locale])
    assert done.returncode == 1
    assert f"{path}:2: unknown class label '\\U0001f600'".encode() in done.stdout


def test_a_closed_pipe_keeps_the_exit_status_in_the_c_locale():
    done = subprocess.run(
        f"{sys.executable} -m ordeval measures | head -1",
        shell=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src"), "LC_ALL": "C", "PYTHONUTF8": "0"},
        executable="/bin/bash",
    )
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 1 and not done.stderr


def test_a_file_name_not_valid_in_the_locale_is_written_back_as_its_bytes(tmp_path):
    name = b"gold-\xe9.tsv"
    (tmp_path / os.fsdecode(name)).write_bytes(b"topic\tclass\tprob\nt1\t9\t1\n")
    done = _ordeval(
        "validate",
        "--task",
        "quantification",
        "--format",
        "tsv",
        os.fsdecode(name),
        env=LOCALES["ascii (LC_ALL=C)"],
        cwd=tmp_path,
    )
    assert done.returncode == 1 and done.stdout.startswith(name + b":2: unknown class label '9'")


def test_the_escape_handler_one_character_at_a_time():
    from ordeval.cli.streams import ERRORS, encodable

    assert "α → é".encode("ascii", ERRORS) == b"\\u03b1 \\u2192 \\xe9"
    assert "a\udce9b".encode("ascii", ERRORS) == b"a\xe9b"
    assert encodable("α é", "latin-1") == "\\u03b1 é"


def test_snakemake_output_reaches_the_log_as_utf8_in_the_c_locale(tmp_path, monkeypatch):
    """ordeval run reads its child's output as UTF-8 and asks the child for UTF-8, whatever the locale."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "Snakefile").write_text("")
    (project / "config.yaml").write_text(
        __import__("yaml").safe_dump(tiny_config(name="enc"), sort_keys=False), encoding="utf-8"
    )
    fake = tmp_path / "fake_snakemake.py"
    fake.write_text("print('Amigó α → ✓'); print('1 of 1 steps (100%) done')\n", encoding="utf-8")
    done = _ordeval(
        "run",
        "--configfile",
        str(project / "config.yaml"),
        "--cores",
        "1",
        env={**LOCALES["ascii (LC_ALL=C)"], "ORDEVAL_SNAKEMAKE": f"{sys.executable} {fake}"},
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    log = (project / "results" / "enc" / "logs" / "ordeval-run.log").read_text(encoding="utf-8")
    assert "Amigó α → ✓" in log


# --------------------------------------------------------------------------- every text file names its encoding


def _text_opens_without_encoding(path: Path) -> list[str]:
    """``open(...)`` in text mode, ``Path.read_text``/``write_text``, ``TextIOWrapper``/``Popen(text=True)`` calls of
    a module that do not name an encoding (they would use the locale's)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        keywords = {keyword.arg for keyword in node.keywords}
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if "encoding" in keywords:
            continue
        if name in ("read_text", "write_text") and isinstance(node.func, ast.Attribute) or name == "TextIOWrapper":
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: {name}")
        elif name == "open" and not (isinstance(node.func, ast.Attribute) and node.func.attr != "open"):
            mode = (
                node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            )
            text_mode = not (isinstance(mode, ast.Constant) and "b" in str(mode.value))
            if isinstance(node.func, ast.Name) and text_mode:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: open")
        elif name == "Popen" and "text" in keywords:
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: Popen(text=True)")
    return found


def test_every_text_file_the_package_opens_names_its_encoding():
    paths = [*SRC.rglob("*.py"), *(REPO / "scripts").glob("*.py")]
    found = [problem for path in paths for problem in _text_opens_without_encoding(path)]
    assert not found, textwrap.indent("\n".join(found), "  ")
