"""The data layer of the ordinal classification task: strict parsing, readers, pairing runs with the gold,
the simulator, data set building, canonical tables, the Task object and its scoring."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED_RAW, built, canonical_files, shared_file

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.fields import read_fields
from ordeval.io.parsing import load_json, parse_integer, parse_number, physical_lines, read_text
from ordeval.stats.seeding import stream
from ordeval.tasks import get_task
from ordeval.tasks.classification import TASK, ClassificationData, data, readers, simulate

CLASSES = [-2, -1, 0, 1, 2]
LABELS = ["-2", "-1", "0", "1", "2"]
SEM16_GOLD = "Sem16T4CE/twitter-2016test-CE.txt"
SEM16_POTTS = "Sem16T4CE/runs/PotTS.SubtaskC.res.official.txt"
SEM17_GOLD = "Sem17T4CE/SemEval2017_task4_subtaskC_test_english_gold.txt"


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def lines(*rows: str) -> str:
    return "".join(row + "\n" for row in rows)


def raises(match: str):
    return pytest.raises(InputError, match=match)


def real(relative: str) -> Path:
    return shared_file(relative)


GOLD_ROWS = ("101\tta\t0", "102\tta\t1", "103\tta\t-2", "201\ttb\t2", "202\ttb\t0")


@pytest.fixture
def gold_file(tmp_path) -> Path:
    return write(tmp_path, "gold.txt", lines(*GOLD_ROWS))


def gold_of(path: Path) -> readers.Gold:
    return readers.gold_items(readers.read_semeval_labels(path, CLASSES))


# =========================================================================== parsing


class TestParsing:
    def test_not_utf8_names_physical_line_and_offset(self, tmp_path):
        path = write(tmp_path, "bad.txt", b"a\tb\tc\n" * 6 + b"x\t\xff\t1\n")
        with raises(r"bad\.txt, line 7: not UTF-8: byte 0xff at line 7 \(byte offset 38\)"):
            read_fields(path, ["a", "b", "c"])
        with raises("line 7: not UTF-8: byte 0xff at line 7"):
            read_text(path)

    def test_not_utf8_after_bom(self, tmp_path):
        path = write(tmp_path, "bad.txt", b"\xef\xbb\xbfa\tb\n\xc3(\tb\n")
        with raises(r"line 2: not UTF-8: byte 0xc3 at line 2 \(byte offset 7\)"):
            read_fields(path, ["a", "b"])

    @pytest.mark.parametrize("separator", ["\f", "\u2028", "\u0085", "\v", "\x1c", "\u2029"])
    def test_line_numbers_do_not_drift(self, tmp_path, separator):
        text = lines("1\tt\t0", f"2\tto{separator}pic\t1", f"3{separator}x\tt\t2", "4\tt\t7")
        path = write(tmp_path, "runs.txt", text)
        fields = read_fields(path, readers.SEMEVAL_FIELDS)
        assert fields.numbers.tolist() == [1, 2, 3, 4]
        assert fields.column(1)[1] == f"to{separator}pic"
        with raises(r"runs\.txt, line 4: unknown class label '7'"):
            readers.read_semeval_labels(path, CLASSES)
        assert physical_lines(text)[3] == "4\tt\t7"

    def test_bom_crlf_and_blank_lines(self, tmp_path):
        path = write(tmp_path, "g.txt", b"\xef\xbb\xbf1\tt\t0\r\n\r\n\n2\tt\t-1\r\n3\tt\t2")
        table = readers.read_semeval_labels(path, CLASSES)
        assert table.fields.numbers.tolist() == [1, 4, 5]
        assert table.fields.column(0) == ["1", "2", "3"]
        assert table.labels.tolist() == [2, 1, 4]

    @pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\n\n", b"\r\n"])
    def test_empty_file(self, tmp_path, content):
        path = write(tmp_path, "empty.txt", content)
        with raises(r"empty\.txt: file is empty"):
            read_fields(path, ["a"])

    def test_whitespace_only_text_file_is_empty(self, tmp_path):
        with raises("file is empty"):
            read_text(write(tmp_path, "blank.json", b" \n\t\n"))

    def test_nul_byte(self, tmp_path):
        path = write(tmp_path, "nul.txt", b"a\tb\nc\x00\td\n")
        with raises(r"line 2: NUL byte"):
            read_fields(path, ["a", "b"])

    def test_wrong_field_count_first_bad_line(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", "2\tt", "3\tt\t1\textra"))
        with raises(r"g\.txt, line 2: expected 3 tab-separated fields \(tweet id, topic, label\), found 2"):
            readers.read_semeval_labels(path, CLASSES)

    def test_header(self, tmp_path):
        path = write(tmp_path, "t.tsv", lines("", "topic\titem\tlab", "t\t1\t0"))
        with raises(r"t\.tsv, line 2: header must be 'topic\\titem\\tlabel'"):
            readers.read_canonical_gold(path, CLASSES)
        with raises("file holds a header but no rows"):
            readers.read_canonical_gold(write(tmp_path, "h.tsv", lines("topic\titem\tlabel")), CLASSES)

    @pytest.mark.parametrize(
        "text",
        ["0.03_7", "nan", "NaN", " 1", "1 ", "1_000", "inf", "-Infinity", "1e", "+", ".", "0x1f", "1,5", "", "１"],
    )
    def test_strict_numbers_rejected(self, tmp_path, text):
        path = write(tmp_path, "n.tsv", lines("a\t0.5", f"b\t{text}"))
        with raises(re.escape(f"n.tsv, line 2: value {text!r} is not a number")):
            read_fields(path, ["key", "value"]).floats(1)
        with raises("is not a number"):
            parse_number(text, path, "line 2", "value")

    def test_strict_numbers_accepted(self, tmp_path):
        texts = ["1", "1.", ".5", "-3e-2", "+4E5", "007", "0.25", "-0"]
        path = write(tmp_path, "n.tsv", lines(*(f"k\t{text}" for text in texts)))
        assert read_fields(path, ["key", "value"]).floats(1).tolist() == [float(text) for text in texts]
        assert [parse_number(text, path, None) for text in texts] == [float(text) for text in texts]
        with raises(r"line 2: value '1e999' is out of range"):
            read_fields(write(tmp_path, "o.tsv", lines("k\t1", "k\t1e999")), ["key", "value"]).floats(1)
        with raises("out of range"):
            parse_number("-1e400", path, None)

    def test_strict_integers(self, tmp_path):
        path = write(tmp_path, "i.tsv", lines("k\t-12", "k\t+3", "k\t1.0"))
        fields = read_fields(path, ["key", "count"])
        with raises(r"line 3: count '1\.0' is not an integer"):
            fields.integers(1)
        assert fields.take(slice(0, 2)).integers(1).tolist() == [-12, 3]
        assert parse_integer("-2", path, None) == -2
        big = write(tmp_path, "b.tsv", lines("k\t+123456789012345678", "k\t1234567890123456789"))
        with raises(r"line 2: count '1234567890123456789' is too large"):
            read_fields(big, ["key", "count"]).integers(1)
        for text in (" 1", "1_0", "2.", "", "1" * 19):
            with raises("is not an integer"):
                parse_integer(text, path, None)

    def test_lookup_and_categories(self, tmp_path):
        path = write(tmp_path, "c.tsv", lines("a\tRUN-LONG-NAME", "b\tx", "c\tx", "d\tRUN-LONG-NAME", "e\t"))
        fields = read_fields(path, ["key", "run"])
        assert fields.lookup(1, ["x", "RUN-LONG-NAME"]).tolist() == [1, 0, 0, 1, -1]
        assert fields.lookup(1, ["x", "y"]).tolist() == [-1, 0, 0, -1, -1]
        names, codes = fields.categories(1)
        assert names == ["RUN-LONG-NAME", "x", ""] and codes.tolist() == [0, 1, 1, 0, 2]

    def test_categories_of_interleaved_values(self, tmp_path):
        values = ["A", "CC", "LONG-NAME", "B"] * 5000  # too many blocks for the block path
        path = write(tmp_path, "v.tsv", lines(*(f"{i}\t{value}" for i, value in enumerate(values))))
        names, codes = read_fields(path, ["key", "value"]).categories(1)
        assert names == ["A", "CC", "LONG-NAME", "B"] and codes[:8].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]

    def test_json_duplicate_keys(self, tmp_path):
        path = write(tmp_path, "r.json", '[{"id": 1}, {"id": 2, "quality": {"A": {"0": 1}, "A": {"1": 1}}}]')
        with raises(r"r\.json, record 2\['quality'\]: duplicate key 'A'"):
            load_json(path)
        with raises(r"top-level object: duplicate key 'x'"):
            load_json(write(tmp_path, "o.json", '{"x": 1, "x": 2}'))

    def test_json_errors(self, tmp_path):
        with raises("invalid JSON: NaN is not a JSON number"):
            load_json(write(tmp_path, "n.json", '[{"p": NaN}]'))
        with raises(r"line 2 column 1: invalid JSON"):
            load_json(write(tmp_path, "b.json", '[{"p": 1}\n'))
        with raises("line 2: not UTF-8: byte 0xfe"):
            load_json(write(tmp_path, "u.json", b'[\n{"p": "\xfe"}]'))
        assert load_json(write(tmp_path, "ok.json", b'\xef\xbb\xbf[{"id": "x\\u2028y", "a": [1, {"b": 2}]}]')) == [
            {"id": "x\u2028y", "a": [1, {"b": 2}]}
        ]

    def test_semeval_file_of_500000_lines_parses_fast(self, tmp_path):
        count = 500_000
        rng = np.random.default_rng(0)
        ids = (np.arange(count) * 7919 + 600000000000000000).astype(str)
        topics = np.char.add("topic ", (np.arange(count) // 200).astype(str))
        labels = np.array(LABELS)[rng.integers(0, 5, count)]
        text = "\n".join(map("\t".join, zip(ids.tolist(), topics.tolist(), labels.tolist(), strict=True))) + "\n"
        path = write(tmp_path, "big.txt", text)
        start = time.perf_counter()
        gold = gold_of(path)
        elapsed = time.perf_counter() - start
        assert len(gold) == count and len(gold.topics) == 2500
        assert elapsed < 5.0, f"{count} lines took {elapsed:.2f} s"


# =========================================================================== readers


class TestReaders:
    def test_semeval_labels(self, gold_file):
        gold = gold_of(gold_file)
        assert gold.items == ["101", "102", "103", "201", "202"]
        assert gold.topics == ["ta", "tb"]
        assert gold.item_topic.tolist() == [0, 0, 0, 1, 1]
        assert gold.labels.tolist() == [2, 3, 0, 4, 2]

    def test_unknown_label(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", "2\tt\t3"))
        with raises(r"g\.txt, line 2: unknown class label '3'; classes are -2, -1, 0, 1, 2"):
            readers.read_semeval_labels(path, CLASSES)

    @pytest.mark.parametrize("label", ["+1", "01", "-0"])
    def test_labels_are_compared_as_strings(self, tmp_path, label):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", f"2\tt\t{label}"))
        with raises(re.escape(f"line 2: unknown class label '{label}'")):
            readers.read_semeval_labels(path, CLASSES)

    @pytest.mark.parametrize("label", ["x", " 1", "1.0", "nan", ""])
    def test_label_not_an_integer(self, tmp_path, label):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", f"2\tt\t{label}"))
        with raises(re.escape(f"g.txt, line 2: label {label!r} is not an integer; classes are -2, -1, 0, 1, 2")):
            readers.read_semeval_labels(path, CLASSES)

    def test_string_classes(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\tneg", "2\tt\tpos", "3\tt\tmid"))
        assert readers.read_semeval_labels(path, ["neg", "mid", "pos"]).labels.tolist() == [0, 2, 1]
        with raises("line 2: unknown class label 'pos'; classes are neg, mid"):
            readers.read_semeval_labels(path, ["neg", "mid"])

    def test_empty_topic(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", "2\t\t1"))
        with raises(r"g\.txt, line 2: empty topic field"):
            readers.read_semeval_labels(path, CLASSES)

    def test_empty_id_in_gold(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", "\tt\t1"))
        with raises(r"g\.txt, line 2: empty id field"):
            gold_of(path)

    def test_duplicate_item_in_gold_names_both_lines(self, tmp_path):
        path = write(tmp_path, "g.txt", lines("1\tt\t0", "2\tt\t1", "3\tu\t1", "2\tt\t0"))
        with raises(r"g\.txt, line 4: duplicate item '2' in topic 't' \(also at line 2\)"):
            gold_of(path)

    def test_same_id_under_two_topics_is_two_items(self, tmp_path):
        gold = gold_of(write(tmp_path, "g.txt", lines("7\tt\t0", "7\tu\t1")))
        assert gold.items == ["7", "7"] and gold.topics == ["t", "u"]

    def test_canonical_gold(self, tmp_path):
        path = write(tmp_path, "gold.tsv", lines("topic\titem\tlabel", "ta\t101\t0", "tb\t201\t-2"))
        gold = readers.gold_items(readers.read_canonical_gold(path, CLASSES))
        assert gold.items == ["101", "201"] and gold.topics == ["ta", "tb"] and gold.labels.tolist() == [2, 0]

    def test_canonical_runs_many_runs(self, tmp_path, gold_file):
        rows = [
            f"{t}\t{i}\t{run}\t{label}" for run in ("A", "B", "C") for i, t, label in (r.split("\t") for r in GOLD_ROWS)
        ]
        path = write(tmp_path, "runs.tsv", lines("topic\titem\trun\tlabel", *rows))
        tables = readers.read_canonical_runs(path, CLASSES)
        assert list(tables) == ["A", "B", "C"]
        assert list(readers.read_canonical_runs(path, CLASSES, ["C", "A"])) == ["C", "A"]
        with raises(r"runs\.tsv: has no run\(s\) D; it holds A, B, C"):
            readers.read_canonical_runs(path, CLASSES, ["D"])
        gold = gold_of(gold_file)
        assert readers.pair(tables["B"], gold).tolist() == gold.labels.tolist()
        assert readers.tsv_run_names(path) == ["A", "B", "C"]
        assert readers.tsv_run_names(tmp_path / "absent.tsv") == []

    def test_canonical_runs_errors(self, tmp_path):
        header = "topic\titem\trun\tlabel"
        with raises(r"r\.tsv, line 3: empty run field"):
            readers.read_canonical_runs(write(tmp_path, "r.tsv", lines(header, "t\t1\tA\t0", "t\t2\t\t0")), CLASSES)
        with raises(r"r\.tsv, line 2: unknown class label '5'"):
            readers.read_canonical_runs(write(tmp_path, "r.tsv", lines(header, "t\t1\tA\t5")), CLASSES)
        with raises(r"r\.tsv, line 2: expected 4 tab-separated fields"):
            readers.read_canonical_runs(write(tmp_path, "r.tsv", lines(header, "t\t1\t0")), CLASSES)


class TestPairing:
    def run(self, tmp_path, *rows, name="run.txt") -> readers.LabelTable:
        return readers.read_semeval_labels(write(tmp_path, name, lines(*rows)), CLASSES)

    def test_by_id_any_order(self, tmp_path, gold_file):
        gold = gold_of(gold_file)
        run = self.run(tmp_path, "202\ttb\t-1", "101\tta\t1", "201\ttb\t2", "103\tta\t-2", "102\tta\t0")
        assert readers.pair(run, gold, "id").tolist() == [3, 2, 0, 4, 1]

    def test_by_id_same_order_fast_path(self, tmp_path, gold_file):
        gold = gold_of(gold_file)
        run = self.run(tmp_path, *(row[:-2] + "\t1" if row.endswith("\t0") else row for row in GOLD_ROWS))
        assert readers.pair(run, gold).tolist() == [3, 3, 0, 4, 3]

    def test_missing_item_names_one_and_the_count(self, tmp_path, gold_file):
        run = self.run(tmp_path, "101\tta\t1", "201\ttb\t2", "102\tta\t0")
        with raises(
            r"run\.txt: run 'S' misses 2 item\(s\) of the gold, e\.g\. '103' of topic 'ta' \(line 3 of .*gold\.txt\)"
        ):
            readers.pair(run, gold_of(gold_file), "id", "S")

    def test_extra_item(self, tmp_path, gold_file):
        run = self.run(tmp_path, "101\tta\t1", "102\tta\t0", "999\tta\t0", "103\tta\t0", "201\ttb\t2", "202\ttb\t2")
        with raises(r"run\.txt, line 3: item '999' \(topic 'ta'\) is not in the gold: an extra item$"):
            readers.pair(run, gold_of(gold_file), "id", "S")

    def test_duplicate_item_in_run_names_both_lines(self, tmp_path, gold_file):
        run = self.run(tmp_path, "101\tta\t1", "102\tta\t0", "103\tta\t0", "201\ttb\t2", "102\tta\t2", "202\ttb\t2")
        with raises(r"run\.txt, line 5: duplicate item '102' in topic 'ta' \(also at line 2\)"):
            readers.pair(run, gold_of(gold_file), "id", "S")

    def test_item_with_another_topic_than_in_the_gold(self, tmp_path, gold_file):
        run = self.run(tmp_path, "101\tta\t1", "102\ttb\t0", "103\tta\t0", "201\ttb\t2", "202\ttb\t2")
        with raises(r"run\.txt, line 2: item '102' has topic 'tb' in run 'S' but 'ta' in the gold \(line 2 of"):
            readers.pair(run, gold_of(gold_file), "id", "S")

    def test_empty_id_under_id_alignment(self, tmp_path, gold_file):
        run = self.run(tmp_path, "101\tta\t1", "\tta\t0", "103\tta\t0", "201\ttb\t2", "202\ttb\t2")
        with raises(r"run\.txt, line 2: empty id field"):
            readers.pair(run, gold_of(gold_file), "id", "S")

    def test_by_position_ignores_ids(self, tmp_path, gold_file):
        run = self.run(tmp_path, "1\tta\t1", "2\tta\t0", "3\tta\t-1", "4\ttb\t2", "5\ttb\t2")
        assert readers.pair(run, gold_of(gold_file), "position").tolist() == [3, 2, 1, 4, 4]
        run = self.run(tmp_path, "\tta\t1", "\tta\t0", "x\tta\t-1", "x\ttb\t2", "x\ttb\t2")
        assert readers.pair(run, gold_of(gold_file), "position").tolist() == [3, 2, 1, 4, 4]

    def test_by_position_topic_mismatch(self, tmp_path, gold_file):
        run = self.run(tmp_path, "1\tta\t1", "2\tta\t0", "3\ttb\t-1", "4\ttb\t2", "5\ttb\t2")
        with raises(
            r"run\.txt, line 3: topic 'tb' but the gold's item 3 \(line 3 of .*gold\.txt\) has topic 'ta'; "
            "with align: position the topics must agree line by line"
        ):
            readers.pair(run, gold_of(gold_file), "position", "S")

    def test_by_position_shorter(self, tmp_path, gold_file):
        run = self.run(tmp_path, "1\tta\t1", "2\tta\t0", "3\tta\t-1", "4\ttb\t2")
        with raises(r"run\.txt: run 'S' has 4 lines, the gold 5 items; .* the gold's item 5 \('202', line 5 of"):
            readers.pair(run, gold_of(gold_file), "position", "S")

    def test_by_position_longer(self, tmp_path, gold_file):
        run = self.run(tmp_path, "1\tta\t1", "2\tta\t0", "3\tta\t-1", "4\ttb\t2", "5\ttb\t2", "", "6\ttb\t0")
        with raises(r"run\.txt, line 7: run 'S' has 6 lines, the gold 5 items; .*this line has no gold item"):
            readers.pair(run, gold_of(gold_file), "position", "S")

    def test_sequential_ids_under_id_alignment_suggest_position(self, tmp_path, gold_file):
        run = self.run(tmp_path, "1\tta\t1", "2\tta\t0", "3\tta\t-1", "4\ttb\t2", "5\ttb\t2")
        with raises(
            r"line 1: item '1' \(topic 'ta'\) is not in the gold: an extra item; "
            r"none of the 5 lines .* use align: position"
        ):
            readers.pair(run, gold_of(gold_file), "id", "S")


# =========================================================================== simulation


class TestSimulation:
    def test_gold_is_deterministic(self):
        first = simulate.simulate_gold(stream(3, "X", "gold"), topics=20, num_classes=5)
        second = simulate.simulate_gold(stream(3, "X", "gold"), topics=20, num_classes=5)
        third = simulate.simulate_gold(stream(4, "X", "gold"), topics=20, num_classes=5)
        assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
        assert not np.array_equal(first[1], third[1])

    def test_gold_shape(self):
        item_topic, labels = simulate.simulate_gold(
            stream(1, "g"), topics=50, num_classes=5, items_min=20, items_max=400
        )
        sizes = np.bincount(item_topic, minlength=50)
        assert sizes.min() >= 20 and sizes.max() <= 400 and np.all(np.diff(item_topic) >= 0)
        shares = np.bincount(labels, minlength=5) / labels.size
        assert shares[2] + shares[3] > 0.6 and shares[3] > shares[1]  # skewed positive

    @pytest.mark.parametrize(("name", "topics"), [("Sem16T4C", 100), ("Sem17T4C", 125)])
    def test_defaults_give_many_topics_with_empty_gold_classes(self, name, topics):
        item_topic, labels = simulate.simulate_gold(stream(1, name, "gold"), topics=topics, num_classes=5)
        counts = np.zeros((topics, 5), dtype=int)
        np.add.at(counts, (item_topic, labels), 1)
        share = (counts == 0).any(axis=1).mean()
        assert 0.5 <= share <= 0.9, share

    def test_runs_are_deterministic_and_graded(self):
        item_topic, gold = simulate.simulate_gold(stream(5, "g"), topics=60, num_classes=5)
        parameters = simulate.run_parameters({"systems": 12}, 5)
        runs = simulate.simulate_runs(stream(5, "s"), stream(5, "n"), gold, item_topic, 5, **parameters)
        again = simulate.simulate_runs(stream(5, "s"), stream(5, "n"), gold, item_topic, 5, **parameters)
        assert runs.shape == (12, gold.size) and np.array_equal(runs, again)
        systems = simulate.system_parameters(stream(5, "s"), **parameters)
        assert sorted(systems["bias"]) == sorted(["none", "neutral", "majority", "extremes"] * 3)
        for system in range(12):
            errors = np.abs(runs[system] - gold)
            # errors are mostly to the neighbouring classes
            assert (errors == 1).sum() > (errors >= 2).sum()
        skills = systems["skill"]
        accuracy = (runs == gold).mean(axis=1)
        best, worst = np.argsort(skills)[-4:], np.argsort(skills)[:4]
        assert accuracy[best].mean() > accuracy[worst].mean() + 0.15
        unbiased_accuracy = [accuracy[i] for i in range(12) if systems["bias"][i] == "none"]
        unbiased_skill = [skills[i] for i in range(12) if systems["bias"][i] == "none"]
        assert np.corrcoef(unbiased_accuracy, unbiased_skill)[0, 1] > 0.9

    def test_biases(self):
        assert simulate.bias_map("neutral", 5, 3)[:, 2].tolist() == [1.0] * 5
        assert simulate.bias_map("majority", 5, 3)[:, 3].tolist() == [1.0] * 5
        extremes = simulate.bias_map("extremes", 5, 3)
        assert extremes.argmax(axis=1).tolist()[:2] == [0, 0] and extremes[4, 4] == 1 and extremes[2, 1] == 0.5
        assert np.allclose(simulate.ordinal_kernel(5, 0.25).sum(axis=1), 1)

    def test_constant_class(self):
        assert simulate.constant_class(4, 2).tolist() == [2, 2, 2, 2]

    @pytest.mark.parametrize(
        ("source", "key"),
        [
            ({"systems": 3, "skill_min": 0.9, "skill_max": 0.5}, "skill_max"),
            ({"systems": 3, "skill_min": -0.1}, "skill_min"),
            ({"systems": 0}, "systems"),
            ({"systems": 2.5}, "systems"),
            ({"systems": 3, "biases": ["sideways"]}, "biases"),
            ({"systems": 3, "biases": []}, "biases"),
            ({"systems": 3, "spread_min": 0}, "spread_min"),
            ({"systems": 3, "spread_min": 0.5, "spread_max": 0.2}, "spread_max"),
            ({"systems": 3, "spread": 0.5}, "spread"),
            ({"systems": 3, "bias_min": 0.7, "bias_max": 0.2}, "bias_max"),
            ({"systems": 3, "topic_difficulty_sd": -1}, "topic_difficulty_sd"),
            ({"systems": 3, "noise": 1}, "noise"),
            ({"skill_min": 0.1}, "systems"),
        ],
    )
    def test_impossible_run_settings(self, source, key):
        with pytest.raises(ConfigError, match=rf"datasets\.D\.runs\[1\]\.{key}: "):
            simulate.run_parameters({"type": "simulate", **source}, 5, "datasets.D.runs[1]")

    @pytest.mark.parametrize(
        ("source", "key"),
        [
            ({"topics": 0}, "topics"),
            ({"topics": 5, "items_min": 50, "items_max": 10}, "items_max"),
            ({"topics": 5, "class_shares": [0.5, 0.5]}, "class_shares"),
            ({"topics": 5, "class_shares": [0.5, 0.5, 0, 0, 0]}, r"class_shares\[2\]"),
            ({"topics": 5, "concentration": 0}, "concentration"),
            ({"topics": 5, "tweets_min": 3}, "tweets_min"),
        ],
    )
    def test_impossible_gold_settings(self, source, key):
        with pytest.raises(ConfigError, match=rf"datasets\.D\.gold\.{key}: "):
            simulate.gold_parameters({"type": "simulate_items", **source}, 5, "datasets.D.gold")


# =========================================================================== data sets


def synthetic_spec(**runs_extra) -> dict:
    return {
        "task": "classification",
        "classes": CLASSES,
        "gold": {"type": "simulate_items", "topics": 12, "items_min": 10, "items_max": 60},
        "runs": [
            {"type": "constant_class", "name": "BL-neutral", "class": 0},
            {"type": "simulate", "systems": 5, **runs_extra},
        ],
    }


class TestDatasets:
    def test_synthetic_build(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        assert dataset.run_names == ["BL-neutral", "SIM01", "SIM02", "SIM03", "SIM04", "SIM05"]
        assert dataset.topics[:2] == ["t001", "t002"] and len(dataset.topics) == 12
        assert dataset.runs.shape == (6, len(dataset.items)) and (dataset.runs[0] == 2).all()
        assert dataset.items[0] == "t001-1" and dataset.gold.max() <= 4
        assert dataset.provenance["origin"] == "synthetic"
        assert dataset.provenance["simulated_runs"] == ["SIM01", "SIM02", "SIM03", "SIM04", "SIM05"]
        assert dataset.provenance["runs"]["BL-neutral"] == {
            "source": "baseline",
            "type": "constant_class",
            "class": "0",
            "computed_from": "gold",
        }
        again = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        assert np.array_equal(again.runs, dataset.runs) and np.array_equal(again.gold, dataset.gold)
        other_seed = built(TASK, "Syn", synthetic_spec(), tmp_path, 8)
        assert not np.array_equal(other_seed.gold, dataset.gold) or not np.array_equal(other_seed.runs, dataset.runs)

    def test_file_build_and_provenance(self, tmp_path, gold_file):
        run_path = write(tmp_path, "run.txt", lines("1\tta\t1", "2\tta\t0", "3\tta\t-1", "4\ttb\t2", "5\ttb\t2"))
        runs_table = write(
            tmp_path,
            "runs.tsv",
            lines(
                "topic\titem\trun\tlabel",
                "tb\t202\tA\t0",
                "ta\t101\tA\t0",
                "ta\t102\tA\t1",
                "ta\t103\tA\t1",
                "tb\t201\tA\t2",
            ),
        )
        spec = {
            "task": "classification",
            "classes": CLASSES,
            "gold": {"type": "semeval_labels", "path": "gold.txt"},
            "runs": [
                {"type": "semeval_labels", "name": "P", "path": "run.txt", "align": "position"},
                {"type": "tsv", "path": str(runs_table)},
                {"type": "simulate", "systems": 2, "prefix": "S"},
            ],
        }
        dataset = built(TASK, "D", spec, tmp_path, 1)
        assert dataset.run_names == ["P", "A", "S01", "S02"]
        assert dataset.runs[:2].tolist() == [[3, 2, 1, 4, 4], [2, 3, 3, 4, 2]]
        provenance = dataset.provenance
        assert provenance["origin"] == "partly synthetic"
        assert provenance["gold"]["sha256"] and provenance["gold"]["source"] == "file"
        assert provenance["runs"]["P"]["align"] == "position" and provenance["runs"]["A"]["align"] == "id"
        assert provenance["runs"]["P"]["path"] == run_path.name  # as configured: relative to the data root
        assert TASK.declared_runs(spec, tmp_path) == dataset.run_names

    def test_tsv_run_against_simulated_gold(self, tmp_path):
        write(tmp_path, "runs.tsv", lines("topic\titem\trun\tlabel", "t001\tt001-1\tA\t0"))
        spec = {**synthetic_spec(), "runs": [{"type": "tsv", "path": "runs.tsv"}]}
        with raises(
            r"runs\.tsv: run 'A' misses \d+ item\(s\) of the gold, e\.g\. 't001-2' of topic 't001' \(item 2 of"
        ):
            built(TASK, "Syn", spec, tmp_path, 7)

    def test_duplicate_run_names(self, tmp_path):
        spec = synthetic_spec()
        spec["runs"].append({"type": "constant_class", "name": "SIM02", "class": 1})
        with pytest.raises(ConfigError, match=r"datasets\.Syn\.runs\[2\]: run name 'SIM02' is used twice"):
            built(TASK, "Syn", spec, tmp_path, 7)

    def test_config_errors(self, tmp_path, gold_file):
        spec = synthetic_spec()
        spec["runs"][0]["class"] = 3
        with pytest.raises(ConfigError, match=r"datasets\.Syn\.runs\[0\]\.class: '3' is not one of the classes"):
            built(TASK, "Syn", spec, tmp_path, 7)
        with pytest.raises(ConfigError, match=r"datasets\.Syn\.runs\[1\]\.skill_max"):
            built(TASK, "Syn", synthetic_spec(skill_max=2), tmp_path, 7)
        spec = {**synthetic_spec(), "gold": {"type": "semeval_labels", "path": "gold.txt"}}
        spec["runs"] = [{"type": "semeval_labels", "name": "X", "path": "gold.txt", "align": "lines"}]
        with pytest.raises(ConfigError, match=r"datasets\.Syn\.runs\[0\]\.align: 'lines' is not one of id, position"):
            built(TASK, "Syn", spec, tmp_path, 7)
        spec["runs"] = [{"type": "semeval_labels", "name": "X", "path": "absent.txt"}]
        with pytest.raises(ConfigError, match=r"absent\.txt \(asked for by datasets\.Syn\.runs\[0\]\)"):
            built(TASK, "Syn", spec, tmp_path, 7)

    def test_a_bad_run_stops_the_build_and_nothing_is_written(self, tmp_path, gold_file):
        write(tmp_path, "run.txt", lines("101\tta\t1", "102\tta\t9"))
        spec = {
            "classes": CLASSES,
            "gold": {"type": "semeval_labels", "path": "gold.txt"},
            "runs": [{"type": "semeval_labels", "name": "X", "path": "run.txt"}],
        }
        before = sorted(tmp_path.iterdir())
        with raises(r"run\.txt, line 2: unknown class label '9'"):
            built(TASK, "D", spec, tmp_path, 1)
        assert sorted(tmp_path.iterdir()) == before

    def test_canonical_round_trip(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        folder = tmp_path / "canonical"
        files = canonical_files(folder)
        TASK.write_canonical(dataset, files)
        gold_lines = (folder / "gold.tsv").read_text().splitlines()
        assert gold_lines[0] == "topic\titem\tlabel" and gold_lines[1].startswith("t001\tt001-1\t")
        run_lines = (folder / "runs.tsv").read_text().splitlines()
        assert run_lines[0] == "topic\titem\trun\tlabel" and run_lines[1] == "t001\tt001-1\tBL-neutral\t0"
        assert len(run_lines) == 1 + 6 * len(dataset.items)
        assert {line.rsplit("\t", 1)[1] for line in run_lines[1:]} <= set(LABELS)
        back = TASK.read_canonical("Syn", synthetic_spec(), files)
        assert isinstance(back, ClassificationData)
        assert back.items == dataset.items and back.topics == dataset.topics and back.run_names == dataset.run_names
        assert np.array_equal(back.gold, dataset.gold) and np.array_equal(back.runs, dataset.runs)
        assert np.array_equal(back.item_topic, dataset.item_topic)
        assert back.provenance == json.loads(json.dumps(dataset.provenance))
        assert TASK.tsv_run_names(folder / "runs.tsv") == dataset.run_names

    def test_canonical_round_trip_of_odd_names(self, tmp_path, gold_file):
        text = lines("x y\tt é\t0", "a\u2028b\tt\f2\t2", "7\tt é\t-1", "7\tt\f2\t1")
        write(tmp_path, "g.txt", text)
        spec = {
            "classes": CLASSES,
            "gold": {"type": "semeval_labels", "path": "g.txt"},
            "runs": [{"type": "semeval_labels", "name": "run é", "path": "g.txt"}],
        }
        dataset = built(TASK, "D", spec, tmp_path, 1)
        files = canonical_files(tmp_path / "c")
        TASK.write_canonical(dataset, files)
        back = TASK.read_canonical("D", spec, files)
        assert back.items == ["x y", "7", "a\u2028b", "7"] or back.items == dataset.items
        assert back.items == dataset.items and back.topics == ["t é", "t\f2"]
        assert np.array_equal(back.runs, dataset.runs)

    def test_canonical_runs_in_any_order_are_paired_by_id(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        folder = tmp_path / "c"
        files = canonical_files(folder)
        TASK.write_canonical(dataset, files)
        header, *rows = (folder / "runs.tsv").read_text().splitlines()
        order = np.random.default_rng(0).permutation(len(rows))
        (folder / "runs.tsv").write_text("\n".join([header, *(rows[i] for i in order)]) + "\n")
        back = TASK.read_canonical("Syn", synthetic_spec(), files)
        assert set(back.run_names) == set(dataset.run_names)
        for name in dataset.run_names:
            assert np.array_equal(back.runs[back.run_names.index(name)], dataset.runs[dataset.run_names.index(name)])
        # a broken canonical table is reported with its line
        rows[5] = rows[5].rsplit("\t", 1)[0] + "\t4"
        (folder / "runs.tsv").write_text("\n".join([header, *rows]) + "\n")
        with raises(r"runs\.tsv, line 7: unknown class label '4'"):
            TASK.read_canonical("Syn", synthetic_spec(), files)

    def test_large_runs_table_writes_and_reads_quickly(self, tmp_path):
        items, runs = 100_000, 10
        rng = np.random.default_rng(1)
        item_topic = np.repeat(np.arange(500), items // 500)
        dataset = ClassificationData(
            "Big",
            LABELS,
            [f"topic {t}" for t in range(500)],
            [f"RUN{r:02d}" for r in range(runs)],
            {"origin": "synthetic"},
            [str(600000000000000000 + 7919 * i) for i in range(items)],
            item_topic,
            rng.integers(0, 5, items),
            rng.integers(0, 5, (runs, items)),
        )
        start = time.perf_counter()
        files = [tmp_path / name for name in ("gold.tsv", "runs.tsv", "provenance.json")]
        data.write_canonical(dataset, *files)
        written = time.perf_counter()
        back = data.read_canonical("Big", {"classes": CLASSES}, *files)
        read = time.perf_counter()
        assert np.array_equal(back.runs, dataset.runs)
        # a million rows; 20 runs x 500,000 items (ten times more) take a few seconds each way
        assert written - start < 3 and read - written < 3, (written - start, read - written)


# =========================================================================== the task


class TestTask:
    def test_task_attributes(self):
        task = get_task("classification")
        assert task is TASK and task.short == "OC" and task.summary_suffix == "_oc"
        assert task.file_types == {"semeval_labels", "tsv"} and task.baseline_types == {"constant_class"}
        assert task.extras == ("conventions", "pooled")
        assert task.simulated_run_names({"systems": 3, "prefix": "X"}) == ["X01", "X02", "X03"]
        assert "MAE_M" in task.registry

    def test_describe(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        facts = TASK.describe(dataset)
        assert facts["topics"] == 12 and facts["runs"] == 6 and facts["classes"] == 5
        assert facts["items"] == len(dataset.items)
        assert facts["topics_with_empty_gold_class"] == int((dataset.gold_counts() == 0).any(axis=1).sum())

    def test_score(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        measures = list(TASK.registry)
        scored = TASK.score(dataset, measures)
        stack = scored.stack
        assert stack.values.shape == (len(measures), 12, 6)
        assert stack.topics == dataset.topics and stack.runs == dataset.run_names and stack.task == "classification"
        direction = dict(zip(stack.measures, stack.lower_is_better, strict=True))
        assert direction["MAE_M"] and direction["MAE_mu"] and not direction["Accuracy"] and not direction["kappa"]
        # spot checks against direct computations
        topic = 3
        in_topic = dataset.item_topic == topic
        for run in range(6):
            correct = (dataset.runs[run, in_topic] == dataset.gold[in_topic]).mean()
            assert stack.matrix("Accuracy")[topic, run] == pytest.approx(correct)
            mae = np.abs(dataset.runs[run, in_topic] - dataset.gold[in_topic]).mean()
            assert stack.matrix("MAE_mu")[topic, run] == pytest.approx(mae)
        assert np.allclose(stack.matrix("kappa")[:, 0], 0)  # a constant run
        pooled = scored.extras["pooled"]
        assert pooled.columns == ["run", *measures] and pooled["run"] == dataset.run_names
        everything = (dataset.runs == dataset.gold).mean(axis=1)
        assert np.allclose(pooled["Accuracy"], everything)
        conventions = scored.extras["conventions"]
        assert conventions.columns == ["measure", "case", "value", "cells", "runs"]
        assert set(conventions["measure"]) == set(measures)
        rows = conventions.records()
        for row in rows:
            assert 0 <= row["runs"] <= 6 and 0 <= row["cells"] <= 12 * 6 and (row["cells"] > 0) == (row["runs"] > 0)
        unpredicted = next(row for row in rows if row["measure"] == "F1_M" and "never predicts" in row["case"])
        assert unpredicted["runs"] >= 1  # the constant run never predicts most gold classes
        assert scored.extras["conventions"].to_text().startswith("measure\tcase\tvalue\tcells\truns\n")

    def test_score_subset_and_conventions_only_for_scored_measures(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        scored = TASK.score(dataset, ["MAE_mu", "kappa"])
        assert scored.stack.measures == ["MAE_mu", "kappa"]
        assert scored.extras["conventions"]["measure"][0] == "MAE_mu"
        assert set(scored.extras["conventions"]["measure"]) == {"MAE_mu", "kappa"}

    def test_score_no_measures(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        scored = TASK.score(dataset, [])
        assert scored.stack.values.shape == (0, 12, 6) and len(scored.extras["conventions"]) == 0

    def test_nan_scores_are_rejected(self, tmp_path):
        dataset = built(TASK, "Syn", synthetic_spec(), tmp_path, 7)
        name = "NaNOnTopic2"

        @TASK.registry.register(name, description="test measure: NaN on one topic")
        def nan_measure(confusion):
            values = np.zeros(confusion.shape[:2])
            if values.shape[1] > 2:
                values[1, 2] = np.nan
            return values

        try:
            with pytest.raises(ValueError, match=r"measure 'NaNOnTopic2' gave nan for run 'SIM01' on topic 't003'"):
                TASK.score(dataset, ["Accuracy", name])
        finally:
            TASK.registry._measures.pop(name)

    def test_simulated_measures_disagree(self, tmp_path):
        spec = {
            "classes": CLASSES,
            "gold": {"type": "simulate_items", "topics": 100},
            "runs": [{"type": "simulate", "systems": 12}],
        }
        stack = TASK.score(built(TASK, "Sem16T4C", spec, tmp_path, 1), ["MAE_M", "MAE_mu", "Accuracy"]).stack
        means = stack.means()
        orders = {
            tuple(np.argsort(row if lower else -row)) for row, lower in zip(means, stack.lower_is_better, strict=True)
        }
        assert len(orders) == 3  # three different rankings of the twelve systems


# =========================================================================== the real data


class TestRealData:
    def gold(self, relative):
        return gold_of(real(relative))

    def test_sem16_gold(self):
        gold = self.gold(SEM16_GOLD)
        assert len(gold) == 20632 and len(gold.topics) == 100
        counts = np.zeros((100, 5), dtype=int)
        np.add.at(counts, (gold.item_topic, gold.labels), 1)
        assert int((counts == 0).any(axis=1).sum()) == 64
        assert sum(count > 1 for count in Counter(gold.items).values()) == 76  # ids under two topics: two items

    def test_sem17_gold(self):
        gold = self.gold(SEM17_GOLD)
        assert len(gold) == 12379 and len(gold.topics) == 125
        counts = np.zeros((125, 5), dtype=int)
        np.add.at(counts, (gold.item_topic, gold.labels), 1)
        assert int((counts == 0).any(axis=1).sum()) == 103
        assert sum(count > 1 for count in Counter(gold.items).values()) == 93

    def test_potts_run_aligns_by_position_not_by_id(self):
        gold = self.gold(SEM16_GOLD)
        run = readers.read_semeval_labels(real(SEM16_POTTS), CLASSES)
        labels = readers.pair(run, gold, "position", "PotTS")
        assert labels.shape == (20632,) and 0.3 < (labels == gold.labels).mean() < 0.5
        with raises(
            r"PotTS\.SubtaskC\.res\.official\.txt, line 1: item '1' \(topic 'amy schumer'\) is not in the gold"
            r".*align: position"
        ):
            readers.pair(run, gold, "id", "PotTS")

    def test_potts_scores(self, tmp_path):
        real(SEM16_POTTS)
        spec = {
            "task": "classification",
            "classes": CLASSES,
            "gold": {"type": "semeval_labels", "path": SEM16_GOLD},
            "runs": [
                {"type": "semeval_labels", "name": "PotTS", "path": SEM16_POTTS, "align": "position"},
                {"type": "constant_class", "name": "BL-neutral", "class": 0},
            ],
        }
        dataset = built(TASK, "Sem16T4C", spec, SHARED_RAW, 1)
        assert dataset.provenance["origin"] == "real"
        assert TASK.describe(dataset)["topics_with_empty_gold_class"] == 64
        scored = TASK.score(dataset, ["MAE_M", "MAE_mu", "Accuracy"])
        pooled = dict(zip(scored.extras["pooled"]["run"], scored.extras["pooled"]["MAE_M"], strict=True))
        per_topic = dict(zip(dataset.run_names, scored.stack.means()[0], strict=True))
        # official protocol (one confusion matrix over all tweets): all-neutral is 1.2 by construction
        assert pooled["BL-neutral"] == pytest.approx(1.2)
        assert pooled["PotTS"] == pytest.approx(1.2342, abs=1e-4)
        assert per_topic["PotTS"] == pytest.approx(1.1143, abs=1e-4)
