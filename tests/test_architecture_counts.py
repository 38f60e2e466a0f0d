"""docs/ARCHITECTURE.md counts the repository's files per extension as they are (``git ls-files``)."""

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def extension(path: str) -> str:
    """What follows the last dot of the file name (``.gitignore``: ``gitignore``), "" without one."""
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[1] if "." in name else ""


def repository_counts() -> Counter:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return Counter(extension(path) for path in listed.split() if not path.startswith("reference/"))


def test_architecture_counts_files_per_extension():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    sentence = re.search(r"Files in the repository .*?: (.*?)\.\n", text, re.S)
    assert sentence, "docs/ARCHITECTURE.md: the sentence counting files per extension is missing"
    stated = Counter()
    for count, name in re.findall(r"(\d+) (`\.[\w]+`|without extension)", sentence.group(1)):
        stated["" if name == "without extension" else name.strip("`.")] = int(count)
    assert stated == repository_counts()


def sentence(counts: Counter) -> str:
    """The counts as docs/ARCHITECTURE.md words them (``python tests/test_architecture_counts.py`` prints it)."""
    named = sorted((item for item in counts.items() if item[0]), key=lambda item: (-item[1], item[0]))
    return ", ".join([f"{count} `.{name}`" for name, count in named] + [f"{counts['']} without extension"])


if __name__ == "__main__":
    print(sentence(repository_counts()))
