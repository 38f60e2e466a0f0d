r"""How the LaTeX report sets its items on the page: the preamble with the layout macros, and the source of each
item (a table fragment, a long table, a figure, or two of them side by side).

The aim is pages that read at a glance and are full: no page is left mostly empty before the next item except at
the end of a section (``tests/workflow/test_report_print.py`` measures each page's fill in the PDF).

- An item is a unit: its caption and its table or figure in one box, kept with the heading before it (never a
  heading alone at the foot of a page). A unit that does not fit on what is left of the page starts the next.
- A section starts on the page where the previous one ends when its heading and first item fit there.
- Tables are set in \small, shrunk to the text width where that keeps them readable; one much wider goes on a
  landscape page. A wide table does not cut the page it comes on short: the items after it fill that page, and the
  wide tables waiting go on landscape pages right after it (as LaTeX's floats would), together, before the section
  ends. A wide table that opens its section goes on a landscape page at once, with its heading; tables that fit on
  that landscape page after it stay there.
- Two consecutive tables (or figures) of one subsection, each at most about half the text width, are set side by
  side, each with its caption.
- Tables of more than :data:`LONG_ROWS` rows are longtables that break across pages, their header repeated; so are
  narrow listings (at most :data:`LISTING_COLUMNS` columns) of more than :data:`LISTING_ROWS` rows, which would
  otherwise leave a third of a page empty before them (:func:`breaks_across_pages`).
- Figures are included at the size they are drawn (:data:`ordeval.reports.figures.PRINT_WIDTH`), the log records
  each printed width.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ordeval.reports.latex import align_columns

#: Tables with more body rows than this become longtables.
LONG_ROWS = 40
#: Narrow tables (at most LISTING_COLUMNS columns, one booktabs tabular) with more body rows than this too.
LISTING_ROWS = 30
LISTING_COLUMNS = 6

_BOOKTABS = re.compile(
    r"\\begin\{tabular\}\{([^}]*)\}\s*\\toprule\s*(.*?)\\midrule\s*(.*?)\\bottomrule(.*?)\\end\{tabular\}", re.S
)


def body_rows(fragment: str) -> int:
    """A table fragment's body rows: between the first midrule and the bottom rule (not its note)."""
    return fragment.split(r"\midrule", 1)[-1].split(r"\bottomrule", 1)[0].count(r"\\")


def breaks_across_pages(fragment: str) -> bool:
    """Whether a table fragment is set as a longtable (:func:`long_table`): more than :data:`LONG_ROWS` body rows,
    or a narrow listing of more than :data:`LISTING_ROWS`."""
    rows = body_rows(fragment)
    if rows > LONG_ROWS:
        return True
    match = _BOOKTABS.search(fragment)
    return (
        rows > LISTING_ROWS
        and match is not None
        and fragment.count(r"\begin{tabular}") == 1
        and len(align_columns(match.group(1))) <= LISTING_COLUMNS
    )


PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[table]{xcolor}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{adjustbox}
\usepackage{amssymb}
\usepackage{pdflscape}
\usepackage{longtable}
\usepackage{needspace}
\usepackage{seqsplit}
\usepackage[font=small,labelfont=bf,hypcap=false]{caption}
\usepackage[hidelinks]{hyperref}
\setlength{\emergencystretch}{3em}
\setlength{\LTcapwidth}{\textwidth}
\setcounter{tocdepth}{2}
% The layout (ordeval.reports.latex.layout): every item is a unit, its caption and its table or figure in one box,
% kept with the heading before it. Tables are set in \small; one more than 1.25 times as wide as the text, and
% more than 1.15 times in 8 pt, goes on a landscape page: at once when it opens its section, else after the page it
% comes on (the items after it fill that page), with the other wide tables waiting.
\makeatletter
\newsavebox\ordevalbox
\newsavebox\ordevalboxb
\newbox\ordevalunit
\newdimen\ordevalwidth
\newdimen\ordevalneed
\AtBeginDocument{\setlength\ordevalwidth{\textwidth}}
\newif\ifordevallandscape
\newif\ifordevalfits
\newcount\ordevalwaiting
\newtoks\ordevallater
% \ordevalset{box}{content}: a global \sbox (a landscape page is a group: a box set there is used after it)
\newcommand\ordevalset[2]{\global\setbox#1\hbox{\color@setgroup#2\color@endgroup}}
\newcommand\ordevalportrait{\ifordevallandscape\end{landscape}\global\ordevallandscapefalse\fi}
\newcommand\ordevalturn{\ifordevallandscape\else\begin{landscape}\global\ordevallandscapetrue\fi}
% \ordevalroom{length}: \ifordevalfits is true when that much fits on what is left of this page
\newcommand\ordevalroom[1]{\par\penalty-100\relax
  \dimen@\pagegoal\advance\dimen@-\pagetotal
  \ifdim#1>\dimen@\global\ordevalfitsfalse\else\global\ordevalfitstrue\fi}
% \ordevalflush: the wide tables waiting, on landscape pages, now
\newcommand\ordevalflush{%
  \ifnum\ordevalwaiting>0
    \ordevalturn
    \global\ordevalwaiting=0
    \begingroup\toks@=\ordevallater\global\ordevallater{}\the\toks@\endgroup
  \fi}
% \ordevaldefer{call}: a wide table set after this page
\newcommand\ordevaldefer[1]{\global\ordevallater\expandafter{\the\ordevallater#1}\global\advance\ordevalwaiting1\relax}
% \ordevalsectionend: what waits goes before the next section
\newcommand\ordevalsectionend{\ordevalflush\ordevalportrait}
% \ordevalmeasure: \ordevalbuild (what an item defines, globally: a landscape page is a group; it sets \ordevalunit,
% captions and all) run to measure the unit: its table and figure numbers are given back
\newcount\ordevalsavedtable
\newcount\ordevalsavedfigure
\newcommand\ordevalmeasure{%
  \global\ordevalsavedtable=\value{table}\global\ordevalsavedfigure=\value{figure}%
  \ordevalbuild
  \setcounter{table}{\ordevalsavedtable}\setcounter{figure}{\ordevalsavedfigure}%
  \ordevalneed=\dimexpr\ht\ordevalunit+\dp\ordevalunit\relax}
% \ordevalput{heading}: the heading (or nothing), then the unit that \ordevalbuild sets, kept together; when they do
% not fit on what is left of this page, the wide tables waiting go first, on landscape pages after it
\newcommand\ordevalput[1]{%
  \ordevalmeasure
  \if\relax\detokenize{#1}\relax\else\advance\ordevalneed4\baselineskip\fi
  \ordevalroom\ordevalneed
  \ifordevalfits\else
    \ifordevallandscape\newpage\else\ifnum\ordevalwaiting>0
      \let\ordevalmine\ordevalbuild\ordevalflush\ordevalportrait\global\let\ordevalbuild\ordevalmine
    \else\newpage\fi\fi
  \fi
  \ordevalbuild
  #1\par\nobreak\box\ordevalunit\par\bigskip}
% \ordevalfitshere: in landscape, \ordevalportrait unless the unit that \ordevalbuild sets fits on this page
\newcommand\ordevalfitshere{%
  \ifordevallandscape\ordevalmeasure\ordevalroom\ordevalneed\ifordevalfits\else\ordevalportrait\fi\fi}
% \ordevaltableunit{size}{short caption}{caption}{fragment}: \ordevalunit, at the line width
\newcommand\ordevaltableunit[4]{%
  \ordevalset\ordevalbox{#1\input{#4}}%
  \setbox\ordevalunit\vbox{\hsize\linewidth\centering\captionof{table}[#2]{#3}%
    \adjustbox{max width=\linewidth}{\usebox\ordevalbox}\par}}
\newcommand\ordevalsmaller{\footnotesize\setlength\tabcolsep{4pt}}
% \ordevalwide{heading}{short caption}{caption}{fragment}: on the landscape page (turned already)
\newcommand\ordevalwide[4]{\gdef\ordevalbuild{\ordevaltableunit\small{#2}{#3}{#4}}\ordevalput{#1}}
% \ordevaltable{heading}{short caption}{caption}{fragment}{may wait}: may wait = 1 when the item, heading and all,
% may go after this page (no heading, or the heading of a subsection that holds only it)
\newcommand\ordevaltable[5]{%
  \ordevalset\ordevalbox{\small\input{#4}}%
  \ifdim\wd\ordevalbox>1.25\ordevalwidth\relax
    \ordevalset\ordevalbox{\ordevalsmaller\input{#4}}%  8 pt, if it fits with little shrinking
    \ifdim\wd\ordevalbox>1.15\ordevalwidth\relax
      \ifordevallandscape\ordevalwide{#1}{#2}{#3}{#4}%
      \else\ifnum#5=1 \ordevaldefer{\ordevalwide{#1}{#2}{#3}{#4}}%
      \else\ordevalflush\ordevalturn\ordevalwide{#1}{#2}{#3}{#4}\fi\fi
    \else\ordevalnarrow\ordevalsmaller{#1}{#2}{#3}{#4}\fi
  \else\ordevalnarrow\small{#1}{#2}{#3}{#4}\fi}
% a table that fits the portrait text width in that size: on the landscape page where it fits there
\newcommand\ordevalnarrow[5]{%
  \gdef\ordevalbuild{\ordevaltableunit#1{#3}{#4}{#5}}\ordevalfitshere\ordevalput{#2}}
% \ordevaltables{heading}{short}{caption}{fragment}{short}{caption}{fragment}: two tables side by side when each is
% at most 0.6 times the text width in \small (shrunk to half of it: at least 7.5 pt), else one after the other
\newcommand\ordevaltables[7]{%
  \ordevalset\ordevalbox{\small\input{#4}}\ordevalset\ordevalboxb{\small\input{#7}}%
  \ifdim\wd\ordevalbox>0.6\ordevalwidth\ordevalpairno{#1}{#2}{#3}{#4}{#5}{#6}{#7}%
  \else\ifdim\wd\ordevalboxb>0.6\ordevalwidth\ordevalpairno{#1}{#2}{#3}{#4}{#5}{#6}{#7}%
  \else
    \gdef\ordevalbuild{\ordevalsidebyside{#2}{#3}{#4}{#5}{#6}{#7}}\ordevalfitshere\ordevalput{#1}%
  \fi\fi}
% \ordevalsidebyside{short}{caption}{fragment}{short}{caption}{fragment}: \ordevalunit, the two tables side by side
\newcommand\ordevalsidebyside[6]{%
  \ordevalset\ordevalbox{\small\input{#3}}\ordevalset\ordevalboxb{\small\input{#6}}%
  \setbox\ordevalunit\vbox{\hsize\linewidth\noindent
    \begin{minipage}[t]{0.485\linewidth}\centering\captionof{table}[#1]{#2}%
      \adjustbox{max width=\linewidth}{\usebox\ordevalbox}\par\end{minipage}\hfill
    \begin{minipage}[t]{0.485\linewidth}\centering\captionof{table}[#4]{#5}%
      \adjustbox{max width=\linewidth}{\usebox\ordevalboxb}\par\end{minipage}\par}}
% one after the other (the first may wait for the end of the page when it has no heading)
\newcommand\ordevalpairno[7]{%
  \if\relax\detokenize{#1}\relax\ordevaltable{}{#2}{#3}{#4}{1}\else\ordevaltable{#1}{#2}{#3}{#4}{0}\fi
  \ordevaltable{}{#5}{#6}{#7}{1}}
% \ordevalfigure{heading}{short caption}{caption}{figure}: at the size it is drawn (scaled down only if it would not
% fit); the log records the printed width of each.
\newcommand\ordevalgraphic[2]{% #1 box, #2 figure
  \ordevalset#1{\adjustbox{max width=\linewidth,max totalheight=0.86\textheight}{\includegraphics{#2}}}}
\newcommand\ordevalfigure[4]{%
  \ordevalportrait
  \gdef\ordevalbuild{%
    \ordevalgraphic\ordevalbox{#4}%
    \setbox\ordevalunit\vbox{\hsize\linewidth\centering\usebox\ordevalbox\par\captionof{figure}[#2]{#3}}}%
  \ordevalput{#1}%
  \typeout{ordeval figure: #4 printed \the\wd\ordevalbox}}
% \ordevalfigures{heading}{short}{caption}{figure}{short}{caption}{figure}: two figures drawn at most half the text
% width, side by side
\newcommand\ordevalfigures[7]{%
  \ordevalportrait
  \gdef\ordevalbuild{%
    \ordevalgraphic\ordevalbox{#4}\ordevalgraphic\ordevalboxb{#7}%
    \setbox\ordevalunit\vbox{\hsize\linewidth\noindent
      \begin{minipage}[t]{0.485\linewidth}\centering\vspace{0pt}\usebox\ordevalbox\par\captionof{figure}[#2]{#3}%
      \end{minipage}\hfill
      \begin{minipage}[t]{0.485\linewidth}\centering\vspace{0pt}\usebox\ordevalboxb\par\captionof{figure}[#5]{#6}%
      \end{minipage}\par}}%
  \ordevalput{#1}%
  \typeout{ordeval figure: #4 printed \the\wd\ordevalbox}%
  \typeout{ordeval figure: #7 printed \the\wd\ordevalboxb}}
\makeatother
"""


@dataclass(frozen=True)
class Placed:
    """One item as the layout sets it: its kind ("table", "long table", "figure"), the path the document names
    (relative to it), its short caption and caption (LaTeX already), and its figure's drawn width in inches."""

    kind: str
    path: str
    short: str
    caption: str
    width: float = 0.0


def item_source(item: Placed, heading: str = "", may_wait: bool = False, fragment: str = "") -> str:
    """The source of one item (``fragment``: a long table's text)."""
    if item.kind == "long table":
        return long_table(fragment, heading, item.short, item.caption)
    if item.kind == "table":
        return rf"\ordevaltable{{{heading}}}{{{item.short}}}{{{item.caption}}}{{{item.path}}}{{{int(may_wait)}}}"
    if item.kind == "figure":
        return rf"\ordevalfigure{{{heading}}}{{{item.short}}}{{{item.caption}}}{{{item.path}}}"
    raise ValueError(f"report item kind must be 'table' or 'figure', not {item.kind!r}")


def pair_source(first: Placed, second: Placed, heading: str = "") -> str:
    """The source of two items side by side (two tables, or two figures each at most half the text wide)."""
    command = r"\ordevaltables" if first.kind == "table" else r"\ordevalfigures"
    return (
        rf"{command}{{{heading}}}{{{first.short}}}{{{first.caption}}}{{{first.path}}}"
        rf"{{{second.short}}}{{{second.caption}}}{{{second.path}}}"
    )


def pairable(first: Placed, second: Placed, half_width: float) -> bool:
    """Whether two consecutive items of one subsection may go side by side: two short tables (LaTeX sets them side
    by side only if each is narrow enough), or two figures each drawn at most ``half_width`` inches wide."""
    if first.kind == second.kind == "table":
        return True
    return first.kind == second.kind == "figure" and max(first.width, second.width) <= half_width


def rows_kept_together(body: str) -> str:
    """A long table's body rows (one a line, each ending ``\\\\``) with no page break allowed after the first row nor
    after the last but one (longtable's ``\\\\*``), so that no page holds a single row of the table alone (under
    its repeated header, or above "continued on the next page"). A body of fewer than four rows is left as it is."""
    lines = body.split("\n")
    rows = [index for index, line in enumerate(lines) if line.rstrip().endswith("\\\\")]
    if len(rows) >= 4:
        for index in (rows[0], rows[-2]):
            lines[index] = lines[index].rstrip() + "*"
    return "\n".join(lines)


def long_table(fragment: str, heading: str, short: str, caption: str) -> str:
    """A fragment's table as a longtable that breaks across pages, its header repeated on every page (with
    "continued"), in \\small, its note (the rows after its bottom rule) ending the last; ``heading`` kept with it."""
    match = _BOOKTABS.search(fragment)
    if match is None:
        raise ValueError("not a booktabs tabular fragment")
    align, header, body, note = (match.group(index).strip() for index in range(1, 5))
    columns = len(align_columns(align))
    return "\n".join(
        [
            r"\ordevalportrait",
            r"\Needspace*{12\baselineskip}",
            heading,
            r"\begingroup\small",
            rf"\begin{{longtable}}{{{align}}}",
            rf"\caption[{short}]{{{caption}}}\\",
            r"\toprule",
            header,
            r"\midrule",
            r"\endfirsthead",
            rf"\multicolumn{{{columns}}}{{l}}{{\footnotesize\itshape Table \thetable, continued}}\\",
            r"\toprule",
            header,
            r"\midrule",
            r"\endhead",
            rf"\midrule\multicolumn{{{columns}}}{{r}}{{\footnotesize\itshape continued on the next page}}\\",
            r"\endfoot",
            r"\bottomrule",
            *([note] if note else []),
            r"\endlastfoot",
            rows_kept_together(body),
            r"\end{longtable}",
            r"\endgroup",
            r"\bigskip",
        ]
    )
