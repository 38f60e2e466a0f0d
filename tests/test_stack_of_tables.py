"""The stack the analyses read is made from the score tables (rule score_stack): a table that is exactly the text
of the scores as computed is taken from them without parsing, a table changed since is parsed and checked, and
either way the stack is the one that parsing every table gives."""

from __future__ import annotations

import numpy as np
import pytest

from ordeval.io.errors import InputError
from ordeval.tasks.stack import ScoreStack, load_stack, stack_of_tables, write_score_table, write_scored


def scored(tmp_path, topics=5, runs=4):
    rng = np.random.default_rng(7)
    stack = ScoreStack(
        ["NMD", "RNOD", "JSD"],
        [f"t{i}" for i in range(topics)],
        [f"run{i}" for i in range(runs)],
        rng.random((3, topics, runs)) / 3,
        [True, True, True],
        ["NMD", "RNOD", "JSD"],
        "quantification",
    )
    paths = {"means": tmp_path / "means.tsv", "measures": tmp_path / "measures.tsv", "scores": tmp_path / "scores.npz"}
    write_scored(stack, paths)
    tables = [tmp_path / f"{name}.tsv" for name in stack.measures]
    for name, table in zip(stack.measures, tables, strict=True):
        write_score_table(paths["scores"], name, table)
    return stack, paths, tables


def test_unchanged_tables_give_the_scores_and_the_parsed_stack(tmp_path):
    stack, paths, tables = scored(tmp_path)
    fast = stack_of_tables(tables, paths["measures"], tmp_path / "stack.npz", paths["scores"])
    parsed = stack_of_tables(tables, paths["measures"], tmp_path / "parsed.npz")
    assert np.array_equal(fast.values, stack.values)
    assert np.array_equal(parsed.values, stack.values)
    assert (fast.topics, fast.runs, fast.lower_is_better) == (parsed.topics, parsed.runs, parsed.lower_is_better)
    # the stack records the tables it mirrors either way
    assert (tmp_path / "stack.npz").read_bytes() == (tmp_path / "parsed.npz").read_bytes()


def test_a_table_changed_by_hand_is_parsed(tmp_path):
    stack, paths, tables = scored(tmp_path)
    lines = tables[1].read_text().splitlines()
    fields = lines[2].split("\t")
    fields[3] = "0.5"
    lines[2] = "\t".join(fields)
    tables[1].write_text("\n".join(lines) + "\n")
    made = stack_of_tables(tables, paths["measures"], tmp_path / "stack.npz", paths["scores"])
    assert made.values[1, 1, 2] == 0.5
    expected = stack.values.copy()
    expected[1, 1, 2] = 0.5
    assert np.array_equal(made.values, expected)
    assert np.array_equal(load_stack(tmp_path / "stack.npz")[0].values, expected)


def test_a_changed_table_with_other_topics_is_refused_naming_it(tmp_path):
    _, paths, tables = scored(tmp_path)
    text = tables[2].read_text().replace("\nt3\t", "\nt9\t")
    tables[2].write_text(text)
    with pytest.raises(InputError, match=r"JSD\.tsv.*line 1.*topics or runs differ"):
        stack_of_tables(tables, paths["measures"], tmp_path / "stack.npz", paths["scores"])
    assert not (tmp_path / "stack.npz").exists()


def test_a_changed_table_with_a_bad_number_is_refused_naming_its_line(tmp_path):
    _, paths, tables = scored(tmp_path)
    lines = tables[0].read_text().splitlines()
    lines[4] = lines[4].rsplit("\t", 1)[0] + "\tnan"
    tables[0].write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"NMD\.tsv.*line 5.*not a number"):
        stack_of_tables(tables, paths["measures"], tmp_path / "stack.npz", paths["scores"])


def test_one_measure_of_the_scores_is_read_alone_and_equals_the_whole(tmp_path):
    """Rule score_table reads one measure's scores out of scores.npz (its bytes only: a thirteenth of the reading at
    13 measures); they, its direction and names are the whole stack's entries for that measure."""
    stack, paths, _ = scored(tmp_path, topics=7, runs=3)
    whole, _ = load_stack(paths["scores"])
    for order in (["RNOD"], ["JSD", "NMD"], ["NMD", "RNOD", "JSD"]):
        part, _ = load_stack(paths["scores"], order)
        rows = [whole.measures.index(name) for name in order]
        assert part.measures == order and np.array_equal(part.values, whole.values[rows])
        assert part.lower_is_better == [whole.lower_is_better[r] for r in rows]
        assert (part.display, part.topics, part.runs) == ([whole.display[r] for r in rows], whole.topics, whole.runs)
    with pytest.raises(InputError, match=r"scores.npz: has no scores of measure 'MAE' \(it has NMD, RNOD, JSD\)"):
        load_stack(paths["scores"], ["MAE"])


@pytest.mark.parametrize("layout", ["C", "F", "big-endian"])
def test_rows_of_an_archive_are_the_rows_of_the_whole_array(tmp_path, layout):
    from ordeval.io.archives import Archive

    values = np.arange(4 * 5 * 3, dtype=float).reshape(4, 5, 3) / 7
    stored = {"C": values, "F": np.asfortranarray(values), "big-endian": values.astype(">f8")}[layout]
    np.savez(tmp_path / "a.npz", values=stored, other=np.array(["x"]))
    with Archive(tmp_path / "a.npz") as archive:
        assert np.array_equal(archive.read_rows("values", [2, 0]), values[[2, 0]])
        assert np.array_equal(archive.read_rows("values", []), values[[]])


def test_rows_of_an_archive_cut_short_are_refused_naming_it(tmp_path):
    from ordeval.io.archives import Archive

    np.savez(tmp_path / "a.npz", values=np.zeros((3, 1000)))
    data = (tmp_path / "a.npz").read_bytes()
    with Archive(tmp_path / "a.npz") as archive:  # the file cut once it was opened (another process truncating it)
        (tmp_path / "a.npz").write_bytes(data[:2000])
        with pytest.raises(InputError, match=r"a.npz: .*array 'values': the file ends inside it"):
            archive.read_rows("values", [2])


def test_rows_of_an_archive_whose_local_header_is_not_the_directory_s_are_refused(tmp_path):
    """The rows are read from where the member's local header says its data start, once that header is found to be
    the member's (its name), as zipfile checks when it opens a member: opening the archive refuses such a file, and
    so does reading rows of one changed after it was opened."""
    from ordeval.io.archives import Archive

    np.savez(tmp_path / "a.npz", values=np.zeros((3, 4)), other=np.ones(2))
    data = bytearray((tmp_path / "a.npz").read_bytes())
    first = data.index(b"values.npy")  # the local header's copy of the name (the directory's comes last)
    data[first : first + len(b"values.npy")] = b"valuez.npy"
    with Archive(tmp_path / "a.npz") as archive:
        (tmp_path / "a.npz").write_bytes(bytes(data))  # the same file, changed once opened
        with pytest.raises(InputError, match=r"array 'values': its local header is not the one the archive's"):
            archive.read_rows("values", [1])
    with pytest.raises(InputError, match=r"array 'values': File name in directory 'values.npy' and header"):
        Archive(tmp_path / "a.npz")
