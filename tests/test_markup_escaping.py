"""Names reach LaTeX and figures as inert text: escaped text is one line of inert LaTeX, every .tex writer
and the report escape names and captions, matplotlib shows every string literally and no figure module switches
math text back on."""

from __future__ import annotations

from pathlib import Path

import pytest

from ordeval.io.table import Table
from ordeval.reports.latex import comment, escape, tabular, write_latex

INJECTION = "R1\n\\input{/etc/passwd}"


@pytest.mark.parametrize(
    "text", [INJECTION, "a\u2028\\input{x}", "a\r\\input{x}", "a\x0b\\input{x}", "50% $x$ & #_^~{}", "a\u0085b"]
)
def test_escaped_text_is_inert_latex_on_one_line(text):
    escaped = escape(text)
    assert "\\input" not in escaped.replace("\\textbackslash{}", "")
    assert not any(character in escaped for character in "\n\r\x0b\x0c\u2028\u2029\u0085")
    for special in "%$&#_{}":
        assert escaped.count(special) == escaped.count("\\" + special) + (
            # the braces of \textbackslash{}, \textasciitilde{}, \textasciicircum{}
            escaped.count("{}") if special in "{}" else 0
        )
    assert "\n" not in comment(text)


def test_every_tex_writer_escapes_names(tmp_path):
    """The .tex writers that print data set and run names (tables by data set, leaderboards,
    contradictions, pooled OC tables) get a name with live LaTeX and print it inert; the comment
    lines that head a fragment stay comments."""
    from ordeval.analysis.popularity import preference_table
    from ordeval.reports.latex.classification import kappa_constant_latex, pooled_latex
    from ordeval.reports.latex.popularity import preference_latex
    from ordeval.reports.latex.significance import contradictions_latex, discriminative_power_latex

    hostile = "D\n\\input{/etc/passwd}"
    fragments = []
    table = Table({"dataset": [hostile], "measure": ["NMD"], "uniform": [3], "popularity": [1], "ties": [0]})
    fragments.append(preference_latex(table, ["NMD"], {"NMD": "NMD"}, ""))
    power = Table({"dataset": [hostile], "measure": ["NMD"], "significant": [3], "pairs": [10], "percent": [30.0]})
    fragments.append(discriminative_power_latex(power, {"NMD": "NMD"}))
    contradictions = Table(
        {
            "dataset": [hostile],
            "measure_a": ["NMD"],
            "measure_b": ["RNOD"],
            "run_x": [hostile],
            "run_y": ["R$2$"],
        }
    )
    fragments.append(contradictions_latex(contradictions, {"NMD": "NMD", "RNOD": "RNOD"}))
    kappa = Table(
        {
            "dataset": [hostile],
            "run": [hostile],
            "class": ["0"],
            "topics": [3],
            "defined": [2],
            "kappa_zero": [2],
            "kappa_not_zero": [0],
        }
    )
    fragments.append(kappa_constant_latex(kappa))
    fragments.append(pooled_latex({hostile: Table({"run": [hostile], "F1_M": [0.5]})}, ["F1_M"], {"F1_M": "F1"}))
    fragments.append(tabular([escape(hostile)], [[escape(hostile)]], "l"))
    assert preference_table({}, ["NMD"], 1e-12).columns  # the empty table still has its columns
    for fragment in fragments:
        assert "\\input" not in fragment.replace("\\textbackslash{}", ""), fragment
    path = tmp_path / "f.tex"
    write_latex(fragments[0], path, {hostile: "real", "B": "synthetic"})  # the origin comment names the data sets
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("% Data origin per data set: ") and "input" in lines[0] and not lines[1].startswith("%")
    assert not any(line.lstrip().startswith("\\input") for line in lines)


def test_the_report_escapes_the_configuration_name_and_captions(tmp_path):
    from ordeval.reports.latex.report import ReportItem, ReportSection, latex_document

    hostile = "x}\n\\input{/etc/passwd}"
    table = tmp_path / "t.tex"
    table.write_text(tabular(["a"], [["1"]], "l"))
    document = latex_document(
        [ReportSection(hostile, [ReportItem("table", str(table), hostile)])],
        hostile,
        escape(hostile),
        tmp_path / "r.tex",
    )
    assert "\\input{/etc/passwd}" not in document


def test_matplotlib_shows_every_string_literally(tmp_path):
    """Names reaching figures are never math text (no crash on ``$x$`` or a broken ``$\\frac{$``), never
    TeX; the PDF carries no creation date."""
    import matplotlib

    from ordeval.reports.figures import new_figure, save_figure

    assert matplotlib.rcParams["text.parse_math"] is False
    assert matplotlib.rcParams["text.usetex"] is False
    figure = new_figure(3, 2)
    axes = figure.add_subplot()
    axes.plot([0, 1], [0, 1], label="$x$")
    axes.set_title("$\\frac{$ run_1 ^ {")
    axes.set_xticks([0, 1], ["$a$", "$\\undefined$"])
    axes.legend()
    save_figure(figure, tmp_path / "f.pdf", tmp_path / "f.png", {"$x$": "synthetic", "$\\frac{$": "real"})
    pdf = (tmp_path / "f.pdf").read_bytes()
    assert b"CreationDate" not in pdf and b"ModDate" not in pdf
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_figure_modules_never_switch_math_text_back_on():
    for path in (Path(__file__).parents[1] / "src" / "ordeval" / "figures").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "usetex=True" not in text and "parse_math=True" not in text and "import pyplot" not in text, path
        assert "matplotlib.pyplot" not in text, path
