"""docs/data.md, generated from the registry of the public real data: ``python -m ordeval.data.docs > docs/data.md``
(a test checks that the committed file is current)."""

from __future__ import annotations

from urllib.parse import quote

from ordeval.data.registry import DEFAULT_FOLDER, URL_VARIABLE, DataFile, Registry, load

_COMMANDS = "\n".join(
    f"| {command} | {what} |"
    for command, what in [
        (
            "`ordeval fetch`",
            f"downloads every registered file missing from `{DEFAULT_FOLDER}/` (or changed there) from "
            "`<host>/<owner>/<repo>/<commit>/<path>`, checks it and writes it atomically; files present and verified "
            "are left alone; one line per data set at the end",
        ),
        (
            "`ordeval fetch --from DIR`",
            "the same, copied from a local copy laid out as the data folder (a USB stick, an institution's copy, a "
            f"colleague's `{DEFAULT_FOLDER}/`), with the same checks",
        ),
        (
            f"`ordeval fetch --url BASE` (or `{URL_VARIABLE}=BASE`)",
            "downloads from a mirror laid out as `BASE/<owner>/<repo>/<commit>/<path>`, as the default host is",
        ),
        (
            "`ordeval fetch --check`",
            "verifies the data folder, downloads nothing: one line per missing or changed file, exit status 1 if any",
        ),
        ("`ordeval fetch --to DIR`", "another data folder; run the configurations with `--config data_root=DIR`"),
    ]
)

INTRO = f"""# The public real data

<!-- Generated from src/ordeval/data/registry.yaml by `python -m ordeval.data.docs > docs/data.md`; do not edit. -->

The replication (`config/replication.yaml`) and the paper presets (`config/papers/`) read public files of three
shared tasks: the official gold of SemEval-2016 Task 4 (subtasks C and E) with every team's official test run,
the SemEval-2017 Task 4 English test gold, and the NTCIR-14 STC-3 Dialogue Quality test annotations. Each comes
from a public git repository at a fixed commit. ordeval does not redistribute them: `ordeval fetch` downloads
each from its origin into `{DEFAULT_FOLDER}/` (git-ignored), where the configurations read them, and checks its
size and SHA-256. They remain their authors' work under the terms below: cite the publication of each data set
you use (and ordeval's `CITATION.cff` for the software).

| command | what it does |
|---|---|
{_COMMANDS}

A replication or preset started without its files stops before any job with one line naming the missing files and
the command that fetches them; a registered file whose bytes differ from the registered ones (changed by hand,
damaged) is refused before any job, with its size or SHA-256 and the registered one (`ordeval fetch` restores
it). Other files in the data folder, under other names, are read as any configured file is.
"""

NOT_PUBLIC = """## What is not public, and simulated instead

- The participants' runs of SemEval-2017 Task 4 (subtasks C and E) and of NTCIR-14 STC-3 Dialogue Quality:
  simulated runs fill those data sets up to their official number of runs (the organisers' baselines are
  computed from the real gold). Every output marks each number `real`, `partly synthetic` or `synthetic`.
- NTCIR-15 DialEval-1 Dialogue Quality: its data are for registered participants only, so DialEval1-DQ-A/E/S
  are simulated altogether.
- The published numbers that ordeval compares its results with (`src/ordeval/published/published.tsv`) are
  transcribed from the papers' tables, cited by author, venue and table; they are facts, not data files.
"""


def _origin(entry: DataFile, label: str) -> str:
    link = f"https://github.com/{entry.repo}/blob/{entry.commit}/{quote(entry.path, safe='/')}"
    return f"{label}: [`{entry.path}`]({link})"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown(registry: Registry | None = None) -> str:
    """docs/data.md."""
    registry = registry or load()
    total = sum(entry.size for entry in registry.files)
    lines = [
        INTRO,
        f"{len(registry.files)} files, {total / 1e6:.1f} MB, in {len(registry.datasets)} data sets; default host "
        f"{registry.host}.",
        "",
    ]
    for name, dataset in registry.datasets.items():
        files = registry.of(name)
        licences = list(dict.fromkeys(entry.licence for entry in files))
        origins = list(dict.fromkeys((entry.repo, entry.commit) for entry in files))
        labels = {origin: chr(ord("A") + index) for index, origin in enumerate(origins)}
        lines += [
            f"## {name}: {dataset.title}",
            "",
            f"**Source.** {dataset.reference}. {dataset.about}",
            "",
            f"**Licence and terms.** {dataset.terms}",
            "",
            *(f"- [{number}] {_cell(text)}" for number, text in enumerate(licences, 1)),
            "",
            "**Origins** (public repositories, at the commit the files are read at):",
            "",
            *(
                f"- {labels[repo, commit]}: [{repo}](https://github.com/{repo}) at commit `{commit}`"
                for repo, commit in origins
            ),
            "",
            f"{len(files)} files, {sum(entry.size for entry in files) / 1e6:.1f} MB, under `{DEFAULT_FOLDER}/`:",
            "",
            "| file | used for | origin: path there | bytes | SHA-256 | licence |",
            "|---|---|---|---|---|---|",
        ]
        for entry in files:
            cells = [
                f"`{entry.place}`",
                _cell(entry.use),
                _origin(entry, labels[entry.repo, entry.commit]),
                str(entry.size),
                f"`{entry.sha256}`",
                f"[{licences.index(entry.licence) + 1}]",
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines.append(NOT_PUBLIC)
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
