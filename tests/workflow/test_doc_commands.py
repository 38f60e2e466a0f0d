"""Every command block of the README and of docs/ runs as written: each ```bash block is run by a test (named in
RUN_BY, the test that runs that section's block as written) or its every command is a command of .ci/run (which
CI runs, in a fresh clone, as written). A new block that neither runs fails here until a test runs it."""

from __future__ import annotations

import re

from conftest import REPO

#: (document, heading) -> the test that runs the block of that section as written.
RUN_BY = {
    (
        "README.md",
        "## Replicate the papers on the real data",
    ): "test_replication_from_a_clone.py::test_the_readme_replication_runs_as_written_from_a_fresh_clone",
    (
        "docs/replicator.md",
        "## Replicating the papers on the real data",
    ): "test_replication_from_a_clone.py::test_the_readme_replication_runs_as_written_from_a_fresh_clone",
    ("docs/organiser.md", "## Command line"): "test_readme_cli.py::test_the_command_line_examples_run_as_written",
    (
        "docs/replicator.md",
        "## The official SemEval-2016 results",
    ): "test_readme_cli.py::test_the_official_semeval_2016_tables_print_as_the_readme_says",
    (
        "docs/measure-designer.md",
        "## Evaluate a new measure",
    ): "test_readme_blocks.py::test_evaluate_a_new_measure_as_the_readme_shows_it",
    (
        "docs/measure-designer.md",
        "## How many topics do I need",
    ): "test_readme_blocks.py::test_how_many_topics_as_the_readme_shows_it",
    (
        "docs/comparing.md",
        "## `ordeval diff` and the recorded reference",
    ): "test_comparing_doc.py::test_the_comparing_commands_run_as_written",
}


def bash_blocks():
    """(document, heading, commands) of every ```bash block of the README and docs/."""
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"```bash\n(.*?)```", text, re.S):
            heading = re.findall(r"^#+ .*", text[: match.start()], re.M)[-1]
            commands = [line.split("  #")[0].strip() for line in match.group(1).splitlines()]
            yield path.relative_to(REPO).as_posix(), heading, [command for command in commands if command]


def test_every_documented_command_is_run_by_a_test_or_by_ci():
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    tests = {path.name for path in (REPO / "tests" / "workflow").glob("test_*.py")}
    missing = []
    for document, heading, commands in bash_blocks():
        runner = RUN_BY.get((document, heading))
        if runner is not None:
            test_file, test_name = runner.split("::")
            assert test_file in tests, runner
            assert f"def {test_name}(" in (REPO / "tests" / "workflow" / test_file).read_text(encoding="utf-8"), runner
            continue
        for command in commands:  # as written, or with options CI adds at the end (pytest's -p no:cacheprovider)
            if not any(line == command or line.startswith(command + " ") for line in ci):
                missing.append(f"{document}, {heading}: {command}")
    assert not missing, "commands that no test and no CI step runs:\n" + "\n".join(missing)


def test_the_readme_fits_a_screen_or_two():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    for link in re.findall(r"\]\((docs/[^)]+)\)", "\n".join(lines)):
        assert (REPO / link).is_file(), link
