"""The captions of both reports, and the first page of the HTML report.

Every output either report shows has one caption, a text file beside the rules (``workflow/report/<stage>/
<item>.rst``: reStructuredText, a title and a paragraph, with Jinja expressions on the job's
``snakemake.wildcards`` and ``snakemake.config``), which Snakemake's HTML report renders beside the output and
:func:`render_caption` reads for the PDF: the same words in both.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace


def rst_text(text: str) -> str:
    """Plain text as reStructuredText (inline markup characters escaped, one paragraph)."""
    for character in "\\*`_|":
        text = text.replace(character, "\\" + character)
    return " ".join(text.split()) + "\n"


@dataclass(frozen=True)
class Caption:
    """A caption as plain text: its title (the lists of tables and figures, the HTML report's heading) and its
    text."""

    title: str
    text: str


def render_caption(path: str | Path, wildcards: Mapping[str, str], config: Mapping) -> Caption:
    """The caption file at ``path`` (``workflow/report/<stage>/<item>.rst``: a title, its underline, then the text)
    rendered as Snakemake's HTML report renders it -- Jinja on ``snakemake.wildcards`` and ``snakemake.config``
    first -- and read as plain text. A caption that names a value the job does not have is an error here (the
    HTML report would show nothing in its place)."""
    from jinja2 import Environment, StrictUndefined

    environment = Environment(trim_blocks=True, lstrip_blocks=True, undefined=StrictUndefined)
    job = SimpleNamespace(wildcards=SimpleNamespace(**wildcards), config=config)
    lines = environment.from_string(Path(path).read_text(encoding="utf-8")).render(snakemake=job).splitlines()
    lines = [line for line in lines if line.strip()]
    if len(lines) < 2 or set(lines[1].strip()) not in ({"="}, {"-"}):
        raise ValueError(f"{path}: a caption starts with its title, underlined with = or -")
    text = " ".join(" ".join(lines[2:]).split())
    for markup, plain in (("``", ""), ("\\", "")):
        text = text.replace(markup, plain)
    return Caption(" ".join(lines[0].split()), text)


def caption_label(path: str | Path, config: Mapping) -> str:
    """The title of the caption file at ``path``, as the label of its output in the HTML report's lists: Jinja on
    ``snakemake.config`` rendered, each ``snakemake.wildcards.<name>`` left as ``{<name>}`` for Snakemake to fill
    per file (as a ``report()`` label takes them)."""
    import re

    from jinja2 import Environment, StrictUndefined

    title = Path(path).read_text(encoding="utf-8").split("\n", 1)[0]
    title = re.sub(r"\{\{\s*snakemake\.wildcards\.(\w+)\s*\}\}", r"{% raw %}{\1}{% endraw %}", title)
    job = SimpleNamespace(config=config)
    return " ".join(Environment(undefined=StrictUndefined).from_string(title).render(snakemake=job).split())


#: What ordeval is, the first paragraph of the HTML report.
REPORT_ABOUT = (
    "ordeval meta-evaluates evaluation measures for ordinal classification (OC: one gold class per item, items "
    "grouped into topics) and ordinal quantification (OQ: a gold distribution per topic): it scores every run of "
    "each data set per topic with the measures of the configuration and studies how the measures behave -- "
    "ranking agreement (Kendall's τ with CIs), ranking consistency over random topic splits, discriminative "
    "power, significance overlap and contradictions under the randomised Tukey HSD, Popularity vs Uniform, "
    "leaderboards with significance groups, and the topics a test collection needs."
)


def origin_paragraph(origins: Mapping[str, str]) -> str:
    """What is real and what is simulated in this configuration, in words (one sentence or two)."""
    kinds = {origin: [name for name, value in origins.items() if value == origin] for origin in set(origins.values())}
    if set(kinds) == {"synthetic"}:
        return (
            "Every data set of this configuration is synthetic: simulated gold and simulated runs, with the "
            "shapes of the real ones; its numbers describe the simulation, not the official evaluations."
        )
    if set(kinds) == {"real"}:
        return (
            "Every data set of this configuration is real: official gold, official runs and baselines computed "
            "from the gold."
        )
    parts = []
    for origin, text in (
        ("real", "real (official gold and runs)"),
        ("partly synthetic", "partly synthetic (real gold, some runs simulated)"),
        ("synthetic", "synthetic (simulated gold and runs)"),
    ):
        if kinds.get(origin):
            parts.append(f"{text}: {', '.join(kinds[origin])}")
    return "Data sets " + "; ".join(parts) + "."


#: The first page's layout (Snakemake's report centres its main view and puts the rule graph beside the description,
#: which leaves the top of a long first page out of reach): the description and its "Start here" links across the
#: top, the rule graph under them.
INTRO_STYLE = (
    "<style>div.grow.flex:has(> div.grow.flex > #rulegraph){align-items:flex-start;justify-content:flex-start}"
    "div.grow.flex:has(> #rulegraph){flex-direction:column}div.grow.flex:has(> #rulegraph) .prose{max-width:64rem}"
    "</style>"
)

#: How the report's main view shows a result, by the result's file type (Snakemake's report: ``app.setView``).
VIEWS = {".html": "html", ".png": "img", ".svg": "img", ".pdf": "pdf"}


def view_link(path: str, text: str, ident: str = "") -> str:
    """An HTML link that opens the report's result ``path`` (its key in the report) in the main view: one click."""
    key = path.replace("\\", "\\\\").replace("'", "\\'")
    view = VIEWS[Path(path).suffix]
    target = f' id="{ident}"' if ident else ""
    return (
        f'<a{target} href="#" onclick="app.setView({{content: \'{view}\', contentPath: '
        f"results['{key}'].data_uri, resultPath: '{key}'}}); return false;\">{html.escape(text)}</a>"
    )


def report_intro(
    name: str,
    seed: int,
    origins: Mapping[str, str],
    counts: Mapping[str, int] | None = None,
    page: str = "",
    start: Sequence[tuple[str, str]] = (),
) -> str:
    """The first page of Snakemake's HTML report (reStructuredText, rendered through Jinja), what to look at first
    first: with a replication (``counts`` per verdict), the counts and a link that opens the published-versus-
    reproduced page (``page``: its path, as the report keys its results) in the main view; links to the first
    results to look at (``start``: (what it shows, its path)), each one click away; then what ordeval is, the
    configuration and where its data come from."""
    about = [
        rst_text(REPORT_ABOUT),
        rst_text(
            f"Configuration '{name}', seed {seed}. {origin_paragraph(origins)} "
            "Each table's data_origin column, each caption and a note on each figure say the same. Every result is "
            "under Results, by analysis and data set."
        ),
        "",
    ]
    links = []
    if counts:  # a replicator's first question first
        links.append(
            view_link(page, "Every published number beside the reproduced one", "replication-page")
            + f" ({counts['numbers']} published numbers, the counts per verdict below)"
        )
    links += [view_link(path, text) + (" (figure)" if Path(path).suffix == ".png" else "") for text, path in start]
    lines = [rst_text(f"ordeval: configuration '{name}'. Start here:"), ""]
    items = "".join(f"<li>{link}</li>" for link in links)
    lines += ["{% raw %}", "", ".. raw:: html", "", f"   {INTRO_STYLE}<ul>{items}</ul>", "", "{% endraw %}", ""]
    if counts:
        from ordeval.results.replication import VERDICTS

        lines += [
            rst_text(f"Published versus reproduced: {counts['numbers']} published numbers."),
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "",
            "   * - verdict",
            "     - numbers",
        ]
        for verdict in VERDICTS:
            lines += [f"   * - {verdict}", f"     - {counts.get(verdict, 0)}"]
        lines.append("")
    return "\n".join(lines + about)
