"""Help and listings that say what they are: ``topics --help`` says percent once, ``dir(ordeval)`` lists the
public API, and the tests without the real data say how to point them at it."""

from __future__ import annotations

from ordeval.cli import main


def test_topics_help_says_percent_once(capsys):
    assert main(["topics", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "5%, 10% and 20% of each measure's score range" in text and "%%" not in text


def test_dir_of_the_package_lists_its_public_api():
    import ordeval

    listed = dir(ordeval)
    assert set(ordeval.__all__) <= set(listed)
    assert {"score", "agreement", "leaderboard", "measures", "load_config", "__version__"} <= set(listed)


def test_tests_without_the_real_data_say_how_to_point_them_at_it(tmp_path):
    import os
    import subprocess
    import sys

    from conftest import REPO

    environment = {**os.environ, "ORDEVAL_SHARED_DATA": str(tmp_path / "nowhere")}
    command = [sys.executable, "-m", "pytest", "-rs", "-p", "no:cacheprovider", "tests/test_readers.py", "-k", "real"]
    done = subprocess.run(command, cwd=REPO, env=environment, capture_output=True, text=True, timeout=300)
    header = f"real data: none, the tests that read it are skipped: real data not available: {tmp_path / 'nowhere'}"
    assert header in done.stdout
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("set ORDEVAL_SHARED_DATA to the folder of the public files" in line for line in skipped)
