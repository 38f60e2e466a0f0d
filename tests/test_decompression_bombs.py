"""Archives checked from their headers before any array is read (issue 54, item 2).

Class: an ``.npz`` that unpacks to far more than its size, or declares arrays its bytes do not hold. Members:
every archive ordeval reads -- ``stack.npz`` (ordeval topics, leaderboard, every job that reads a stack),
``arrays.npz`` (a data set's arrays), ``pvalues.npz``, and any archive ``ordeval diff`` and ``ordeval reference``
fingerprint. Each is refused in one line naming it, in bounded memory, and a stale one is not read at all."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import peak
from conftest import tiny_config

from ordeval.io.archives import Archive
from ordeval.io.errors import InputError
from ordeval.tasks.stack import ScoreStack, load_stack, read_stack, score_files, write_scores

BOMB_ELEMENTS = 60_000_000  # 480 MB of zeros, about 470 KB compressed (decompressed: a peak over 480 MB)


def bomb(path: Path, name: str = "values", elements: int = BOMB_ELEMENTS, stored: dict | None = None) -> Path:
    """An .npz with a compressed array of ``elements`` zeros (and ``stored`` arrays beside it, uncompressed)."""
    with zipfile.ZipFile(path, "w") as archive:
        for key, array in (stored or {}).items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
            archive.writestr(f"{key}.npy", buffer.getvalue())
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (elements,)})
        info = zipfile.ZipInfo(f"{name}.npy")
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as member:
            member.write(header.getvalue())
            block = bytes(1 << 24)
            for start in range(0, 8 * elements, len(block)):
                member.write(block[: min(len(block), 8 * elements - start)])
    return path


def scores_folder(folder: Path) -> Path:
    stack = ScoreStack(["NMD", "JSD"], ["t1", "t2", "t3"], ["A", "B"], np.arange(12.0).reshape(2, 3, 2) / 20)
    write_scores(stack, score_files(stack, folder))
    return folder


def test_a_compressed_stack_is_refused_from_its_headers_in_bounded_memory(tmp_path):
    folder = scores_folder(tmp_path / "scores")
    bomb(folder / "stack.npz")
    assert (folder / "stack.npz").stat().st_size < 1_000_000
    status, err, mib = peak(["topics", str(folder)])
    assert status == 2 and "Traceback" not in err
    assert f"{folder / 'stack.npz'}: not a score stack as ordeval writes it (array 'values' is compressed" in err
    assert mib < 200, f"peak {mib} MiB"


def test_diff_refuses_a_compressed_archive_in_bounded_memory(tmp_path):
    from test_diff import _manifest, _write

    for side in ("old", "new"):
        _write(tmp_path / side, "data/X/notes.txt", "1 2 3\n")
        np.savez(tmp_path / side / "data/X/arrays.npz", gold=np.arange(3.0))
    bomb(tmp_path / "new/data/X/arrays.npz", "gold")
    for side in ("old", "new"):
        _manifest(tmp_path / side)
    status, err, mib = peak(["diff", str(tmp_path / "old"), str(tmp_path / "new")])
    assert status == 2 and "array 'gold' is compressed" in err and "Traceback" not in err, err
    assert mib < 200, f"peak {mib} MiB"


def test_reference_refuses_a_compressed_archive(tmp_path):
    from test_diff import _manifest, _write

    _write(tmp_path / "results", "data/X/notes.txt", "1 2 3\n")
    bomb(tmp_path / "results/data/X/arrays.npz", "gold", elements=1000)
    _manifest(tmp_path / "results")
    status, err, _ = peak(["reference", str(tmp_path / "results"), str(tmp_path / "ref")])
    assert status == 2 and "data/X/arrays.npz: not an archive of arrays as ordeval writes it" in err
    assert not (tmp_path / "ref").exists()


@pytest.mark.parametrize(
    ("write", "problem"),
    [
        (lambda path: bomb(path, elements=10), "array 'values' is compressed"),
        (lambda path: path.write_bytes(b"PK\x03\x04" + bytes(60)), "File is not a zip file"),
        (lambda path: _lying_header(path), "its header (float64, shape (1000,)) does not fit its 136 bytes"),
        (lambda path: _foreign_member(path), "member 'notes.txt' is not an array (.npy)"),
        (lambda path: np.savez(path, values=np.array([object()], dtype=object)), "holds Python objects"),
    ],
)
def test_archives_that_are_not_what_ordeval_writes(tmp_path, write, problem):
    path = tmp_path / "stack.npz"
    write(path)
    with pytest.raises(InputError, match="not a score stack as ordeval writes it") as caught:
        load_stack(path)
    assert problem in str(caught.value) and str(caught.value).startswith(str(path))


def _lying_header(path: Path) -> None:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": "<f8", "fortran_order": False, "shape": (1000,)})
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("values.npy", buffer.getvalue() + bytes(8 * 1))


def _foreign_member(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "hello")


def test_a_missing_or_misshapen_array_is_found_before_any_array_is_read(tmp_path, monkeypatch):
    folder = scores_folder(tmp_path / "scores")
    read = []
    original = Archive.read
    monkeypatch.setattr(Archive, "read", lambda self, name: read.append(name) or original(self, name))
    with np.load(folder / "stack.npz") as data:
        arrays = {name: data[name] for name in data.files}
    np.savez(folder / "stack.npz", **{name: array for name, array in arrays.items() if name != "values"})
    with pytest.raises(InputError, match="no array 'values'"):
        load_stack(folder / "stack.npz")
    assert read == []
    np.savez(folder / "stack.npz", **{**arrays, "values": np.zeros((2, 30, 2))})
    with pytest.raises(InputError, match=r"array 'values' has shape \(2, 30, 2\), its labels say \(2, 3, 2\)"):
        load_stack(folder / "stack.npz")
    assert "values" not in read


def test_a_stale_stack_s_scores_are_not_read(tmp_path, monkeypatch):
    folder = scores_folder(tmp_path / "scores")
    (folder / "NMD.tsv").write_text((folder / "NMD.tsv").read_text().replace("0.0", "0.5", 1))
    read = []
    original = Archive.read
    monkeypatch.setattr(Archive, "read", lambda self, name: read.append(name) or original(self, name))
    stack = read_stack(folder / "stack.npz")
    assert stack.values[0, 0, 0] == 0.5  # from the tables
    assert "values" not in read  # a stale stack's scores are never read


def test_stale_arrays_of_a_data_set_are_not_read(tmp_path, monkeypatch):
    from conftest import build_and_score

    from ordeval.tasks.quantification.data import read_arrays
    from ordeval.workflow.plan import plan

    config = tiny_config()
    config["datasets"] = {"TinySem": config["datasets"]["TinySem"]}
    monkeypatch.chdir(tmp_path)
    planned = plan(config, workdir=tmp_path)
    build_and_score(planned)
    folder = tmp_path / "results" / "tiny" / "data" / "TinySem"
    read = []
    original = Archive.read
    monkeypatch.setattr(Archive, "read", lambda self, name: read.append(name) or original(self, name))
    gold = folder / "gold.tsv"
    gold.write_text(gold.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # the table changed: stale arrays
    assert read_arrays(folder / "arrays.npz", [-2, -1, 0, 1, 2], gold, folder / "runs.tsv") is None
    assert not {"gold", "runs"} & set(read)


def test_stale_p_values_are_not_read(tmp_path, monkeypatch):
    from ordeval.analysis.significance import _read_arrays

    tsv = tmp_path / "pvalues.tsv"
    tsv.write_text("x\n")
    np.savez(
        tmp_path / "pvalues.npz",
        measures=np.array(["NMD"]),
        runs=np.array(["A", "B"]),
        means=np.zeros((1, 2)),
        p_values=np.zeros((1, 1)),
        tsv_sha256=np.array("0" * 64),
    )
    read = []
    original = Archive.read
    monkeypatch.setattr(Archive, "read", lambda self, name: read.append(name) or original(self, name))
    assert _read_arrays(tsv, tmp_path / "pvalues.npz") is None
    assert read == ["tsv_sha256"]
