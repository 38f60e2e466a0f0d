"""Figures: drawn with matplotlib's object API on the Agg backend (no pyplot, no GUI), saved as PDF
and PNG with a data-origin note, byte-reproducible.

Every string reaches matplotlib literally: math text is off (``text.parse_math``), so a run named
``$x$`` is drawn as ``$x$``; only measure names made by :func:`measure_text` (``F1^M`` drawn as F1 with a
superscript M) are typeset. Only the figure jobs import this package (matplotlib costs ~0.5 s).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
matplotlib.rcParams.update(
    {
        "text.parse_math": False,  # names are shown literally, never as math text
        "text.usetex": False,
        "pdf.fonttype": 42,  # TrueType, never Type 3
        "ps.fonttype": 42,
        "svg.hashsalt": "ordeval",
        "figure.max_open_warning": 0,
        "path.simplify": True,
    }
)

#: The size the figures are printed at in the LaTeX report, in inches: its text width (A4, 2 cm margins) and the
#: largest height a figure takes there. Every figure is drawn at most this size, so it is included unscaled and
#: its fonts print at their own size: text at least :data:`SMALL` points, names with a sub- or superscript
#: (drawn 0.7 times smaller) at :data:`NAME` points.
PRINT_WIDTH = (21.0 - 4.0) / 2.54
PRINT_HEIGHT = 8.4
#: Font sizes in points: the smallest text (notes, annotations, legends), axis text, measure names.
SMALL, TEXT, NAME = 7.0, 8.0, 10.0
matplotlib.rcParams.update(
    {
        "font.size": TEXT,
        "axes.titlesize": 9,
        "axes.labelsize": TEXT,
        "xtick.labelsize": TEXT,
        "ytick.labelsize": TEXT,
        "legend.fontsize": SMALL,
        "figure.titlesize": 10,
    }
)

#: The family the figures are drawn in (see :func:`_register_figure_font`), then matplotlib's defaults.
FIGURE_FONT = "DejaVu Sans ordeval"


def _register_figure_font() -> None:
    """Draw in DejaVu Sans (matplotlib's own font) without its OpenType layout tables (GSUB, GPOS, GDEF,
    MATH), under the family :data:`FIGURE_FONT`.

    Why: every PDF embeds a subset of the font it uses (TrueType, never Type 3), and fontTools spends
    most of that time (~0.2-0.5 s per PDF, a third of a simple figure's cost) subsetting the layout
    tables, which a PDF never uses (it places each glyph itself). Same outlines, metrics, hinting and
    ``kern`` table, so the same drawing (the PNGs of the default figures are pixel-identical). The font
    file is derived once (tables copied raw, no timestamp: the same bytes every time) into matplotlib's
    cache folder, named by the source font's size and modification time, written atomically and reused by
    every later process: no temporary folder is made, so none is left behind by a killed job. If that
    fails, the figures use DejaVu Sans itself.
    """
    from fontTools.ttLib import TTFont
    from matplotlib import font_manager

    source = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"), fallback_to_default=False)
    status = os.stat(source)
    path = Path(matplotlib.get_cachedir()) / f"DejaVuSans-ordeval-{status.st_size}-{status.st_mtime_ns}.ttf"
    if not path.is_file():

        def derive(temporary: str) -> None:
            with TTFont(source, lazy=True, recalcTimestamp=False) as font:  # closes the source file
                for tag in ("GSUB", "GPOS", "GDEF", "MATH"):
                    if tag in font:
                        del font[tag]
                for record in font["name"].names:
                    if record.nameID in (1, 4, 16):  # family, full name, typographic family
                        record.string = FIGURE_FONT
                    elif record.nameID == 6:  # PostScript name
                        record.string = "DejaVuSans-ordeval"
                font.save(temporary)  # not an output: a derived font in matplotlib's cache

        from ordeval.io.files import write_atomically

        write_atomically(path, derive)
    font_manager.fontManager.addfont(str(path))
    matplotlib.rcParams["font.family"] = [FIGURE_FONT, *matplotlib.rcParams["font.family"]]


try:
    _register_figure_font()
except (ImportError, OSError, ValueError, KeyError):  # matplotlib's DejaVu Sans as it is
    pass

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.backends.backend_pdf import FigureCanvasPdf  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ordeval.io.files import write_atomically  # noqa: E402
from ordeval.io.provenance import figure_note, origin_sentence  # noqa: E402

__all__ = [
    "Figure",
    "new_figure",
    "row_labels",
    "save_figure",
    "figure_names",
    "smallest_font",
    "legend_overlaps",
]

LOG = logging.getLogger(__name__)


#: Inches at the bottom of every figure kept for the data-origin note.
NOTE_MARGIN = 0.2


def new_figure(width: float, height: float, *, note_margin: float = NOTE_MARGIN) -> Figure:
    """A constrained-layout figure that leaves the bottom ``note_margin`` inch free for the
    data-origin note that :func:`save_figure` writes there."""
    figure = Figure(figsize=(width, height), layout="constrained")
    figure.set_layout_engine("constrained", h_pad=0.03, w_pad=0.03)
    margin = note_margin / height
    figure.get_layout_engine().set(rect=(0, margin, 1, 1 - margin))
    return figure


def bottom_legend(figure: Figure, handles, labels, *, ncol: int, fontsize: float = NAME):
    """One legend for the whole figure, centred at its foot just above the data-origin note's strip, its height
    kept out of the layout (the panels are laid out above it). Matplotlib's "outside" figure legends are laid out
    over the note's strip (at the bottom) or the figure's title (at the top): this one covers neither."""
    width, height = figure.get_size_inches()
    legend = figure.legend(
        handles, labels, fontsize=fontsize, ncol=ncol, loc="lower center", bbox_to_anchor=(0.5, NOTE_MARGIN / height)
    )
    figure._ordeval_bottom_legend = legend  # laid out again by save_figure, once the names are typeset
    _fit_bottom_legend(figure)
    return legend


def _fit_bottom_legend(figure: Figure) -> None:
    """The panels laid out above the figure's :func:`bottom_legend` (if it has one), as tall as it is drawn now
    (a measure name typeset with a subscript makes a legend row taller)."""
    legend = getattr(figure, "_ordeval_bottom_legend", None)
    engine = figure.get_layout_engine()
    if legend is None or engine is None:
        return
    height = figure.get_size_inches()[1]
    tall = legend.get_window_extent(FigureCanvasAgg(figure).get_renderer()).height / figure.dpi
    bottom = (NOTE_MARGIN + tall + 0.05) / height
    engine.set(rect=(0, bottom, 1, 1 - bottom))


def row_labels(axis, positions, labels, fontsize: float) -> None:
    """Label rows of ``axis`` at data heights ``positions`` as ``axis.set_yticks(positions, labels)`` would
    (a tick mark and a label left of the axis, with the tick size, width, pad and colours of the rcParams:
    the same pixels), but drawn as one marker line and plain texts: a Tick object per row (two lines, two
    texts, a grid line each) costs more to lay out and draw than the whole panel otherwise."""
    from matplotlib.lines import TICKLEFT
    from matplotlib.transforms import blended_transform_factory, offset_copy

    rc = matplotlib.rcParams
    axis.set_yticks([])
    edge = blended_transform_factory(axis.transAxes, axis.transData)  # x in axes units, y in data units
    axis.plot(
        np.zeros(len(positions)),
        positions,
        linestyle="none",
        marker=TICKLEFT,
        markersize=rc["ytick.major.size"],
        markeredgewidth=rc["ytick.major.width"],
        color=rc["ytick.color"],
        transform=edge,
        clip_on=False,
    )
    shift = -(rc["ytick.major.size"] + rc["ytick.major.pad"])
    left = offset_copy(edge, axis.figure, x=shift, y=0, units="points")
    color = rc["ytick.color"] if rc["ytick.labelcolor"] == "inherit" else rc["ytick.labelcolor"]
    for position, label in zip(positions, labels, strict=True):
        axis.text(0, position, label, transform=left, ha="right", va="center_baseline", fontsize=fontsize, color=color)


#: The measure names as math text that :func:`measure_text` made in this process: :func:`save_figure`
#: lets matplotlib parse the texts holding one of them, and only those.
_MATH_TEXTS: set[str] = set()


def measure_text(display: str) -> str:
    """A measure's display name with its subscript or superscript typeset (matplotlib math text): ``F1^M``
    as F1 with a superscript M, ``α_ORD`` as α with a subscript ORD, ``MAE^µ``; other names as they are."""
    import re

    found = re.fullmatch(r"([^_^$\\{}]+)([_^])([^_^$\\{}]+)", display)
    if not found:
        return display
    base, mark, script = found.groups()
    text = f"{base}${mark}{{\\mathrm{{{script}}}}}$"
    _MATH_TEXTS.add(text)
    return text


def _typeset_measure_names(figure: Figure) -> None:
    """Math text on for the texts that hold a name of :func:`measure_text` (everything else stays literal)."""
    if not _MATH_TEXTS:
        return
    from matplotlib.text import Text

    for text in figure.findobj(Text):
        content = text.get_text()
        if "$" in content and any(name in content for name in _MATH_TEXTS):
            text.set_parse_math(True)


def _wrap_title(figure: Figure) -> None:
    """The figure's title broken into lines that fit its width (a title of data set names can be long)."""
    import textwrap

    title = getattr(figure, "_suptitle", None)
    if title is None or not title.get_text():
        return
    characters = int(figure.get_size_inches()[0] * 72 / (0.6 * title.get_fontsize()))
    title.set_text("\n".join(textwrap.fill(line, characters) for line in title.get_text().split("\n")))


#: The grid the laid-out axes are snapped to (figure fractions): 2^-24, a 60-millionth of the figure.
_SNAP = 2.0**24


def _snap_positions(figure: Figure) -> None:
    """Every axes' laid-out position rounded to :data:`_SNAP` steps. Constrained layout solves its constraints
    with kiwisolver, whose maps are ordered by memory address: the same figure comes out with positions that
    differ in their last bit from one process to the next, and now and then that bit moves a coordinate's tenth
    decimal in the PDF (a figure's bytes then differ between two runs). Rounded, they are the same bits."""
    for axis in figure.get_axes():
        box = axis.get_position()
        snapped = [round(value * _SNAP) / _SNAP for value in (box.x0, box.y0, box.width, box.height)]
        axis.set_position(snapped, which="both")


def save_figure(figure: Figure, pdf_path: str | Path, png_path: str | Path, origins: Mapping[str, str]) -> list[str]:
    """Save ``figure`` as PDF and PNG with a data-origin note in its corner; returns what its legends cover
    (:func:`legend_overlaps`: [] when nothing), which the job's log says, a warning when not [].

    The data-origin sentence (:func:`~ordeval.io.provenance.origin_sentence`) is stored in the files' metadata
    (PDF Subject, PNG Description), where the LaTeX report's caption takes it from
    (:func:`ordeval.reports.latex.report.origin_note`); what the figure shows is said by its caption
    (``workflow/report/<stage>/<item>.rst``), what its data say by its title and labels. PDF metadata carry no
    date, so the same inputs give the same bytes.
    """
    note = figure.text(0.995, 0.005, figure_note(origins), ha="right", va="bottom", fontsize=SMALL, color="0.35")
    _wrap_title(figure)
    _typeset_measure_names(figure)
    caption = origin_sentence(origins)
    metadata = {
        ".pdf": {"metadata": {"CreationDate": None, "ModDate": None, "Subject": caption, "Creator": "ordeval"}},
        ".png": {"dpi": 150, "metadata": {"Description": caption, "Software": "ordeval"}},
    }
    # One layout for both formats, done once at the PNG's resolution (savefig would draw the figure once
    # without rendering to lay it out, for each format), then each canvas draws it once.
    figure.dpi = metadata[".png"]["dpi"]
    _fit_bottom_legend(figure)
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)
        _snap_positions(figure)
    figure.set_layout_engine("none")
    # zlib level 1: 40% less encoding time than the default 6 for 9% larger files (the 52 default PNGs)
    png = {"metadata": metadata[".png"]["metadata"], "pil_kwargs": {"compress_level": 1}}
    canvas = FigureCanvasAgg(figure)
    write_atomically(png_path, lambda temporary: canvas.print_png(temporary, **png))
    covered = legend_overlaps(figure, canvas.get_renderer(), note)
    legends = len(_legends(figure))
    if covered:
        LOG.warning("%s: %s", Path(pdf_path).as_posix(), "; ".join(covered))
    elif legends:
        LOG.info(
            "%s: %d legend(s), clear of the note, the other legends and the data", Path(pdf_path).as_posix(), legends
        )
    write_atomically(pdf_path, lambda temporary: FigureCanvasPdf(figure).print_pdf(temporary, **metadata[".pdf"]))
    return covered


def figure_names(measure_tables: str | Path | Sequence[str | Path]) -> dict[str, str]:
    """{measure: its display name as the figures draw it (:func:`measure_text`)} from one or several data sets'
    ``measures.tsv``."""
    from ordeval.tasks.stack import read_measure_tables

    table = read_measure_tables(measure_tables)
    return {measure: measure_text(display) for measure, display in zip(table["measure"], table["display"], strict=True)}


def smallest_font(figure: Figure) -> float:
    """The smallest printed font size of ``figure``'s visible texts, in points, at :data:`PRINT_WIDTH` (a figure
    wider or taller than the print size is scaled down there): a measure name's sub- or superscript counts at
    0.7 times its text's size, as matplotlib draws it."""
    from matplotlib.text import Text

    width, height = figure.get_size_inches()
    scale = min(1.0, PRINT_WIDTH / width, PRINT_HEIGHT / height)
    sizes = []
    for text in figure.findobj(Text):
        content = text.get_text()
        if not text.get_visible() or not content.strip():
            continue
        script = text.get_parse_math() and "$" in content and ("_" in content or "^" in content)
        sizes.append(text.get_fontsize() * (0.7 if script else 1.0))
    return min(sizes, default=float("inf")) * scale


def _legends(figure: Figure) -> list:
    """The figure's legends and its axes' legends."""
    found = list(figure.legends)
    found += [axis.get_legend() for axis in figure.get_axes() if axis.get_legend() is not None]
    return [legend for legend in found if legend.get_visible()]


def _covers(box, artist, renderer) -> bool:
    """Whether ``box`` (display coordinates) covers part of a data artist: a line's drawn segments or markers, a
    collection's points (a scatter) or paths (intervals, areas), a patch (a bar), an image."""
    from matplotlib.collections import Collection, LineCollection
    from matplotlib.lines import Line2D

    if not artist.get_visible():
        return False
    if isinstance(artist, Line2D):
        path = artist.get_transform().transform_path(artist.get_path())
        if artist.get_linestyle() not in ("None", "none", "", " ") and len(path.vertices) > 1:
            if path.intersects_bbox(box, filled=False):
                return True
        if artist.get_marker() not in (None, "None", "none", "", " "):
            reach = artist.get_markersize() * renderer.points_to_pixels(1.0) / 2
            return bool(_inside(path.vertices, box, reach).any())
        return False
    if isinstance(artist, Collection):
        offsets = artist.get_offsets()
        if len(offsets) and not isinstance(artist, LineCollection):  # a scatter: the points
            points = artist.get_offset_transform().transform(offsets)
            sizes = artist.get_sizes() if hasattr(artist, "get_sizes") else []
            reach = (np.sqrt(max(sizes)) if len(sizes) else 0.0) * renderer.points_to_pixels(1.0) / 2
            return bool(_inside(points, box, reach).any())
        transform = artist.get_transform()
        filled = not isinstance(artist, LineCollection)
        return any(transform.transform_path(path).intersects_bbox(box, filled=filled) for path in artist.get_paths())
    return box.overlaps(artist.get_window_extent(renderer))


def _inside(points, box, reach: float) -> np.ndarray:
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    return (
        (points[:, 0] >= box.x0 - reach)
        & (points[:, 0] <= box.x1 + reach)
        & (points[:, 1] >= box.y0 - reach)
        & (points[:, 1] <= box.y1 + reach)
    )


def legend_overlaps(figure: Figure, renderer=None, note=None) -> list[str]:
    """What the legends of a drawn ``figure`` cover, in words ([] when nothing): for each legend (the figure's and
    its axes'), by its bounding box in display coordinates, the data-origin ``note`` (the text :func:`save_figure`
    writes in the corner; by default a figure text that holds "DATA" or "data:"), another legend, and the data
    artists of every axes (lines' segments and markers, collections' points and paths, bars, images), and any other
    text (a title, a label, a tick label).
    ``renderer``: the one that drew the figure (default: its canvas's)."""
    renderer = renderer or figure.canvas.get_renderer()
    legends = _legends(figure)
    if note is None:
        notes = [text for text in figure.texts if "DATA" in text.get_text() or text.get_text().startswith("data:")]
    else:
        notes = [note]
    texts = [text for text in figure.texts if text not in notes]  # the title
    for axis in figure.get_axes():  # titles, labels, tick labels in view, texts in the axes
        texts += [axis.title, axis.xaxis.label, axis.yaxis.label, *axis.texts]
        texts += [*axis.get_xticklabels(), *axis.get_yticklabels()]
    texts = [text for text in texts if text.get_visible() and text.get_text().strip()]
    found = []
    boxes = [legend.get_window_extent(renderer).shrunk(0.999, 0.999) for legend in legends]
    for index, (legend, box) in enumerate(zip(legends, boxes, strict=True)):
        name = _legend_name(legend, index)
        for text in notes:
            if text.get_text() and box.overlaps(text.get_window_extent(renderer)):
                found.append(f"{name} covers the data-origin note")
        for text in texts:
            if box.overlaps(text.get_window_extent(renderer)):
                found.append(f"{name} covers the text {text.get_text()!r}")
        for other in range(index + 1, len(legends)):
            if box.overlaps(boxes[other]):
                found.append(f"{name} covers {_legend_name(legends[other], other)}")
        for axis in figure.get_axes():
            artists = [*axis.lines, *axis.collections, *axis.patches, *axis.images]
            if any(_covers(box, artist, renderer) for artist in artists):
                title = axis.get_title() or axis.get_ylabel() or "an axes"
                found.append(f"{name} covers the data of {title!r}")
    return found


def _legend_name(legend, index: int) -> str:
    labels = [text.get_text() for text in legend.get_texts()][:2]
    return f"legend {index + 1} ({', '.join(labels)}{', ...' if len(legend.get_texts()) > 2 else ''})"
