"""The compiled report measured as a reader sees it (used by tests/workflow/test_report_print.py and .ci/run, and
runnable on any report: ``python tests/pdf_pages.py --check --max-pages 90 results/synthetic/report/ordeval.pdf``).

Everything is read from the PDF with poppler's tools: each page's words and their boxes (``pdftotext -bbox``, in
the page's view, turned for a landscape page), where each section starts (``pdfinfo -dests``: hyperref's
destinations ``section.N``, ``appendix.A``, ``section*.N`` for the contents and the lists) and the entries of the
lists of tables and figures (``pdftotext -layout``)."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The report's margins (``geometry``, margin=2cm), in PDF points.
MARGIN = 2 / 2.54 * 72
#: A page under this share of its text block is "under a third full".
THIRD = 1 / 3


@dataclass
class Page:
    number: int
    width: float  # in the page's view (a landscape page turned)
    height: float
    words: list[tuple[float, float, float, float, str]]  # x0, y0, x1, y1 (from the top), text

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def body(self) -> list[tuple[float, float, float, float, str]]:
        """The words inside the text block (not the page number, which is in the margin)."""
        top, bottom = MARGIN - 2, self.height - MARGIN + 2
        left, right = MARGIN - 2, self.width - MARGIN + 2
        return [w for w in self.words if w[1] >= top and w[3] <= bottom and w[0] >= left and w[2] <= right]

    def fill(self) -> float:
        """How far down the text block the page's lowest word reaches (0 empty, 1 full)."""
        body = self.body()
        if not body:
            return 0.0
        return (max(w[3] for w in body) - MARGIN) / (self.height - 2 * MARGIN)

    def text(self) -> str:
        return " ".join(w[4] for w in self.words)


def pages(pdf: str | Path) -> list[Page]:
    """Every page with its words, in the page's view (``pdftotext -bbox`` turns a rotated page)."""
    rotations = {
        int(number): int(rotation)
        for number, rotation in re.findall(
            r"Page\s+(\d+)\s+rot:\s+(\d+)",
            subprocess.run(
                ["pdfinfo", "-f", "1", "-l", "100000", str(pdf)], capture_output=True, text=True, check=True
            ).stdout,
        )
    }
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    found = []
    for number, (width, height, body) in enumerate(
        re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', xml, re.S), start=1
    ):
        width, height = float(width), float(height)
        if rotations.get(number, 0) % 180:
            width, height = height, width
        words = [
            (float(a), float(b), float(c), float(d), html.unescape(text))
            for a, b, c, d, text in re.findall(
                r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>', body
            )
        ]
        found.append(Page(number, width, height, words))
    return found


def section_starts(pdf: str | Path) -> dict[int, str]:
    """``{page: destination}`` where a section (or the contents, a list, an appendix section) starts."""
    dests = subprocess.run(["pdfinfo", "-dests", str(pdf)], capture_output=True, text=True, check=True).stdout
    starts: dict[int, str] = {}
    for page, name in re.findall(r'^\s*(\d+)\s+\[[^\]]*\]\s+"((?:section|appendix)[^."]*\.[^".]+)"', dests, re.M):
        starts.setdefault(int(page), name)
    return starts


def sparse_pages(pdf: str | Path, least: float = THIRD) -> list[tuple[int, float]]:
    """``(page, fill)`` of every page under ``least`` full that is not the last page of a section (the page
    before a section starts) nor the last page."""
    found = pages(pdf)
    starts = section_starts(pdf)
    last = {number - 1 for number in starts} | {len(found)}
    return [(page.number, round(page.fill(), 3)) for page in found if page.fill() < least and page.number not in last]


ENTRY = re.compile(r"^\s*(\d+)\s{2,}(\S.*)$")
LEADER = re.compile(r"^(.*?)[\s.]*\s(\d+)$")  # on one line: the text, the dot leader, the page


def list_entries(pdf: str | Path) -> dict[str, list[str]]:
    """``{"tables": [...], "figures": [...]}``: the entries of the lists of tables and figures as printed (an
    entry's lines joined, without its dot leader and page number)."""
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    entries: dict[str, list[str]] = {"tables": [], "figures": []}
    current, pending = None, ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped in ("List of Tables", "List of Figures"):
            current, pending = ("tables" if "Tables" in stripped else "figures"), ""
            continue
        if current is None or not stripped or re.fullmatch(r"\d+", stripped):  # a blank line, a page number
            continue
        match = ENTRY.match(line)
        if not pending and match is None:
            if entries[current]:
                current = None  # the list ended
            continue
        part = match.group(2) if (match and not pending) else stripped
        leader = LEADER.match(part) if ". ." in part else None
        if leader:
            entries[current].append(f"{pending} {leader.group(1)}".strip())
            pending = ""
        else:
            pending = f"{pending} {part}".strip()
    return entries


def duplicates(entries: list[str]) -> list[str]:
    """The entries printed more than once."""
    seen: dict[str, int] = {}
    for entry in entries:
        seen[entry] = seen.get(entry, 0) + 1
    return [entry for entry, count in seen.items() if count > 1]


#: A file name of ours as a reader would see it in the text: a name with one of the results' extensions.
FILE_NAME = re.compile(r"[\w<>/-]+\.(?:tex|csv|tsv|html|npz|json|yaml|rst|log)\b")


def file_names(pdf: str | Path) -> list[tuple[int, str]]:
    """``(page, name)`` of every file name printed in the PDF's text (captions, notes, figure texts)."""
    return [(page.number, name) for page in pages(pdf) for name in FILE_NAME.findall(page.text())]


def cut(entry: str) -> bool:
    """Whether a list entry was cut short: it ends at an abbreviation ("Fieller et al") or with "..."."""
    return bool(re.search(r"(\bet al\.?|\be\.g\.?|\bi\.e\.?|\.\.\.|\u2026)$", entry.strip()))


def summary(pdf: str | Path) -> dict:
    found = pages(pdf)
    entries = list_entries(pdf)
    return {
        "pages": len(found),
        "landscape pages": sum(page.landscape for page in found),
        "table entries": len(entries["tables"]),
        "figure entries": len(entries["figures"]),
        "duplicate entries": duplicates(entries["tables"]) + duplicates(entries["figures"]),
        "pages under a third full": sparse_pages(pdf),
        "file names": file_names(pdf),
    }


def problems(pdf: str | Path, max_pages: int | None = None) -> list[str]:
    """What a reader would object to in the report, one line each ([] when nothing): more than ``max_pages`` pages,
    an entry of the lists printed twice, a page under a third full that ends no section, a file name in the text."""
    found = summary(pdf)
    lines = []
    if max_pages is not None and found["pages"] > max_pages:
        lines.append(f"{found['pages']} pages, more than {max_pages}")
    lines += [f"printed twice in the lists: {entry}" for entry in found["duplicate entries"]]
    entries = list_entries(pdf)
    lines += [f"cut in the lists: {entry}" for entry in entries["tables"] + entries["figures"] if cut(entry)]
    lines += [f"page {page} is {fill:.0%} full" for page, fill in found["pages under a third full"]]
    lines += [f"page {page} names the file {name}" for page, name in found["file names"]]
    return lines


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdf", nargs="+")
    parser.add_argument("--max-pages", type=int, help="exit 1 (with the problems) if a PDF has more pages")
    parser.add_argument("--check", action="store_true", help="exit 1 if a PDF has any of the problems")
    arguments = parser.parse_args()
    failed = False
    for path in arguments.pdf:
        print(path)
        for key, value in summary(path).items():
            shown = len(value) if key in ("duplicate entries", "file names") else value
            print(f"  {key}: {shown}")
        if arguments.check or arguments.max_pages is not None:
            found = problems(path, arguments.max_pages)
            for line in found:
                print(f"{path}: {line}", file=sys.stderr)
            failed = failed or bool(found)
    sys.exit(1 if failed else 0)
