"""Readers of the native formats and of the canonical tables, on small files and on the real data."""

import json

import numpy as np
import pytest
from conftest import shared_file

from ordeval.io.errors import InputError
from ordeval.tasks.quantification import canonical_tables, readers
from ordeval.tasks.quantification.measures import get_measure

CLASSES = [-2, -1, 0, 1, 2]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- good files


def test_semeval_dist_reads_topics_in_order_and_renormalises(tmp_path):
    path = write(tmp_path, "run.txt", "b topic\t0.1\t0.2\t0.3\t0.2\t0.2\na\t0\t0\t0.5\t0.5\t0.003\n")
    result = readers.read_semeval_dist(path, CLASSES)
    assert result.topics == ["b topic", "a"]
    np.testing.assert_allclose(result.values[0], [0.1, 0.2, 0.3, 0.2, 0.2])
    np.testing.assert_allclose(result.values[1].sum(), 1.0)
    np.testing.assert_allclose(result.values[1], np.array([0, 0, 0.5, 0.5, 0.003]) / 1.003)


def test_semeval_labels_counts_labels_per_topic(tmp_path):
    lines = ["1\tx\t-2", "2\tx\t0", "3\ty\t2", "4\tx\t0", "4\ty\t2"]
    result = readers.read_semeval_labels(write(tmp_path, "gold.txt", "\n".join(lines) + "\n"), CLASSES)
    assert result.topics == ["x", "y"]
    np.testing.assert_allclose(result.values, [[1 / 3, 0, 2 / 3, 0, 0], [0, 0, 0, 0, 1]])


def test_ntcir_annotations_share_of_annotators(tmp_path):
    records = [
        {"id": 11, "annotations": [{"quality": {"A": 1, "E": 0, "S": -2}}, {"quality": {"A": 1, "E": 2, "S": -2}}]},
        {"id": 12, "annotations": [{"quality": {"A": -1, "E": 0, "S": 0}}, {"quality": {"A": 0, "E": 0, "S": 0}}]},
    ]
    path = write(tmp_path, "gold.json", json.dumps(records))
    a = readers.read_ntcir_annotations(path, CLASSES, "A")
    assert a.topics == ["11", "12"]
    np.testing.assert_allclose(a.values, [[0, 0, 0, 1, 0], [0, 0.5, 0.5, 0, 0]])
    e = readers.read_ntcir_annotations(path, CLASSES, "E")
    np.testing.assert_allclose(e.values[0], [0, 0, 0.5, 0, 0.5])


def test_ntcir_submission_missing_class_key_means_zero(tmp_path):
    records = [{"id": "7", "quality": {"A": {"-1": 0.25, "0": 0.75}, "E": {"2": 1.0}}}]
    path = write(tmp_path, "run.json", json.dumps(records))
    np.testing.assert_allclose(readers.read_ntcir_submission(path, CLASSES, "A").values, [[0, 0.25, 0.75, 0, 0]])
    np.testing.assert_allclose(readers.read_ntcir_submission(path, CLASSES, "E").values, [[0, 0, 0, 0, 1]])


def test_canonical_tables(tmp_path):
    gold = write(tmp_path, "gold.tsv", "topic\tclass\tprob\nt1\t-2\t0.5\nt1\t2\t0.5\nt2\t0\t1\n")
    result = canonical_tables.read_canonical_gold(gold, CLASSES)
    assert result.topics == ["t1", "t2"]
    np.testing.assert_allclose(result.values, [[0.5, 0, 0, 0, 0.5], [0, 0, 1, 0, 0]])
    runs = write(tmp_path, "runs.tsv", "topic\trun\tclass\tprob\nt1\tA\t0\t1\nt1\tB\t1\t1\nt2\tA\t0\t1\nt2\tB\t1\t1\n")
    result = canonical_tables.read_canonical_runs(runs, CLASSES)
    assert list(result) == ["A", "B"]
    np.testing.assert_allclose(result["B"].values, [[0, 0, 0, 1, 0], [0, 0, 0, 1, 0]])


def test_align_to_gold_reorders_topics(tmp_path):
    run = readers.read_semeval_dist(write(tmp_path, "r.txt", "b\t0\t0\t1\t0\t0\na\t1\t0\t0\t0\t0\n"), CLASSES)
    aligned = readers.align_to_gold(run, ["a", "b"], "r")
    np.testing.assert_allclose(aligned, [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0]])


# --------------------------------------------------------------------------- bad input: file, place, problem

ROW = "\t0.2\t0.2\t0.2\t0.2\t0.2"


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        ("a" + ROW + "\nb\t0.2\t0.2\t0.2\t0.2\t1.2\n", "line 2", "outside [0, 1]"),
        ("a" + ROW + "\nb\t0.2\t-0.01\t0.2\t0.2\t0.41\n", "line 2", "outside [0, 1]"),
        ("a\tnan\t0.2\t0.2\t0.2\t0.2\n", "line 1", "probability 'nan' is not a number"),
        ("a\t0.2\t0.2\t0.2\t0.2\t0.1\n", "line 1", "sum to 0.9"),
        ("a" + ROW + "\na" + ROW + "\n", "line 2", "duplicate topic 'a' (first at line 1)"),
        ("a\t0.2\t0.2\t0.2\t0.4\n", "line 1", "expected 6 tab-separated fields"),
        ("a\t0.2\t0.2\tabc\t0.2\t0.2\n", "line 1", "'abc' is not a number"),
        ("", None, "file is empty"),
        ("\n  \n", None, "file is empty"),
    ],
)
def test_semeval_dist_errors_name_file_line_and_problem(tmp_path, text, where, problem):
    path = write(tmp_path, "bad.txt", text)
    with pytest.raises(InputError) as caught:
        readers.read_semeval_dist(path, CLASSES)
    message = str(caught.value)
    assert str(path) in message
    assert problem in message
    if where:
        assert f"{path}, {where}:" in message


def test_tolerated_rounding_is_renormalised_not_rejected(tmp_path):
    # PotTS-style 3-decimal rounding: sum 1.003, a probability of -0.00005.
    path = write(tmp_path, "ok.txt", "a\t0.2\t0.2\t0.2\t0.2\t0.203\nb\t-0.00005\t0.25\t0.25\t0.25\t0.25\n")
    values = readers.read_semeval_dist(path, CLASSES).values
    np.testing.assert_allclose(values.sum(axis=1), 1)
    assert values.min() == 0


def test_unknown_label_names_line(tmp_path):
    path = write(tmp_path, "gold.txt", "1\tx\t-2\n2\tx\t3\n")
    with pytest.raises(InputError, match=r"gold.txt, line 2: unknown class label '3'"):
        readers.read_semeval_labels(path, CLASSES)


def test_ntcir_errors_name_record(tmp_path):
    bad_rating = [
        {"id": "d1", "annotations": [{"quality": {"A": 1}}]},
        {"id": "d2", "annotations": [{"quality": {"A": 5}}]},
    ]
    with pytest.raises(InputError, match=r"record 2 \(id d2\), annotation 1: unknown class label '5'"):
        readers.read_ntcir_annotations(write(tmp_path, "a.json", json.dumps(bad_rating)), CLASSES, "A")
    duplicate = [{"id": "d1", "quality": {"A": {"0": 1}}}, {"id": "d1", "quality": {"A": {"0": 1}}}]
    with pytest.raises(InputError, match=r"record 2 \(id d1\): duplicate topic 'd1'"):
        readers.read_ntcir_submission(write(tmp_path, "s.json", json.dumps(duplicate)), CLASSES, "A")
    bad_sum = [{"id": "d1", "quality": {"A": {"0": 0.5}}}]
    with pytest.raises(InputError, match=r"record 1 \(id d1\): probabilities sum to 0.5"):
        readers.read_ntcir_submission(write(tmp_path, "t.json", json.dumps(bad_sum)), CLASSES, "A")
    nan = '[{"id": "d1", "quality": {"A": {"0": NaN, "1": 1}}}]'
    with pytest.raises(InputError, match=r"n.json: invalid JSON: NaN is not a JSON number"):
        readers.read_ntcir_submission(write(tmp_path, "n.json", nan), CLASSES, "A")
    with pytest.raises(InputError, match=r"line 1 column \d+: invalid JSON"):
        readers.read_ntcir_submission(write(tmp_path, "broken.json", '[{"id": 1,'), CLASSES, "A")
    with pytest.raises(InputError, match="empty"):
        readers.read_ntcir_submission(write(tmp_path, "empty.json", ""), CLASSES, "A")
    with pytest.raises(InputError, match="no quality distribution for score 'S'"):
        readers.read_ntcir_submission(write(tmp_path, "s2.json", json.dumps([{"id": 1, "quality": {}}])), CLASSES, "S")


def test_canonical_table_errors(tmp_path):
    header = "topic\trun\tclass\tprob\n"
    with pytest.raises(InputError, match=r"line 1: header must be"):
        canonical_tables.read_canonical_runs(write(tmp_path, "a.tsv", "topic\tclass\tprob\nt\t0\t1\n"), CLASSES)
    with pytest.raises(InputError, match=r"line 3: duplicate topic 't': run 'A', class 0 already given at line 2"):
        canonical_tables.read_canonical_runs(write(tmp_path, "b.tsv", header + "t\tA\t0\t0.5\nt\tA\t0\t0.5\n"), CLASSES)
    with pytest.raises(InputError, match=r"line 2: expected 4 tab-separated fields \(topic, run, class, prob\)"):
        canonical_tables.read_canonical_runs(write(tmp_path, "c.tsv", header + "t\tA\t0\n"), CLASSES)
    with pytest.raises(InputError, match=r"line 2 \(topic 't', run 'A'\): probabilities sum to 0.5"):
        canonical_tables.read_canonical_runs(write(tmp_path, "d.tsv", header + "t\tA\t0\t0.5\n"), CLASSES)
    with pytest.raises(InputError, match=r"line 2: unknown class label '7'"):
        canonical_tables.read_canonical_gold(write(tmp_path, "e.tsv", "topic\tclass\tprob\nt\t7\t1\n"), CLASSES)


def test_run_with_missing_or_extra_topics_is_an_error(tmp_path):
    run = readers.read_semeval_dist(write(tmp_path, "r.txt", "a" + ROW + "\nz" + ROW + "\n"), CLASSES)
    with pytest.raises(InputError, match=r"r.txt: run 'r' misses 1 topic\(s\) of the gold: 'b'"):
        readers.align_to_gold(run, ["a", "b", "z"], "r")
    with pytest.raises(InputError, match=r"r.txt, line 2: run 'r' has topic 'z', which the gold lacks"):
        readers.align_to_gold(run, ["a"], "r")


def test_the_organisers_quirks_are_read_as_their_scorers_read_them(tmp_path):
    """SemEval-2016's own files: trailing tabs (LYS), no final newline, ``.01`` without a leading zero,
    sums off by 0.002 (PotTS) -- read, renormalised, and the largest deviation reported; a tab inside the
    fields (an empty field that is not trailing) is still an error."""
    text = "a\t.01\t0.2\t0.3\t0.2\t0.29\t\nb\t0.2\t0.2\t0.2\t0.2\t0.198\t\t"
    result = readers.read_semeval_dist(write(tmp_path, "run.txt", text), CLASSES)
    assert result.topics == ["a", "b"]
    np.testing.assert_allclose(result.values[0], [0.01, 0.2, 0.3, 0.2, 0.29])
    deviation, where, tolerance = result.sum_deviation()
    assert deviation == pytest.approx(0.002) and where == "line 2" and tolerance == readers.SUM_TOLERANCE
    labels = readers.read_semeval_labels(write(tmp_path, "gold.txt", "1\tx\t-2\t\n2\tx\t0"), CLASSES)
    np.testing.assert_allclose(labels.values, [[0.5, 0, 0.5, 0, 0]])
    assert labels.sum_deviation() is None
    with pytest.raises(InputError, match="line 1: expected 6 tab-separated fields"):
        readers.read_semeval_dist(write(tmp_path, "bad.txt", "a\t0.2\t\t0.2\t0.2\t0.2\t0.2\n"), CLASSES)
    with pytest.raises(InputError, match="line 2: expected 3 tab-separated fields"):  # ours stay strict
        canonical_tables.read_canonical_gold(write(tmp_path, "gold.tsv", "topic\tclass\tprob\na\t-2\t1\t\n"), CLASSES)


# --------------------------------------------------------------------------- the real files in ../shared


def test_real_sem16_gold_and_potts_run():
    gold = readers.read_semeval_labels(shared_file("Sem16T4CE/twitter-2016test-CE.txt"), CLASSES)
    assert len(gold.topics) == 100
    run = readers.read_semeval_dist(shared_file("Sem16T4CE/runs/PotTS.SubtaskE.res.official.txt"), CLASSES)
    assert sorted(run.topics) == sorted(gold.topics)
    nmd = get_measure("NMD")(readers.align_to_gold(run, gold.topics, "PotTS"), gold.values)
    # SOURCES.md: EMD 0.8177 against this gold; NMD = EMD / (K - 1).
    assert nmd.mean() == pytest.approx(0.8177 / 4, abs=0.0005)


def test_real_sem17_gold():
    gold = readers.read_semeval_dist(shared_file("Sem17T4CE/SemEval2017_task4_subtaskE_test_english_gold.txt"), CLASSES)
    assert len(gold.topics) == 125
    labels = readers.read_semeval_labels(
        shared_file("Sem17T4CE/SemEval2017_task4_subtaskC_test_english_gold.txt"), CLASSES
    )
    np.testing.assert_allclose(readers.align_to_gold(labels, gold.topics, "C gold"), gold.values, atol=1e-12)


def test_real_stc3_gold_has_390_dialogues_with_19_annotators():
    path = shared_file("STC3-DQ/stc3-nddq-test-annotations.json")
    records = json.loads(path.read_text())
    assert {len(record["annotations"]) for record in records} == {19}
    for score in "AES":
        gold = readers.read_ntcir_annotations(path, CLASSES, score)
        assert len(gold.topics) == 390
        # shares of 19 annotators
        np.testing.assert_allclose(gold.values * 19, np.rint(gold.values * 19), atol=1e-9)


def test_real_stc3_candidate_run_reads_against_the_gold():
    gold = readers.read_ntcir_annotations(shared_file("STC3-DQ/stc3-nddq-test-annotations.json"), CLASSES, "A")
    run = readers.read_ntcir_submission(shared_file("STC3-DQ/runs_candidate/1194/run0/en.json"), CLASSES, "A")
    aligned = readers.align_to_gold(run, gold.topics, "1194-run0")
    assert aligned.shape == (390, 5)
    assert 0 < get_measure("NMD")(aligned, gold.values).mean() < 0.5
