"""The package's folders show its architecture (tests/structure.py): no import circle, no import running back up
a layer, nothing at the package root but the API, and docs/ARCHITECTURE.md's figures generated, not typed."""

from __future__ import annotations

from conftest import REPO
from structure import BEGIN, END, LAYERS, figures, layer, markdown, modules


def test_no_import_circle_and_no_arrow_back_up_a_layer():
    result = figures()
    assert result["circles"] == []
    assert result["back_up"] == []


def test_every_module_is_in_a_layer_and_only_the_api_at_the_root():
    found = modules()
    assert sorted(name for name in found if layer(name) is None) == ["ordeval", "ordeval.__main__"]
    assert {name.split(".")[1] for name in found if name.count(".")} <= {*LAYERS, "__main__"}


def test_architecture_md_holds_the_generated_structure():
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text, "docs/ARCHITECTURE.md: the generated part is missing"
    found = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert found == markdown(), "regenerate it: python tests/structure.py --markdown"


#: The top level of the repository: the layout of the brief (the snakemake-workflows models' folders beside the
#: package, its documents and benchmarks), the project's metadata and the CI's files. A file left there by
#: accident (a log, a scratch copy) fails here.
TOP_LEVEL = {
    ".ci", ".gitattributes", ".github", ".gitignore", "CITATION.cff", "LICENSE", "README.md", "Snakefile",
    "benchmarks", "config", "docs", "environment.yml", "examples", "profiles", "pyproject.toml", "reference",
    "requirements.txt", "resources", "results", "ruff.toml", "scripts", "src", "tests", "workflow",
}  # fmt: skip


def test_the_top_level_holds_the_layout_and_nothing_else():
    import subprocess

    import pytest

    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: which files are the repository's is not known")
    found = {line.split("/")[0] for line in listed.stdout.splitlines()}
    assert found <= TOP_LEVEL, f"unexpected at the top level: {sorted(found - TOP_LEVEL)}"
