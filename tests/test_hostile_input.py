"""Issue 27 (hostile and malformed input, round 2): every configuration value checked before any work,
limits before work, configuration files read with limits, tables trusted only as far as they are
strict, and faults that leave nothing behind. One test per case; each error is one line naming the key
(or file, line and column)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, tiny_config

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import remove_temporaries, write_atomically, write_text
from ordeval.io.markup import markup_problem
from ordeval.io.parsing import load_json
from ordeval.io.table import Table
from ordeval.reports.latex import report
from ordeval.tasks.stack import is_score_table, read_measure_table, read_score_matrix
from ordeval.tasks.validation import check_file
from ordeval.workflow.config import MAX_ALIASES, check_config_file, check_size, load, load_yaml, validate
from ordeval.workflow.limits import HOURS_VARIABLE, MEMORY_VARIABLE, estimate
from ordeval.workflow.plan import plan as make_plan


@pytest.fixture(autouse=True)
def _no_limit_overrides(monkeypatch):
    monkeypatch.delenv(MEMORY_VARIABLE, raising=False)
    monkeypatch.delenv(HOURS_VARIABLE, raising=False)


def refused(change, *, classification: bool = False) -> str:
    """The one-line ConfigError of planning the tiny configuration after ``change``."""
    config = copy.deepcopy(tiny_config(classification=classification))
    change(config)
    with pytest.raises(ConfigError) as error:
        make_plan(config, check_files=False)
    message = str(error.value)
    assert "\n" not in message and "\r" not in message and "\t" not in message, message
    assert len(message) < 600, message
    return message


def sem(config):
    return config["datasets"]["TinySem"]


def dq(config):
    return config["datasets"]["TinyDQ"]


def oc(config):
    return config["datasets"]["TinyOC"]


def oc_only(config):
    """The classification data set of the tiny configuration, added to it."""
    config["datasets"]["TinyOC"] = tiny_config(classification=True)["datasets"]["TinyOC"]
    config["measures"] = tiny_config(classification=True)["measures"]
    return oc(config)


# =========================================================================== numbers


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: c["consistency"].update(alpha=float("nan")), "consistency.alpha: nan is not a finite number"),
        (lambda c: c.update(significance={"alpha": float("nan")}), "significance.alpha: nan"),
        (lambda c: c.update(popularity={"tie_tolerance": float("nan")}), "popularity.tie_tolerance: nan"),
        (lambda c: c.update(popularity={"tie_tolerance": float("inf")}), "popularity.tie_tolerance: inf"),
        (lambda c: c["agreement"].update(ci_level=float("nan")), "agreement.ci_level: nan"),
        (lambda c: dq(c)["gold"].update(latent_mean=float("-inf")), "datasets.TinyDQ.gold.latent_mean: -inf"),
        (lambda c: dq(c)["gold"].update(latent_sd=float("nan")), "datasets.TinyDQ.gold.latent_sd: nan"),
        (lambda c: sem(c)["runs"][1].update(floor=float("inf")), "datasets.TinySem.runs[1].floor: inf"),
        (lambda c: c.update(seed=10**30), "config key seed: 1000000000000000000000000000000 is greater than"),
        (lambda c: c.update(seed=-1), "config key seed: -1 is less than the minimum of 0"),
        (lambda c: sem(c)["gold"].update(topics=10**20), "datasets.TinySem.gold.topics: 100000000000000000000 is"),
    ],
)
def test_numbers_that_are_not_finite_or_do_not_fit_64_bits_are_refused(change, key):
    assert key in refused(change)


def test_the_largest_seed_is_accepted():
    config = tiny_config(seed=2**63 - 1)
    assert make_plan(config, check_files=False).config["seed"] == 2**63 - 1


# =========================================================================== ranges


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c)["gold"].update(tweets_min=500, tweets_max=100), "TinySem.gold.tweets_max: tweets_min (500)"),
        (lambda c: sem(c)["gold"].update(tweets_min=500), "TinySem.gold.tweets_min: tweets_min (500) is greater"),
        (lambda c: sem(c)["runs"][1].update(skill_min=0.9, skill_max=0.2), "TinySem.runs[1].skill_max"),
        (lambda c: sem(c)["runs"][1].update(bias_min=0.9), "TinySem.runs[1].bias_min: bias_min (0.9)"),
        (lambda c: sem(c)["runs"][1].update(noise_concentration_min=100.0), "runs[1].noise_concentration_min"),
        (lambda c: sem(c)["runs"][1].update(english_variants=7), "TinySem.runs[1].english_variants: 7"),
        (lambda c: sem(c)["runs"][1].update(weak_skill_min=0.5), "TinySem.runs[1].weak_skill_min: weak_skill_min"),
        (lambda c: sem(c)["runs"][1].update(team_size=2, weak_teams=9), "TinySem.runs[1].weak_teams: 9 weak teams"),
        (lambda c: dq(c)["gold"].update(scores=["E", "S"]), "TinyDQ.gold.score: 'A' is not one of scores"),
        (
            lambda c: dq(c)["gold"].update(scores=["A", "E", "S", "X"], latent_correlation=-0.4),
            "TinyDQ.gold.latent_correlation: -0.4 with 4 scores",
        ),
    ],
)
def test_min_max_pairs_and_related_fields_must_agree(change, key):
    assert key in refused(change)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: oc(c)["gold"].update(items_min=50, items_max=10), "TinyOC.gold.items_max"),
        (lambda c: oc(c)["runs"][1].update(skill_min=0.95), "TinyOC.runs[1].skill_min: skill_min (0.95)"),
        (lambda c: oc(c)["runs"][1].update(spread_min=0.5, spread_max=0.1), "TinyOC.runs[1].spread_max"),
        (lambda c: oc(c)["runs"][1].update(weak_guess_min=0.9, weak_guess_max=0.2), "TinyOC.runs[1].weak_guess_max"),
        (lambda c: oc(c)["runs"][1].update(weak_teams=99), "TinyOC.runs[1].weak_teams: 99 weak teams"),
        (lambda c: oc(c)["gold"].update(class_shares=[1, 1]), "TinyOC.gold.class_shares: 2 shares for 5 classes"),
        (lambda c: oc(c)["gold"].update(cut_points=[0, 1]), "TinyOC.gold.cut_points: [0, 1] must be 4 numbers"),
        (lambda c: oc(c)["gold"].update(cut_points=[0, 2, 1, 3]), "TinyOC.gold.cut_points: [0, 2, 1, 3] must be stri"),
        (
            lambda c: oc(c)["gold"].update(cut_points=[0, 1, 2, 3], tilt_sd=0.5),
            "TinyOC.gold.tilt_sd: a setting of the Dirichlet topic model",
        ),
        (lambda c: oc(c)["runs"][0].update({"class": 7}), "TinyOC.runs[0].class: 7 is not one of the classes"),
    ],
)
def test_classification_settings_must_agree(change, key):
    assert key in refused(change, classification=True)


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c)["gold"].update(class_shares=[0.5, 0.5]), "TinySem.gold.class_shares: 2 shares for 5"),
        (lambda c: sem(c)["gold"].update(cut_points=[-1, 0, 1]), "TinySem.gold.cut_points: [-1, 0, 1] must be 4"),
        (lambda c: sem(c)["gold"].update(cut_points=[0, 0, 1, 2]), "TinySem.gold.cut_points: [0, 0, 1, 2] must be"),
        (
            lambda c: sem(c)["gold"].update(cut_points=[0, 1, 2, 3], class_shares=[0.2] * 5),
            "TinySem.gold.class_shares: a setting of the Dirichlet topic model",
        ),
        (lambda c: sem(c)["runs"][0].update({"class": "3"}), "TinySem.runs[0].class: '3' is not one of the classes"),
        (lambda c: sem(c).update(classes=[1, "1", 2]), "TinySem.classes: label(s) '1' given twice"),
        (lambda c: sem(c)["runs"].append({"type": "uniform", "name": "topic"}), "run 'topic' is a reserved word"),
        (lambda c: c.update(popularity={"uniform_run": "../BL"}), "popularity.uniform_run: run '../BL' contains a"),
    ],
)
def test_fields_that_must_agree_with_the_classes_and_names(change, key):
    assert key in refused(change)


# =========================================================================== text that goes into files


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda c: sem(c).update(classes=["a\tb", "c", "d"]), "TinySem.classes[0]: 'a\\tb' contains"),
        (lambda c: sem(c)["gold"].update(topic_prefix="t\t"), "TinySem.gold.topic_prefix: 't\\t' contains"),
        (lambda c: sem(c)["gold"].update(topic_prefix="t\n"), "TinySem.gold.topic_prefix: 't\\n' contains"),
        (lambda c: sem(c)["runs"][1].update(prefix="S\x00"), "TinySem.runs[1].prefix: 'S\\x00' contains"),
        (lambda c: sem(c).update(description="a\rb"), "TinySem.description: 'a\\rb' contains"),
        (lambda c: sem(c).update(venue="a\u2028b"), "TinySem.venue: 'a\\u2028b' contains"),
        (lambda c: sem(c)["gold"].update(corpus="x\x1b[31m"), "TinySem.gold.corpus"),
        (lambda c: c.update(popularity={"popularity_run": "BL\tpop"}), "popularity.popularity_run"),
    ],
)
def test_control_characters_are_refused_in_every_string(change, key):
    message = refused(change)
    assert key in message and "control character" in message


def test_plain_unicode_text_stays_allowed():
    config = tiny_config()
    sem(config).update(description="Ünïcødé — tweets, 中文", venue="SemEval\u00a02016")
    assert make_plan(config, check_files=False)


# =========================================================================== limits


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda c: sem(c)["runs"][1].update(systems=10**6), "config key datasets.TinySem: too large"),
        (lambda c: sem(c)["gold"].update(topics=10**9), "config key datasets.TinySem: too large"),
        (lambda c: c["significance"].update(hsd_trials=10**11), "config key datasets: too long"),
        (lambda c: c["consistency"].update(trials=10**9), "too large"),
        (lambda c: dq(c)["gold"].update(annotators=10**9), "config key datasets.TinyDQ: too large"),
        (lambda c: oc_only(c)["gold"].update(items_min=10**7, items_max=10**8), "datasets.TinyOC: too large"),
    ],
)
def test_sizes_that_cannot_fit_are_refused_quickly_with_the_estimate(change, expected):
    started = time.monotonic()
    message = refused(change)
    assert time.monotonic() - started < 5
    assert expected in message
    assert "GB of memory" in message or "hours of work" in message
    assert "limits: {memory_gb" in message and MEMORY_VARIABLE in message


def test_the_limits_can_be_overridden_in_the_configuration_and_by_the_environment(monkeypatch):
    config = tiny_config()
    config["significance"]["hsd_trials"] = 10**11
    with pytest.raises(ConfigError, match="too long"):
        make_plan(config, check_files=False)
    assert make_plan({**config, "limits": {"hours": 0}}, check_files=False)
    assert make_plan({**config, "limits": {"hours": 1e9}}, check_files=False)
    monkeypatch.setenv(HOURS_VARIABLE, "0")
    assert make_plan(config, check_files=False)
    monkeypatch.setenv(HOURS_VARIABLE, "1")  # the environment wins over the configuration
    with pytest.raises(ConfigError, match=f"limit is 1 hours \\({HOURS_VARIABLE}"):
        make_plan({**config, "limits": {"hours": 0}}, check_files=False)
    monkeypatch.setenv(MEMORY_VARIABLE, "lots")
    with pytest.raises(ConfigError, match=f"environment variable {MEMORY_VARIABLE}: 'lots' is not a number"):
        make_plan(config, check_files=False)


def test_a_small_memory_limit_refuses_even_the_default_configuration():
    config = load(REPO / "config" / "config.yaml")
    found = estimate(config)
    assert 0.4 < found.memory_mb / 1024 < 2 and 0 < found.hours < 0.5, found
    with pytest.raises(ConfigError, match=r"needs about 0\.\d+ GB of memory .*the limit is 0\.1 GB"):
        make_plan({**config, "limits": {"memory_gb": 0.1}}, workdir=REPO)


# =========================================================================== configuration files


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_duplicate_keys_are_refused_by_every_loader(tmp_path):
    path = write(tmp_path, "c.yaml", "name: a\nseed: 1\nseed: 2\ndatasets: {}\n")
    for loader in (load, load_yaml, check_config_file):
        with pytest.raises(ConfigError, match=r"c.yaml, line 3: duplicate key 'seed' \(first at line 2\)"):
            loader(path)


ALIAS_BOMB = (
    'a: &a ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]\n'
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8))
    + "name: *i\nseed: 1\ndatasets: {}\n"
)


def test_an_alias_bomb_is_refused_in_milliseconds_with_a_short_message(tmp_path):
    path = write(tmp_path, "bomb.yaml", ALIAS_BOMB)  # 9^8 * 84 characters once expanded: 3.6 GB
    started = time.monotonic()
    with pytest.raises(ConfigError) as error:
        load(path)
    assert time.monotonic() - started < 2
    assert "alias bomb" in str(error.value) and len(str(error.value)) < 300
    data = load_yaml(path)  # the API given such a dict: measured before the schema sees it
    with pytest.raises(ConfigError, match="alias bomb"):
        validate(data)


def test_merge_keys_that_multiply_and_too_many_aliases_are_refused(tmp_path):
    merges = "a0: &a0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}\n"
    merges += "".join(f"a{i + 1}: &a{i + 1} {{<<: [*a{i}, *a{i}, *a{i}], x{i}: 1}}\n" for i in range(20))
    with pytest.raises(ConfigError, match="once its merge keys"):
        load_yaml(write(tmp_path, "merge.yaml", merges))
    many = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(ConfigError, match=f"more than {MAX_ALIASES} YAML aliases"):
        load_yaml(write(tmp_path, "many.yaml", many))


def test_a_recursive_alias_and_a_huge_file_are_refused(tmp_path):
    with pytest.raises(ConfigError, match="contains itself"):
        check_config_file(write(tmp_path, "loop.yaml", "name: &a [*a]\nseed: 1\ndatasets: {}\n"))
    with pytest.raises(ConfigError, match="bytes; a configuration file may have at most"):
        load_yaml(write(tmp_path, "big.yaml", "# " + "x" * (3 * 2**20) + "\n"))
    assert check_size({"a": ["bc", 1]}) == 6


def test_many_classes_are_refused_by_their_memory_or_as_a_huge_list():
    config = load_yaml(REPO / "config" / "config.yaml")
    sem16c = config["datasets"]["Sem16T4C"]
    sem16c["classes"] = list(range(1500))
    sem16c["gold"].pop("cut_points")  # the fitted gold and systems are for five classes
    for source in sem16c["runs"]:
        source.pop("profiles", None)
    with pytest.raises(ConfigError, match=r"config key datasets.Sem16T4C: too large for this machine: .* GB of memory"):
        make_plan(config, workdir=REPO)
    message = refused(lambda c: sem(c).update(classes=list(range(10_000))))
    assert message == "config key datasets.TinySem.classes: a list of 10000 entries (at most 2000)"


def test_a_huge_list_is_refused_before_the_schema_compares_its_items():
    started = time.monotonic()
    message = refused(lambda c: sem(c).update(classes=list(range(10_000)) + [str(i) for i in range(10_000)]))
    assert time.monotonic() - started < 1
    assert message == "config key datasets.TinySem.classes: a list of 20000 entries (at most 2000)"


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.update(name="x" * 100_000),
        lambda c: c.update(seed=["1"] * 1500),
        lambda c: sem(c).update(description="y\n" * 100_000),
        lambda c: sem(c).update(classes=["a" * 100_000, "b"]),
        lambda c: sem(c)["runs"][0].update({"class": "\t" * 100_000}),
    ],
)
def test_an_error_message_never_shows_a_huge_value(tmp_path, change):
    import yaml

    config = tiny_config()
    change(config)
    path = write(tmp_path, "long.yaml", yaml.safe_dump(config))
    with pytest.raises(ConfigError) as error:
        make_plan(load_yaml(path), check_files=False)
    assert len(str(error.value)) < 600 and "characters)" in str(error.value), str(error.value)[:600]


# =========================================================================== measures.tsv and other tables

HEADER = "measure\tdisplay\tlower_is_better\ttask\tlatex\n"


@pytest.mark.parametrize(
    ("row", "where"),
    [
        ("MAE_M\tMAE^M\tyes\tclassification\t", "line 2: column lower_is_better: 'yes' is not True or False"),
        ("MAE_M\tMAE^M\ttrue\tclassification\t", "line 2: column lower_is_better: 'true' is not True or False"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t\\input{/etc/passwd}", "line 2: column latex:"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t^^5cinput{/etc/passwd}", "line 2: column latex:"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t$x% comment", "line 2: column latex:"),
        ("../x\tx\tTrue\tclassification\t", "line 2: column measure: measure '../x' contains a path separator"),
        ("topic\tx\tTrue\tclassification\t", "line 2: column measure: measure 'topic' is a reserved word"),
        ("MAE_M\tMAE\x1b\tTrue\tclassification\t", "line 2: column display: 'MAE\\x1b' has a control character"),
    ],
)
def test_measure_tables_are_parsed_strictly(tmp_path, row, where):
    path = write(tmp_path, "measures.tsv", HEADER + row + "\n")
    with pytest.raises(InputError) as error:
        read_measure_table(path)
    assert str(error.value).startswith(f"{path}, {where}"), str(error.value)
    assert "\n" not in str(error.value)


def test_a_measure_table_as_written_reads_back_with_its_directions(tmp_path):
    rows = ["MAE_M\tMAE$^{M}$\tTrue\tclassification\tMAE$^{M}$", "kappa\tkappa\tFalse\tclassification\t$\\kappa$"]
    text = HEADER + "\n".join(rows) + "\n"
    path = tmp_path / "measures.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # a byte-order mark is dropped
    table = read_measure_table(path)
    assert table["lower_is_better"] == [True, False] and table["latex"] == ["MAE$^{M}$", "$\\kappa$"]


def test_every_registered_label_is_safe_markup_and_dangerous_markup_is_not():
    from ordeval.tasks import get_task

    for task in ("quantification", "classification"):
        registry = get_task(task).registry
        for name in registry.names():
            assert markup_problem(registry[name].properties.get("latex", "")) is None, name
    for markup in ["\\write18{rm}", "\\catcode`\\^=7", "{", "$x", "a\\\\b", "\\def\\x{}", "~", "a#1", "x&y"]:
        assert markup_problem(markup), markup


def test_a_table_with_a_bad_number_names_line_and_column(tmp_path):
    path = write(tmp_path, "t.tsv", "a\tb\n1\t2\n3\tx\n")
    with pytest.raises(InputError, match=r"t.tsv, line 3: column b: 'x' is not a number"):
        Table.read(path, numeric=["b"])
    path.write_bytes(b"a\tb\n1\t\xff\n")
    with pytest.raises(InputError, match=r"t.tsv, line 2: not UTF-8"):
        Table.read(path)


def test_a_score_matrix_with_a_byte_order_mark_reads_and_is_recognised(tmp_path):
    path = tmp_path / "NMD.tsv"
    path.write_bytes(b"\xef\xbb\xbftopic\tR1\tR2\nt1\t0.1\t0.2\n")
    assert is_score_table(path)
    topics, runs, values = read_score_matrix(path)
    assert topics == ["t1"] and runs == ["R1", "R2"] and values.tolist() == [[0.1, 0.2]]


def test_deeply_nested_json_is_one_line(tmp_path):
    path = write(tmp_path, "deep.json", "[" * 200_000 + "]" * 200_000)
    with pytest.raises(InputError, match=r"deep.json: invalid JSON: nested too deeply"):
        load_json(path)
    checked = check_file(path, "quantification", "ntcir_annotations", [0, 1, 2], score="A")
    assert [str(problem) for problem in checked.problems] == [
        f"{path}: invalid JSON: nested too deeply (arrays or objects inside each other)"
    ]


def test_the_parsing_split_keeps_each_module_readable():
    for module in ("parsing.py", "fields.py"):
        assert len((REPO / "src" / "ordeval" / "io" / module).read_text().splitlines()) <= 600


# =========================================================================== faults


def test_a_write_error_names_the_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out" / "table.csv"

    def full_disk(temporary):
        Path(temporary).write_text("partial")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match=r"No space left on device: '.*table.csv'") as error:
        write_atomically(target, full_disk)
    assert error.value.errno == 28 and error.value.filename == str(target)
    assert os.listdir(target.parent) == []


def test_a_job_removes_what_a_killed_run_of_it_left_beside_its_outputs_and_nothing_else(tmp_path):
    """The temporaries of write_atomically named after a job's output (``.<name>.<8 characters>``) are removed when
    the job starts again (ordeval.workflow.scripting.job); other files, and temporaries of other outputs, stay."""
    folder = tmp_path / "results" / "x" / "figures" / "dp_curves"
    folder.mkdir(parents=True)
    own = [folder / ".Sem17T4E.png.xwx2fo4o", folder / ".Sem17T4E.png.ab_cd123"]
    kept = [
        folder / "Sem17T4E.png",
        folder / ".Sem16T4E.png.ab_cd123",
        folder / ".keep",
        folder / ".Sem17T4E.png.short",
    ]
    for path in [*own, *kept]:
        path.write_bytes(b"")
    assert sorted(remove_temporaries([folder / "Sem17T4E.png", folder / "Sem17T4E.pdf"])) == sorted(own)
    assert sorted(os.listdir(folder)) == sorted(path.name for path in kept)
    assert remove_temporaries([tmp_path / "nowhere" / "a.csv"]) == []


def _engine(monkeypatch, script: str):
    monkeypatch.setattr(report, "tex_engine", lambda: ["sh", "-c", script, "sh"])


def test_a_failed_pdf_build_leaves_no_build_files_and_the_next_one_works(tmp_path, monkeypatch):
    tex = write_text_file(tmp_path / "ordeval.tex")
    _engine(monkeypatch, "touch ordeval-partial.aux ordeval-partial.fdb_latexmk ordeval-partial.pdf; exit 1")
    with pytest.raises(report.ReportError, match="LaTeX failed on .*ordeval.tex"):
        report.compile_pdf(tex)
    assert sorted(os.listdir(tmp_path)) == ["ordeval.tex"]
    _engine(monkeypatch, "test ! -e ordeval-partial.aux && echo pdf > ordeval-partial.pdf")
    assert report.compile_pdf(tex).read_text() == "pdf\n"
    assert sorted(os.listdir(tmp_path)) == ["ordeval.pdf", "ordeval.tex"]


def test_a_killed_pdf_build_is_cleaned_by_the_next_one(tmp_path, monkeypatch):
    tex = write_text_file(tmp_path / "ordeval.tex")
    for name in ("ordeval-partial.running", "ordeval-partial.aux", "ordeval-partial.fdb_latexmk"):
        (tmp_path / name).write_bytes(b"\0\0")  # what a run killed on a full disk leaves
    _engine(monkeypatch, "test ! -e ordeval-partial.aux && echo pdf > ordeval-partial.pdf")
    assert report.compile_pdf(tex).read_text() == "pdf\n"
    assert sorted(os.listdir(tmp_path)) == ["ordeval.pdf", "ordeval.tex"]


def write_text_file(path: Path) -> Path:
    write_text("\\documentclass{article}\\begin{document}x\\end{document}\n", path)
    return path


def test_figures_leave_no_temporary_font_folder(tmp_path):
    environment = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    (tmp_path / "tmp").mkdir()
    code = "import ordeval.reports.figures, matplotlib; print(matplotlib.rcParams['font.family'][0])"
    for _ in range(2):  # derived once, then reused
        result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "DejaVu Sans ordeval"
    assert os.listdir(tmp_path / "tmp") == []
    assert len(list((tmp_path / "mpl").glob("DejaVuSans-ordeval-*.ttf"))) == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c["datasets"]["Sem16T4E"]["runs"][1].update(systems=10**6),
        lambda c: c["datasets"]["Sem16T4E"]["gold"].update(topics=10**9),
        lambda c: c["significance"].update(hsd_trials=10**9),
        lambda c: c["datasets"]["Sem16T4C"].update(classes=list(range(10_000))),
    ],
)
def test_the_sizes_of_the_issue_are_refused_on_the_default_configuration(change):
    config = load_yaml(REPO / "config" / "config.yaml")
    change(config)
    started = time.monotonic()
    with pytest.raises(ConfigError, match=r"too (large|long) for this machine|classes: a list of 10000 entries"):
        make_plan(config, workdir=REPO)
    assert time.monotonic() - started < 5


def _dumped(change):
    """The default configuration after ``change`` (a function of the dict), as YAML text."""

    def text(config):
        import yaml

        change(config)
        return yaml.safe_dump(config, sort_keys=False)

    return text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            _dumped(lambda c: c["consistency"].update(alpha=float("nan"))),
            "config key consistency.alpha: nan is not a finite number",
        ),
        (_dumped(lambda c: c.update(seed=10**30)), "config key seed: 1000000000000000000000000000000 is greater"),
        (
            _dumped(lambda c: c["significance"].update(hsd_trials=10**9)),
            "config key datasets: too long for this machine",
        ),
        (lambda c: "seed: 5\n" + _dumped(lambda c: None)(c), "duplicate key 'seed' (first at line 1)"),
        (
            lambda c: (
                ALIAS_BOMB.replace("name: *i\nseed: 1\ndatasets: {}\n", "")
                + _dumped(lambda c: c.update(description="x"))(c).replace("description: x", "description: *i")
            ),
            "(an alias bomb?)",
        ),
    ],
)
def test_ordeval_run_refuses_before_writing_anything(tmp_path, text, expected):
    config = load_yaml(REPO / "config" / "config.yaml")
    config["name"] = f"hostile-{tmp_path.name}"
    path = write(tmp_path, "c.yaml", text(config))
    result = subprocess.run(
        [sys.executable, "-m", "ordeval", "run", "--dry-run", "--configfile", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr and result.stderr.count("\n") == 1 and len(result.stderr) < 700, result.stderr
    assert not (REPO / "results" / config["name"]).exists()
