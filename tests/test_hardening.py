"""Issue 13 (hardening): every case found by trying bad inputs as a new user would, one test each, and
property tests that throw random names at the configuration and random bytes at every reader.

Hostile names, path escapes, collisions, late failures, weak messages, lenient parsing, mixed origins
and interrupted writes; the byte-identical outputs of two runs are in tests/workflow/test_determinism.py.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import numpy as np
import pytest
from conftest import tiny_config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import write_atomically, write_json, write_text
from ordeval.io.names import name_problem
from ordeval.io.provenance import ORIGINS, Origin, combined_origin
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import comment, escape, tabular, write_latex
from ordeval.tasks.classification import readers as oc_readers
from ordeval.tasks.quantification import canonical_tables, readers
from ordeval.tasks.stack import read_score_matrix
from ordeval.workflow.plan import plan as make_plan

CLASSES = [-2, -1, 0, 1, 2]
INJECTION = "R1\n\\input{/etc/passwd}"


def attempt(change) -> str:
    """The one-line ConfigError of planning the tiny configuration after ``change``."""
    config = copy.deepcopy(tiny_config())
    change(config)
    with pytest.raises(ConfigError) as error:
        make_plan(config, check_files=False)
    message = str(error.value)
    assert "\n" not in message and "\r" not in message, message
    return message


def rename_dataset(config: dict, old: str, new: str) -> None:
    config["datasets"] = {new if name == old else name: spec for name, spec in config["datasets"].items()}


def rename_run(config: dict, new: str) -> None:
    config["datasets"]["TinySem"]["runs"][0]["name"] = new


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


# =========================================================================== LaTeX injection


def test_a_run_name_carrying_latex_is_rejected_when_the_configuration_is_loaded():
    message = attempt(lambda c: rename_run(c, INJECTION))
    assert "datasets.TinySem.runs[0].name: 'R1\\n" in message and "control character" in message


def test_a_run_name_carrying_latex_in_a_score_file_header_is_rejected(tmp_path):
    path = write(tmp_path, "NMD.tsv", "topic\tR1\tR\\input{x}\nt1\t0.1\t0.2\n")
    with pytest.raises(InputError, match=r"NMD.tsv, line 1: run 'R\\\\input\{x\}' contains a path separator"):
        read_score_matrix(path)


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


# =========================================================================== path escapes and collisions


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: c.update(name=".."), "name"),
        (lambda c: c.update(name="."), "name"),
        (lambda c: c.update(name="tiny\n"), "name"),
        (lambda c: c.update(name="a/b"), "name"),
        (lambda c: c.update(name="../x"), "name"),
        (lambda c: rename_dataset(c, "TinySem", ".."), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "."), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "TinySem\n"), "datasets"),
        (lambda c: rename_dataset(c, "TinySem", "a\\b"), "datasets"),
        (lambda c: rename_run(c, ".."), "datasets.TinySem.runs"),
        (lambda c: rename_run(c, "BL/positive"), "datasets.TinySem.runs"),
        (lambda c: rename_run(c, "BL-positive\n"), "datasets.TinySem.runs"),
    ],
)
def test_path_escapes_are_rejected_naming_the_key(change, key):
    message = attempt(change)
    assert key in message


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: rename_dataset(c, "TinySem", "all"), "datasets.all: data set 'all' is a reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "ALL"), "reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "mean"), "datasets.mean: data set 'mean' is a reserved word"),
        (lambda c: rename_dataset(c, "TinySem", "all_oc"), "starts like a summary output"),
        (lambda c: rename_run(c, "topic"), "datasets.TinySem.runs: run 'topic' is a reserved word"),
        (lambda c: rename_run(c, "mean"), "run 'mean' is a reserved word"),
        (lambda c: rename_run(c, "$x$"), "datasets.TinySem.runs: run '$x$' is not allowed"),
        (lambda c: c.update(name="all"), "name: configuration name 'all' is a reserved word"),
    ],
)
def test_names_that_collide_with_outputs_are_rejected(change, expected):
    assert expected in attempt(change)


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


# =========================================================================== late failures


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: c["datasets"]["TinySem"]["runs"].__setitem__(1, {"type": "simulate", "systems": 3}),
            "config key datasets.TinySem.runs: 4 runs; the analyses need at least 5",
        ),
        (
            lambda c: c["consistency"].update(subset_size=7),
            "config key consistency.subset_size: 7, but data set TinySem has 12 topics",
        ),
        (
            lambda c: c["consistency"].update(subset_size=8),
            "config key consistency.subset_size: 8, but data set TinySem has 12 topics",
        ),
        (lambda c: c["datasets"]["TinyDQ"]["gold"].update(topics=3), "datasets.TinyDQ"),
    ],
)
def test_checks_that_can_be_made_before_the_first_job_are_made_at_plan_time(change, expected):
    assert expected in attempt(change)


def test_too_few_runs_in_a_canonical_table_fail_at_plan_time(tmp_path):
    gold = "topic\tclass\tprob\n" + "".join(f"t{i}\t{c}\t0.2\n" for i in range(10) for c in CLASSES)
    runs = "topic\trun\tclass\tprob\n" + "".join(
        f"t{i}\tR{r}\t{c}\t0.2\n" for r in range(3) for i in range(10) for c in CLASSES
    )
    write(tmp_path, "gold.tsv", gold)
    write(tmp_path, "runs.tsv", runs)
    config = tiny_config(data_root=str(tmp_path))
    config["datasets"] = {
        "Small": {
            "classes": CLASSES,
            "gold": {"type": "tsv", "path": "gold.tsv"},
            "runs": [{"type": "tsv", "path": "runs.tsv"}, {"type": "uniform", "name": "BL-uniform"}],
        }
    }
    with pytest.raises(ConfigError, match=r"datasets\.Small\.runs: 4 runs; the analyses need at least 5"):
        make_plan(config, workdir=tmp_path)


def test_simulation_settings_that_cannot_be_met_fail_at_plan_time_naming_the_key():
    def change(config):
        config["datasets"]["TinyOC"] = copy.deepcopy(tiny_config(classification=True)["datasets"]["TinyOC"])
        config["datasets"]["TinyOC"]["gold"].update(items_min=50, items_max=10)
        config["measures"] = config["measures"] + ["F1_M", "MAE_M"]

    assert "datasets.TinyOC.gold.items_max" in attempt(change)


# =========================================================================== weak messages


def test_non_utf8_json_is_reported_as_such(tmp_path):
    path = write(tmp_path, "gold.json", b'[{"id": "d\xff1"}]')
    with pytest.raises(InputError, match=r"gold.json, .*not UTF-8: byte 0xff"):
        readers.read_ntcir_annotations(path, CLASSES, "A")


def test_non_utf8_tsv_names_the_line(tmp_path):
    path = write(tmp_path, "gold.txt", b"a\t0.2\t0.2\t0.2\t0.2\t0.2\nb\xfe\t0.2\t0.2\t0.2\t0.2\t0.2\n")
    with pytest.raises(InputError, match=r"gold.txt, .*not UTF-8: byte 0xfe at line 2"):
        readers.read_semeval_dist(path, CLASSES)


@pytest.mark.parametrize(
    "reader",
    [
        lambda p: readers.read_semeval_dist(p, CLASSES),
        lambda p: oc_readers.read_semeval_labels(p, CLASSES),
        lambda p: canonical_tables.read_canonical_runs(p, CLASSES),
    ],
)
def test_tsv_errors_carry_the_line_number(tmp_path, reader):
    lines = {
        "read_semeval_dist": ["a\t0.2\t0.2\t0.2\t0.2\t0.2", "b\t0.2\t0.2\t0.2\t0.2\t0.2", "c\t0.2\t0.2\tx\t0.2\t0.2"],
    }
    del lines
    # a file whose third physical line is broken, in any of the formats: the message says line 3 or 4
    path = write(tmp_path, "f.tsv", "topic\trun\tclass\tprob\nt1\tR\t0\t1\nt2\tR\t0\tnope\n")
    with pytest.raises(InputError, match=r"f.tsv, line \d"):
        reader(path)


@pytest.mark.parametrize("separator", ["\x0c", "\u2028", "\u2029", "\x0b", "\x1c", "\x85", "\r"])
def test_line_numbers_do_not_drift_after_form_feeds_or_unicode_separators(tmp_path, separator):
    """Only ``\\n`` ends a line: a form feed or U+2028 inside an earlier line does not shift the line
    number of a later error (Python's ``splitlines`` would)."""
    good = f"a{separator}b\t0.2\t0.2\t0.2\t0.2\t0.2\n"
    path = write(tmp_path, "gold.txt", good + "c\t0.2\t0.2\t0.2\t0.2\t0.2\nd\t0.2\t0.2\t0.2\t0.2\tx\n")
    with pytest.raises(InputError, match=r"gold.txt, line 3: probability 'x' is not a number"):
        readers.read_semeval_dist(path, CLASSES)
    scores = write(tmp_path, "NMD.tsv", f"topic\tR1\nt{separator}1\t0.5\nt2\tnope\n")
    with pytest.raises(InputError, match=r"NMD.tsv, line 3: "):
        read_score_matrix(scores)


# =========================================================================== lenient parsing


@pytest.mark.parametrize("text", ["0.03_7", "1_0", "0x1p-2", "١٢", "1e", ".", "+-1", "nan", "inf", " 0.2", "0,2"])
def test_numbers_follow_a_strict_grammar(tmp_path, text):
    path = write(tmp_path, "gold.txt", f"a\t{text}\t0.2\t0.2\t0.2\t0.2\n")
    with pytest.raises(InputError, match=r"gold.txt, line 1: probability .* is not a number"):
        readers.read_semeval_dist(path, CLASSES)
    scores = write(tmp_path, "NMD.tsv", f"topic\tR1\nt1\t{text}\n")
    with pytest.raises(InputError, match=r"NMD.tsv, line 2: .* is not a number"):
        read_score_matrix(scores)


def test_a_tweet_given_twice_in_a_topic_is_an_error(tmp_path):
    path = write(tmp_path, "labels.txt", "1\ta\t0\n2\ta\t1\n1\ta\t0\n")
    with pytest.raises(InputError, match=r"labels.txt, line 3: duplicate tweet '1' in topic 'a' \(first at line 1\)"):
        readers.read_semeval_labels(path, CLASSES)
    with pytest.raises(InputError, match=r"labels.txt, line 3: duplicate item '1' in topic 'a' \(also at line 1\)"):
        oc_readers.gold_items(oc_readers.read_semeval_labels(path, CLASSES))


def test_duplicate_json_keys_are_an_error(tmp_path):
    text = '[{"id": "d1", "id": "d2", "annotations": [{"quality": {"A": 1}}]}]'
    with pytest.raises(InputError, match=r"a.json, .*duplicate key 'id' in one JSON object"):
        readers.read_ntcir_annotations(write(tmp_path, "a.json", text), CLASSES, "A")
    nested = '[{"id": "d1", "annotations": [{"quality": {"A": 1, "A": 2}}]}]'
    with pytest.raises(InputError, match=r"b.json, .*duplicate key 'A'"):
        readers.read_ntcir_annotations(write(tmp_path, "b.json", nested), CLASSES, "A")


# =========================================================================== mixed origins


def test_totals_never_add_real_to_synthetic_counts(tmp_path):
    from ordeval.analysis.popularity import Deltas, preference_table, total_origins
    from ordeval.reports.latex.popularity import preference_latex

    def deltas(values):
        return Deltas(["NMD"], ["t1", "t2", "t3"], np.array([values], dtype=float), [True])

    compared = {"Real": deltas([1, 1, -1]), "Sim": deltas([-1, -1, -1]), "Sim2": deltas([1, -1, -1])}
    origins = {"Real": "real", "Sim": "synthetic", "Sim2": "synthetic"}
    table = preference_table(compared, ["NMD"], 1e-12, origins)
    rows = {row["dataset"]: (row["uniform"], row["popularity"]) for row in table.records()}
    assert "TOTAL" not in rows
    assert rows["TOTAL (real)"] == rows["Real"]
    assert rows["TOTAL (synthetic)"] == (1, 5)
    write_csv(table, tmp_path / "p.csv", total_origins(table, origins))
    written = Table.read(tmp_path / "p.csv", sep=",")
    assert dict(zip(written["dataset"], written["data_origin"], strict=True))["TOTAL (real)"] == "real"
    assert set(written["data_origin"]) <= set(ORIGINS)
    latex = preference_latex(table, ["NMD"], {"NMD": "NMD"}, "")
    assert latex.index("\\midrule", latex.index("Sim2")) < latex.index("TOTAL (real)")
    # one origin: one TOTAL, as before
    same = preference_table(compared, ["NMD"], 1e-12, dict.fromkeys(compared, "synthetic"))
    assert [name for name in same["dataset"] if name.startswith("TOTAL")] == ["TOTAL"]


def test_data_origin_is_an_enumerated_value():
    assert [origin.value for origin in Origin] == ["real", "partly synthetic", "synthetic"]
    assert combined_origin({"A": "real", "B": "synthetic"}) == "partly synthetic"
    assert combined_origin({"A": "real", "B": "real"}) == "real"


def test_csv_data_origin_column_holds_only_enumerated_values(tmp_path):
    table = Table({"dataset": ["A", "B", "mean"], "x": [1, 2, 3]})
    write_csv(table, tmp_path / "a.csv", {"A": "real", "B": "synthetic"})
    assert list(Table.read(tmp_path / "a.csv", sep=",")["data_origin"]) == ["real", "synthetic", "partly synthetic"]
    write_csv(Table({"x": [1]}), tmp_path / "b.csv", {"A": "real", "B": "synthetic"})
    assert list(Table.read(tmp_path / "b.csv", sep=",")["data_origin"]) == ["partly synthetic"]
    with pytest.raises(ValueError):
        write_csv(table, tmp_path / "c.csv", {"A": "mostly real"})
    assert not (tmp_path / "c.csv").exists()


# =========================================================================== interrupted writes


def _failing(partial: bytes):
    def write(temporary):
        Path(temporary).write_bytes(partial)
        raise KeyboardInterrupt("killed mid-write")

    return write


def test_a_writer_failing_mid_write_leaves_no_target_file(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, _failing(b"half a ta"))
    assert not target.exists()
    assert list(target.parent.iterdir()) == []  # no temporary left either


def test_a_writer_failing_mid_rewrite_keeps_the_old_file_whole(tmp_path):
    target = tmp_path / "table.csv"
    write_text("complete\n", target)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, _failing(b"half"))
    assert target.read_text() == "complete\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


@pytest.mark.parametrize(
    "writer",
    [
        lambda path: write_text("x" * 10, path),
        lambda path: write_json({"a": 1}, path),
        lambda path: write_csv(Table({"a": [1, 2]}), path, {"A": "real"}),
        lambda path: write_latex("x", path, {"A": "real"}),
        lambda path: Table({"a": [1]}).write(path),
    ],
)
def test_every_writer_goes_through_a_temporary_file(tmp_path, monkeypatch, writer):
    """The project's writers (text, JSON, CSV, LaTeX, tables) all rename a finished temporary file into
    place: with the rename failing, the target never appears."""

    def broken(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    target = tmp_path / "out.txt"
    with pytest.raises(OSError, match="disk full"):
        writer(target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_no_module_writes_an_output_in_place():
    """Outputs are written through ``ordeval.io.files.write_atomically`` only: every call that writes a
    file (``open(..., "w")``, ``write_text``, ``savefig``, ``to_csv``, ``np.save*``) writes a
    ``temporary`` (checked in the source)."""
    import ast

    root = Path(__file__).parents[1] / "src" / "ordeval"
    writing = {"write_text", "write_bytes", "savefig", "to_csv", "save", "savez", "savez_compressed", "tofile"}
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "files.py":
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            # (a bare ``write_text(...)`` is ordeval.io.files.write_text, atomic itself)
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if isinstance(node.func, ast.Name) and name == "write_text":
                continue
            mode = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            if name in writing or (name == "open" and mode and str(mode[0])[:1] in "wax"):
                target = ast.get_source_segment(source, node.args[0]) if node.args else ""
                # into a temporary file, or into a handle (whose ``open`` is checked in its turn)
                marked = "# not an output" in source.splitlines()[node.lineno - 1]  # scratch copies, live logs
                if "temporary" not in ast.dump(node) and target != "handle" and not marked:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}: {ast.get_source_segment(source, node)}")
    assert offenders == []


# =========================================================================== property tests

NAME_CHARACTERS = st.characters(codec="utf-8", exclude_categories=("Cs",))
NAMES = st.one_of(
    st.text(NAME_CHARACTERS, max_size=12),
    st.sampled_from(["..", ".", "all", "ALL", "mean", "topic", "TOTAL", "a/b", "a\\b", "$x$", "x\n", "-a", "a" * 65]),
    st.builds(lambda a, b: a + b, st.text("abc.", min_size=1, max_size=3), st.sampled_from(["\n", "\x00", "/", " "])),
)


def _one_line_config_error(change) -> None:
    config = copy.deepcopy(tiny_config())
    change(config)
    try:
        make_plan(config, check_files=False)
    except ConfigError as error:
        message = str(error)
        assert message and "\n" not in message and "\r" not in message
        assert message.split(":")[0], message
    # anything else (an exception of another class) fails the test


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, where=st.sampled_from(["name", "dataset", "run"]))
def test_random_names_give_a_plan_or_a_one_line_config_error(name, where):
    def change(config):
        if where == "name":
            config["name"] = name
        elif where == "dataset":
            rename_dataset(config, "TinySem", name)
        else:
            rename_run(config, name)

    _one_line_config_error(change)
    if name_problem(name, kind="run") is None and where != "dataset":
        assert all(character.isprintable() and not character.isspace() for character in name)
        assert name not in {".", ".."} and "/" not in name and "$" not in name


READERS = {
    "semeval_dist": lambda p: readers.read_semeval_dist(p, CLASSES),
    "semeval_labels": lambda p: readers.read_semeval_labels(p, CLASSES),
    "ntcir_annotations": lambda p: readers.read_ntcir_annotations(p, CLASSES, "A"),
    "ntcir_submission": lambda p: readers.read_ntcir_submission(p, CLASSES, "A"),
    "canonical_gold": lambda p: canonical_tables.read_canonical_gold(p, CLASSES),
    "canonical_runs": lambda p: canonical_tables.read_canonical_runs(p, CLASSES),
    "score_matrix": read_score_matrix,
    "oc_semeval_labels": lambda p: oc_readers.read_semeval_labels(p, CLASSES),
    "oc_canonical_gold": lambda p: oc_readers.read_canonical_gold(p, CLASSES),
    "oc_canonical_runs": lambda p: oc_readers.read_canonical_runs(p, CLASSES),
}

#: Pieces of valid files, glued at random with hostile bytes: most examples get past the first line.
PIECES = [
    b"topic\tclass\tprob\n",
    b"topic\trun\tclass\tprob\n",
    b"topic\titem\tlabel\n",
    b"topic\tR1\tR2\n",
    b"t1\t0\t0.5\n",
    b"t1\tR\t0\t1\n",
    b"a\t0.2\t0.2\t0.2\t0.2\t0.2\n",
    b"1\ta\t0\n",
    b"0.03_7",
    b"1e999",
    b"-0",
    b"\t",
    b"\n",
    b"\r\n",
    b"\x0c",
    b"\xe2\x80\xa8",
    b"\xff",
    b"\x00",
    b"\xef\xbb\xbf",
    b'[{"id": "d1", "annotations": [{"quality": {"A": 1}}], "quality": {"A": {"0": 1}}}]',
    b'{"id": 1, "id": 2}',
    b"[",
    b'"\\ud800"',
    b"NaN",
]
RAW = st.one_of(
    st.binary(max_size=80),
    st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=4)), max_size=8).map(b"".join),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(raw=RAW)
def test_random_bytes_give_only_clean_input_errors(tmp_path, raw):
    path = tmp_path / "input file.tsv"
    path.write_bytes(raw)
    for name, reader in READERS.items():
        try:
            reader(path)
        except InputError as error:
            message = str(error)
            assert message.startswith(str(path)), (name, message)
            assert "\n" not in message and "\r" not in message, (name, message)
            assert "\u2028" not in message and "\x00" not in message, (name, message)
