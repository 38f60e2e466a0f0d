"""ordeval.io.files.png_description reads a PNG's Description from its chunks, without decoding the image: the
same text as PIL's ``Image.text`` for every kind of text chunk, wherever it is in the file."""

import struct
import zlib

import numpy as np
import pytest
from PIL import Image, PngImagePlugin

from ordeval.io.files import png_description

TEXTS = ["plain Latin-1 caption, 95% CI", "\u0394NMD vs \u0394RNOD: run \u201cA\u201d \u2265 run B", ""]


def _png(path, chunks) -> None:
    info = PngImagePlugin.PngInfo()
    for kind, key, value in chunks:
        if kind == "text":
            info.add_text(key, value)  # tEXt, or iTXt when the value is not Latin-1
        elif kind == "ztxt":
            info.add_text(key, value, zip=True)  # zTXt, or compressed iTXt
        else:
            info.add_itxt(key, value, lang="en", tkey="Beschreibung", zip=kind == "itxt-zip")
    noise = np.random.default_rng(0).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    Image.fromarray(noise).save(path, pnginfo=info)


@pytest.mark.parametrize("kind", ["text", "ztxt", "itxt", "itxt-zip"])
@pytest.mark.parametrize("text", TEXTS)
def test_the_description_is_the_one_pil_reads(tmp_path, kind, text):
    path = tmp_path / "figure.png"
    _png(path, [("text", "Software", "ordeval"), (kind, "Description", text), ("text", "Other", "x")])
    with Image.open(path) as image:
        assert png_description(path) == image.text["Description"] == text


def test_a_png_without_a_description_has_an_empty_one(tmp_path):
    path = tmp_path / "plain.png"
    _png(path, [("text", "Software", "ordeval"), ("text", "Descriptions", "not this one")])
    assert png_description(path) == ""


def test_a_description_after_the_image_data_is_found(tmp_path):
    path = tmp_path / "late.png"
    _png(path, [])
    data = path.read_bytes()
    body = b"tEXt" + b"Description\0written after IDAT"
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    end = data.rindex(b"IEND") - 4
    path.write_bytes(data[:end] + chunk + data[end:])
    with Image.open(path) as image:
        assert png_description(path) == image.text["Description"] == "written after IDAT"


def test_a_file_that_is_not_a_complete_png_is_named(tmp_path):
    other = tmp_path / "fake.png"
    other.write_bytes(b"GIF89a not a png")
    with pytest.raises(ValueError, match="fake.png: not a PNG file"):
        png_description(other)
    path = tmp_path / "cut.png"
    _png(path, [])
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError, match="cut.png: truncated PNG"):
        png_description(path)


def test_measure_names_are_typeset_in_figures_and_nothing_else():
    """measure_text turns a display name's sub- or superscript into math text, and save_figure parses the
    texts holding such a name only: a run named like math stays literal."""
    from ordeval.reports.figures import _typeset_measure_names, measure_text, new_figure

    assert measure_text("F1^M") == r"F1$^{\mathrm{M}}$" and measure_text("α_ORD") == r"α$_{\mathrm{ORD}}$"
    assert measure_text("NMD") == "NMD" and measure_text("$x$") == "$x$"
    figure = new_figure(3, 2)
    axis = figure.add_subplot()
    measure = axis.set_title(measure_text("MAE^M") + " (lower is better)")
    run = axis.text(0, 0, "$x^2$")
    _typeset_measure_names(figure)
    assert measure.get_parse_math() and not run.get_parse_math()


def test_latex_escape_gives_greek_letters_and_signs_as_math_and_nothing_that_stops_pdflatex():
    from ordeval.reports.latex import escape

    assert escape("ΔNMD − ΔRNOD") == r"$\Delta$NMD $-$ $\Delta$RNOD"
    assert escape("α_ORD µ é") == r"$\alpha$\_ORD $\mu$ é"
    assert escape("☃ ο") == "? ?"  # beyond what pdflatex's utf8 input knows: never an error
