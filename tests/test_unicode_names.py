"""Names that differ only in Unicode normalisation ('café' with a precomposed é in one file, e and a combining accent
in the other): every error that compares names read from files says so, with both forms, not just the two escaped
names. The names compared are topics and item ids (free text in the files); run, data set and measure names follow
the name policy (ASCII letters and digits), so two of them never differ only in normalisation."""

from __future__ import annotations

import unicodedata

import pytest

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.names import check_name, normalisation_hint, normalisation_twin

COMPOSED = "caf\u00e9"  # NFC
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)  # 'cafe\u0301'
HINT = "differ only in Unicode normalisation"
ROW = "\t0.2\t0.2\t0.2\t0.2\t0.2"
CLASSES = [-2, -1, 0, 1, 2]


def test_the_hint_names_both_forms_and_only_where_a_twin_exists():
    assert normalisation_twin(DECOMPOSED, ["x", COMPOSED]) == COMPOSED
    assert normalisation_twin("cafe", ["cafe", COMPOSED]) is None  # ASCII: no twin possible
    assert normalisation_twin(DECOMPOSED, [DECOMPOSED]) is None  # the same name is no twin
    hint = normalisation_hint(DECOMPOSED, [COMPOSED], "in the gold")
    assert hint == (
        "; 'cafe\\u0301' (NFD) and 'café' in the gold (NFC) differ only in Unicode normalisation: write both in "
        "one form (NFC, as most editors save)"
    )
    assert normalisation_hint("other", [COMPOSED]) == ""


def test_a_quantification_run_against_its_gold(tmp_path):
    from ordeval.tasks.quantification import readers

    path = tmp_path / "run.txt"
    path.write_text(f"{DECOMPOSED}{ROW}\nb{ROW}\n", encoding="utf-8")
    run = readers.read_semeval_dist(path, CLASSES)
    with pytest.raises(InputError, match=HINT) as error:  # the gold's 'café' is missing
        readers.align_to_gold(run, [COMPOSED, "b"], "r")
    assert "misses 1 topic(s) of the gold: 'café'; 'café' (NFC) and 'cafe\\u0301' (NFD)" in str(error.value)
    path.write_text(f"{COMPOSED}{ROW}\n{DECOMPOSED}{ROW}\nb{ROW}\n", encoding="utf-8")
    run = readers.read_semeval_dist(path, CLASSES)
    with pytest.raises(InputError, match=HINT) as error:  # every gold topic, and one more
        readers.align_to_gold(run, [COMPOSED, "b"], "r")
    assert "line 2: run 'r' has topic 'cafe\\u0301', which the gold lacks; 'cafe\\u0301' (NFD) and 'café' in the" in (
        str(error.value)
    )


def test_validate_says_so_for_a_topic_the_gold_lacks_and_the_one_the_run_misses(tmp_path, capsys):
    from ordeval.cli import main

    gold, run = tmp_path / "gold.txt", tmp_path / "run.txt"
    gold.write_text(f"{COMPOSED}{ROW}\nb{ROW}\n", encoding="utf-8")
    run.write_text(f"{DECOMPOSED}{ROW}\nb{ROW}\n", encoding="utf-8")
    arguments = ["validate", "--task", "quantification", "--format", "semeval_dist", "--gold", str(gold), str(run)]
    assert main(arguments) == 1
    out = capsys.readouterr().out
    assert "has topic 'cafe\\u0301', which the gold lacks; 'cafe\\u0301' (NFD) and 'café' in the gold (NFC)" in out
    assert "misses topic 'café' of the gold" in out and "'café' (NFC) and 'cafe\\u0301' in the run (NFD)" in out


def _labels(path, lines):
    path.write_text("".join(f"{item}\t{topic}\t{label}\n" for item, topic, label in lines), encoding="utf-8")
    return path


def test_classification_items_and_topics_paired_by_id_and_by_position(tmp_path):
    from ordeval.tasks.classification import readers

    gold = readers.gold_items(
        readers.read_semeval_labels(_labels(tmp_path / "g.txt", [(COMPOSED, "t", 0), ("2", "t", 1)]), CLASSES)
    )
    run = readers.read_semeval_labels(_labels(tmp_path / "r.txt", [(DECOMPOSED, "t", 0), ("2", "t", 1)]), CLASSES)
    with pytest.raises(InputError, match=HINT) as error:  # an item id
        readers.pair(run, gold, "id", "R")
    assert "'cafe\\u0301' (NFD) and 'café' in the gold (NFC)" in str(error.value)
    gold = readers.gold_items(
        readers.read_semeval_labels(_labels(tmp_path / "g2.txt", [("1", COMPOSED, 0), ("2", "t", 1)]), CLASSES)
    )
    run = readers.read_semeval_labels(_labels(tmp_path / "r2.txt", [("1", DECOMPOSED, 0), ("2", "t", 1)]), CLASSES)
    with pytest.raises(InputError, match=HINT):  # a topic, by id
        readers.pair(run, gold, "id", "R")
    with pytest.raises(InputError, match=HINT):  # a topic, line by line
        readers.pair(run, gold, "position", "R")


def test_score_tables_of_one_data_set(tmp_path):
    from ordeval.tasks.stack import read_score_matrices

    first, second = tmp_path / "NMD.tsv", tmp_path / "JSD.tsv"
    first.write_text(f"topic\tA\tB\n{COMPOSED}\t0.1\t0.2\nb\t0.3\t0.4\n", encoding="utf-8")
    second.write_text(f"topic\tA\tB\n{DECOMPOSED}\t0.1\t0.2\nb\t0.3\t0.4\n", encoding="utf-8")
    with pytest.raises(InputError, match=HINT):
        read_score_matrices([first, second])


@pytest.mark.parametrize("kind", ["run", "data set", "measure"])
def test_run_data_set_and_measure_names_are_ascii_so_never_differ_only_in_normalisation(kind):
    with pytest.raises(ConfigError, match="not allowed"):
        check_name(DECOMPOSED, kind=kind, key="x")
    with pytest.raises(ConfigError, match="not allowed"):
        check_name(COMPOSED, kind=kind, key="x")
