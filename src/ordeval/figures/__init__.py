"""Figures: drawn with matplotlib's object API on the Agg backend (no pyplot, no GUI), saved as PDF
and PNG with a data-origin note, byte-reproducible.

Every string reaches matplotlib literally: math text is off (``text.parse_math``), so a run named
``$x$`` is drawn as ``$x$``. Only the figure jobs import this package (matplotlib costs ~0.5 s).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import matplotlib

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

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.backends.backend_pdf import FigureCanvasPdf  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..files import png_description, write_atomically  # noqa: E402
from ..provenance import figure_note, origin_sentence  # noqa: E402

__all__ = ["Figure", "new_figure", "save_figure", "figure_caption"]


def new_figure(width: float, height: float, *, note_margin: float = 0.2) -> Figure:
    """A constrained-layout figure that leaves the bottom ``note_margin`` inch free for the
    data-origin note that :func:`save_figure` writes there."""
    figure = Figure(figsize=(width, height), layout="constrained")
    margin = note_margin / height
    figure.get_layout_engine().set(rect=(0, margin, 1, 1 - margin))
    return figure


def save_figure(
    figure: Figure, pdf_path: str | Path, png_path: str | Path, origins: Mapping[str, str], description: str
) -> None:
    """Save ``figure`` as PDF and PNG with a data-origin note in its corner.

    ``description`` (what the figure shows, with its parameters) is stored in the files' metadata
    (PDF Subject, PNG Description), where the report takes its caption from. PDF metadata carry no
    date, so the same inputs give the same bytes.
    """
    figure.text(0.995, 0.005, figure_note(origins), ha="right", va="bottom", fontsize=7, color="0.35")
    caption = f"{description} {origin_sentence(origins)}".strip()
    metadata = {
        ".pdf": {"metadata": {"CreationDate": None, "ModDate": None, "Subject": caption, "Creator": "ordeval"}},
        ".png": {"dpi": 150, "metadata": {"Description": caption, "Software": "ordeval"}},
    }
    # One layout for both formats, done once at the PNG's resolution (savefig would draw the figure once
    # without rendering to lay it out, for each format), then each canvas draws it once.
    figure.dpi = metadata[".png"]["dpi"]
    engine = figure.get_layout_engine()
    if engine is not None:
        engine.execute(figure)
    figure.set_layout_engine("none")
    png = {"metadata": metadata[".png"]["metadata"]}
    write_atomically(png_path, lambda temporary: FigureCanvasAgg(figure).print_png(temporary, **png))
    write_atomically(pdf_path, lambda temporary: FigureCanvasPdf(figure).print_pdf(temporary, **metadata[".pdf"]))


def figure_caption(png_path: str | Path) -> str:
    """The description that :func:`save_figure` stored in a PNG."""
    return png_description(png_path)
