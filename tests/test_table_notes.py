"""What a table's data say beyond its cells is a note row under it, and the caption prose is in the caption files
only: LaTeX fragments are headed by the data-origin comment alone, figures store the origin sentence alone, and the
LaTeX report still finds both (its long tables keep the note)."""

from pathlib import Path

from tabular_check import check_tabular

from ordeval.io.files import png_description
from ordeval.io.provenance import origin_sentence
from ordeval.reports.latex import align_columns, note_row, tabular, upper_triangle_tabular, write_latex
from ordeval.reports.latex.layout import (
    LISTING_COLUMNS,
    LISTING_ROWS,
    LONG_ROWS,
    breaks_across_pages,
    long_table,
    rows_kept_together,
)
from ordeval.reports.latex.report import _body_rows, origin_note

ORIGINS = {"D1": "synthetic"}


def test_a_note_is_a_row_across_every_column_after_the_bottom_rule():
    fragment = tabular(["A", "B", "C"], [["1", "2", "3"]], "lp{2cm}r", note=r"12 runs; VE2 = $0.1$.")
    lines = fragment.splitlines()
    assert lines[-3:] == [
        r"\bottomrule",
        r"\multicolumn{3}{l}{\footnotesize 12 runs; VE2 = $0.1$.} \\",
        r"\end{tabular}",
    ]
    assert check_tabular(fragment) == 3  # the header, the row, the note: each as wide as the table
    assert tabular(["A"], [["1"]], "l") == tabular(["A"], [["1"]], "l", note="")  # no note, no row
    assert align_columns("llp{6cm}lrr") == ["l", "l", "p{6cm}", "l", "r", "r"]  # p{6cm} is one column
    triangle = upper_triangle_tabular(["a", "b", "c"], [["", "1", "2"], ["", "", "3"], ["", "", ""]], note="n")
    assert triangle.splitlines()[-2] == note_row("n", 3)


def test_a_fragment_is_headed_by_the_data_origin_comment_alone(tmp_path):
    path = tmp_path / "t.tex"
    write_latex(tabular(["A"], [["1"]], "l"), path, ORIGINS)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"% {origin_sentence(ORIGINS)}" and not lines[1].startswith("%")
    assert origin_note(path) == origin_sentence(ORIGINS)


def test_a_figure_stores_the_origin_sentence_alone_where_the_report_finds_it(tmp_path):
    from ordeval.reports.figures import new_figure, save_figure

    figure = new_figure(3, 2)
    figure.add_subplot().plot([0, 1], [1, 0])
    save_figure(figure, tmp_path / "f.pdf", tmp_path / "f.png", {"A": "real", "B": "synthetic"})
    sentence = origin_sentence({"A": "real", "B": "synthetic"})
    assert png_description(tmp_path / "f.png") == sentence == origin_note(tmp_path / "f.pdf")
    assert f"/Subject ({sentence})".encode() in (tmp_path / "f.pdf").read_bytes()


def test_the_note_is_not_a_body_row_and_ends_the_last_page_of_a_long_table(tmp_path):
    rows = [[str(index), "x"] for index in range(LONG_ROWS)]
    path = tmp_path / "long.tex"
    write_latex(tabular(["N", "X"], rows, "rl", note="the note"), path, ORIGINS)
    assert _body_rows(path) == LONG_ROWS  # not a long table for its note
    converted = long_table(Path(path).read_text(encoding="utf-8"), "", "short", "caption")
    foot = converted.split(r"\endfoot", 1)[1].split(r"\endlastfoot", 1)[0]
    assert foot.split() == [r"\bottomrule", *note_row("the note", 2).split()]  # under the last page's rule
    assert converted.count("the note") == 1 and r"\end{tabular}" not in converted
    plain = long_table(tabular(["N", "X"], rows, "rl"), "", "short", "caption")
    assert plain.split(r"\endfoot", 1)[1].split() == [
        r"\bottomrule",
        r"\endlastfoot",
        *plain.split(r"\endlastfoot")[1].split(),
    ]


def test_long_tables_and_narrow_listings_break_across_pages():
    def fragment(rows: int, columns: int) -> str:
        return tabular([f"C{i}" for i in range(columns)], [["1"] * columns] * rows, "l" * columns, note="a note")

    assert not breaks_across_pages(fragment(LONG_ROWS, LISTING_COLUMNS + 1))  # a wide table stays a unit
    assert breaks_across_pages(fragment(LONG_ROWS + 1, LISTING_COLUMNS + 1))
    assert not breaks_across_pages(fragment(LISTING_ROWS, LISTING_COLUMNS))
    assert breaks_across_pages(fragment(LISTING_ROWS + 1, LISTING_COLUMNS))  # a narrow listing breaks
    two = fragment(LISTING_ROWS + 1, 2) + fragment(3, 2)  # two tabulars: not one booktabs table to convert
    assert not breaks_across_pages(two)


def test_a_long_table_never_leaves_one_row_alone_on_a_page():
    """No page break after the first body row or after the last but one (longtable's \\\\*): a page holds at least
    two rows of a long table, under its header or above "continued"."""
    rows = [[str(index), "x"] for index in range(LONG_ROWS + 3)]
    converted = long_table(tabular(["N", "X"], rows, "rl", note="n"), "", "short", "caption")
    body = converted.split(r"\endlastfoot", 1)[1].split(r"\end{longtable}", 1)[0].strip().splitlines()
    assert body[0] == r"0 & x \\*" and body[-2] == rf"{LONG_ROWS + 1} & x \\*" and body[-1].endswith("x \\\\")
    assert sum(line.endswith("*") for line in body) == 2
    assert rows_kept_together("a \\\\\nb \\\\\nc \\\\") == "a \\\\\nb \\\\\nc \\\\"  # three rows: as they are
    four = rows_kept_together("a \\\\\n\\midrule\nb \\\\\nc \\\\\nd \\\\")
    assert four.splitlines() == ["a \\\\*", "\\midrule", "b \\\\", "c \\\\*", "d \\\\"]  # rules are not rows
