"""The readers on bad input: every error names the file and the line (non-UTF-8 text, form feeds and Unicode
separators, a number outside the strict grammar, a duplicate tweet or JSON key, JSON nested too deeply, a table
with a bad number, a run name carrying LaTeX in a score file's header), the documented tolerances are the code's
constants, the block reader reports UTF-8 errors across blocks, and random bytes give only clean input errors (a
property test)."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from input_helpers import write

from ordeval.io.errors import InputError
from ordeval.io.table import Table
from ordeval.tasks.classification import readers as oc_readers
from ordeval.tasks.quantification import canonical_tables, readers
from ordeval.tasks.stack import (
    is_score_table,
    read_score_matrix,
)

CLASSES = [-2, -1, 0, 1, 2]


def test_a_run_name_carrying_latex_in_a_score_file_header_is_rejected(tmp_path):
    path = write(tmp_path, "NMD.tsv", "topic\tR1\tR\\input{x}\nt1\t0.1\t0.2\n")
    with pytest.raises(InputError, match=r"NMD.tsv, line 1: run 'R\\\\input\{x\}' contains a path separator"):
        read_score_matrix(path)


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


def text_of(*paths: str) -> str:
    return " ".join(" ".join((REPO / path).read_text(encoding="utf-8").split()) for path in paths)


def test_each_documented_tolerance_is_the_code_s_constant():
    from ordeval.io import errors, names
    from ordeval.tasks.quantification import readers
    from ordeval.workflow import config

    # the replicator's guide holds what the README said of the replication
    methods, readme, limits = text_of("docs/methods.md"), text_of("docs/replicator.md"), text_of("docs/limits.md")
    assert f"a distribution whose sum is off by more than {readers.SUM_TOLERANCE}" in methods
    tolerance = readers.PROBABILITY_TOLERANCE
    shown = f"{tolerance:.0e}".replace("e-0", "e-")  # 1e-4
    assert f"A probability outside [-{shown}, 1 + {shown}]" in methods
    assert f"sums within {readers.SUM_TOLERANCE} of 1" in readme
    longest = 1 + int(re.search(r"\{0,(\d+)\}", names.NAME.pattern).group(1))  # a first character, then up to 63
    assert f"at most {longest} characters" in limits
    assert f"cut to about {errors.MAX_VALUE} characters" in limits
    assert f"| file size | {config.MAX_BYTES // 2**20} MiB |" in limits
    assert f"| YAML aliases (`*name`) | {config.MAX_ALIASES:,} |" in limits
    assert f"resolved | {config.MAX_MERGED_KEYS:,} |" in limits
    assert f"expanded | {config.MAX_EXPANDED:,} (" in limits
    assert f"(e.g. `classes`) | {config.MAX_ITEMS:,} (" in limits
    replication = yaml.safe_load((REPO / "config" / "replication.yaml").read_text())["replication"]["tolerance"]
    stated = re.search(r"tolerances, ([\d.]+) for a mean tau, ([\d.]+) for VE2 and (\d+) significant pairs", readme)
    assert stated and [float(value) for value in stated.groups()] == [
        replication["consistency_mean_tau"],
        replication["consistency_ve2"],
        replication["dp_significant"],
    ]
    assert re.search(r"mean tau 0\.03, VE2 0\.001, significant pairs 4", methods)


@pytest.mark.parametrize(
    ("row", "accepted"),
    [
        ("0.5\t0.49\t0\t0\t0", True),
        ("0.5\t0.51\t0\t0\t0", True),
        ("0.5\t0.4899\t0\t0\t0", False),
        ("0.5\t0.5101\t0\t0\t0", False),
        ("1.0001\t0\t0\t0\t0", True),
        ("-0.0001\t0.5\t0.5\t0\t0", True),
        ("-0.00011\t0.5\t0.5\t0\t0", False),
    ],
)
def test_a_sum_or_probability_off_by_exactly_the_tolerance_is_within_it(tmp_path, row, accepted):
    """docs/methods.md: "a distribution whose sum is off by more than 0.01" is an error; 0.99 exactly is off by
    0.01 (was refused: 1 - (0.5 + 0.49) is 0.010000000000000009 in binary)."""
    from ordeval.tasks.quantification.readers import read_semeval_dist

    path = tmp_path / "d.txt"
    path.write_text(f"t1\t{row}\n")
    if accepted:
        assert read_semeval_dist(path, [-2, -1, 0, 1, 2]).topics == ["t1"]
    else:
        with pytest.raises(InputError, match="sum to|outside"):
            read_semeval_dist(path, [-2, -1, 0, 1, 2])


def test_the_block_reader_reports_utf8_errors_across_blocks_at_their_line(tmp_path, monkeypatch):
    from ordeval.io import parsing

    monkeypatch.setattr(parsing, "READ_BLOCK", 8)
    path = tmp_path / "x.txt"
    path.write_bytes("abcd\ncdé\nfg".encode() + b"\xc3" + b"\nhi\n")  # é across two blocks, then a cut character
    with pytest.raises(InputError, match=r"line 3: not UTF-8: byte 0xc3 at line 3 \(byte offset 12\)"):
        parsing.read_text(path)
    path.write_bytes(b"\xef\xbb\xbfab\ncd\xe9\n")
    with pytest.raises(InputError, match=r"line 2: not UTF-8: byte 0xe9 at line 2 \(byte offset 8\)"):
        parsing.read_text(path)
    path.write_bytes("ab\ncdé\r\nfg".encode())
    assert list(parsing.iter_lines(path)) == [(1, "ab"), (2, "cdé"), (3, "fg")]
    assert parsing.read_text(path) == "ab\ncdé\r\nfg"
