"""A hand is stored only when it is complete: files read while a poker client writes them,
cut at every line and at random bytes (inside UTF-8 characters, UTF-16 code units, CR LF),
end in the store exactly as one import of the finished file; a hand stored short by an older
version is repaired by the next import of the finished file.

The sweep over every cut reads pieces only (`read_pieces`, no database); the imports in steps
compare the store table by table with one import of the whole file.
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from razz.parser.reader import split_stream
from razz.parser.sites.base import detect_encoding
from razz.store import importer as importer_module
from razz.store.importer import Settings, import_paths
from razz.store.progress import ImportSummary
from razz.store.sources import Opener, Source, read_pieces

_spec = importlib.util.spec_from_file_location("t", Path(__file__).with_name("test_import.py"))
assert _spec is not None and _spec.loader is not None
store_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(store_tests)
hands = store_tests.hands
fingerprint = store_tests.fingerprint
assert_whole_hands = store_tests.assert_whole_hands
one = store_tests.one

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus beside the repo")
IN_PROCESS = Settings(workers=0)


def run(path: Path, db: Path) -> ImportSummary:
    return import_paths([str(path)], db, settings=IN_PROCESS)


# ------------------------------------------------------------------------ the files


def _simulated() -> str:
    from razz.simulate.simulator import file_text, simulate

    # the first file of a small run: a few cash hands, names with multibyte letters
    text = file_text(simulate(hands=8, seed=5)[0]).replace("\r\n", "\n")
    return text + hands.H1.replace("RazzHero", "Rázz Héro") + hands.H2


ENCODINGS: dict[str, Callable[[str], bytes]] = {
    "utf-8": lambda t: t.encode("utf-8"),
    "crlf": lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    "cr": lambda t: t.replace("\n", "\r").encode("utf-8"),
    "utf-8-bom": lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
    "utf-16": lambda t: t.replace("\n", "\r\n").encode("utf-16"),  # BOM, little end first
    "utf-16-be": lambda t: t.encode("utf-16-be"),  # no BOM
}


def _first_hands(path: Path, count: int) -> bytes:
    """The bytes of a real file up to the start of its hand `count + 1` (all if fewer)."""
    data = path.read_bytes()
    raws = list(split_stream(io.BytesIO(data), path.name))
    if len(raws) <= count:
        return data
    from razz.store.sources import _line_start

    return data[: _line_start(data, raws[count].first_line)]


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md")


# ------------------------------------------------------------------------ every cut


def _accepted(path: Path, data: bytes) -> bytes:
    """The bytes an import takes from a file that holds `data` so far."""
    path.write_bytes(data)
    st = path.stat()
    source = Source(str(path), str(path), None, st.st_size, st.st_mtime_ns, str(path))
    opener = Opener()
    try:
        return b"".join(p.data for p in read_pieces(source, None, opener, hold_back=True,
                                                    piece_bytes=4096))
    finally:
        opener.close()


def _texts(data: bytes) -> list[str]:
    """The hands' texts, padding and an unended last line aside."""
    return [r.text for r in split_stream(io.BytesIO(data), "x")]


def _cuts(data: bytes, rng: random.Random, randoms: int) -> list[int]:
    ends = {i + 1 for i, b in enumerate(data) if b in b"\n\r"}
    return sorted(ends | {rng.randrange(1, len(data)) for _ in range(randoms)})


def _check_every_cut(path: Path, full: bytes, *, exact: bool = True, randoms: int = 150) -> int:
    """For each cut: the hands taken are the file's first hands, each whole; and every hand
    the cut holds whole (with its line end) is taken. Returns the cuts checked."""
    whole = _texts(full)
    assert whole, path
    utf16 = detect_encoding(full[:64])[0].startswith("utf-16")
    rng = random.Random(len(full))
    cuts = _cuts(full, rng, randoms)
    for cut in cuts:
        taken = _texts(_accepted(path, full[:cut]))
        assert len(taken) <= len(whole)
        for k, text in enumerate(taken):
            if exact:
                assert text == whole[k], f"{path.name} cut at byte {cut}: hand {k + 1} short"
            else:  # PHH: optional fields may follow a hand's required ones
                assert whole[k].startswith(text.rstrip("\n")), f"{path.name} at {cut}"
        # liveness: a hand the cut holds whole, its line end too, is not held back (half a
        # UTF-16 code unit after it may begin one more line of it: then it is held)
        prefix = full[:cut]
        held = _texts(prefix)
        ended = prefix.rstrip(b"\x00 \t").endswith((b"\n", b"\r")) and not (utf16 and cut % 2)
        if held and ended and held[-1] == whole[len(held) - 1]:
            assert len(taken) == len(held), f"{path.name} cut at byte {cut}: a whole hand held"
        else:
            assert len(taken) >= len(held) - 1, f"{path.name} cut at byte {cut}"
    assert _texts(_accepted(path, full)) == whole  # the finished file: every hand
    return len(cuts)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_every_cut_of_a_growing_simulated_file_takes_only_whole_hands(
    tmp_path: Path, encoding: str
) -> None:
    full = ENCODINGS[encoding](_simulated())
    checked = _check_every_cut(tmp_path / "sim.txt", full, randoms=300)
    assert checked > 300


@needs_corpus
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_cut_of_a_growing_real_file_takes_only_whole_hands(
    tmp_path: Path, path: Path
) -> None:
    full = _first_hands(path, 5)
    exact = path.parent.name != "phh"
    assert _check_every_cut(tmp_path / path.name, full, exact=exact, randoms=60)


# ------------------------------------------------------------------------ imports in steps


def _summary_cuts(full: bytes, rng: random.Random, randoms: int) -> list[int]:
    """Cuts at every line end in the last bytes of each hand (its summary, where the issue
    found hands stored short), at random bytes, inside a CR LF and inside a multibyte
    character."""
    from razz.store.sources import _line_start

    starts = [_line_start(full, r.first_line) for r in split_stream(io.BytesIO(full), "x")]
    cuts: set[int] = set()
    for end in [*starts[1:], len(full)]:
        cuts |= {i + 1 for i in range(max(0, end - 400), end) if full[i] in b"\n\r"}
    cuts |= {rng.randrange(1, len(full)) for _ in range(randoms)}
    crlf = full.find(b"\r\n")
    if crlf >= 0:
        cuts.add(crlf + 1)
    multibyte = next((i for i, b in enumerate(full) if b >= 0xC0), None)
    if multibyte is not None:
        cuts.add(multibyte + 1)
    return sorted(c for c in cuts if 0 < c < len(full))


def _import_in_steps(path: Path, full: bytes, cuts: list[int], db: Path) -> None:
    for cut in cuts:
        path.write_bytes(full[:cut])
        run(path, db)
    path.write_bytes(full)
    run(path, db)


def _assert_same_as_one_import(path: Path, full: bytes, db: Path, tmp: Path) -> None:
    once = tmp / "once.duckdb"
    path.write_bytes(full)
    run(path, once)
    assert_whole_hands(db)
    assert fingerprint(db) == fingerprint(once)
    # something was read (a file of other games holds skipped hands only)
    assert one(db, "SELECT (SELECT count(*) FROM hands) + (SELECT count(*) FROM skipped)") > 0


@pytest.mark.parametrize("encoding", ["utf-8", "crlf", "utf-16"])
def test_a_file_imported_while_it_grows_ends_as_one_import_of_the_finished_file(
    tmp_path: Path, encoding: str
) -> None:
    full = ENCODINGS[encoding](_simulated())
    path, db = tmp_path / "sim.txt", tmp_path / "steps.duckdb"
    rng = random.Random(7)
    cuts = _summary_cuts(full, rng, 4)
    cuts = sorted(rng.sample(cuts, min(len(cuts), 12)))
    _import_in_steps(path, full, cuts, db)
    _assert_same_as_one_import(path, full, db, tmp_path)
    assert one(db, "SELECT count(*) FROM rejects") == 0


@needs_corpus
@pytest.mark.parametrize("folder", ["pokerstars", "fulltilt", "winamax", "kingsclub", "merge"])
def test_a_real_file_imported_while_it_grows_ends_as_one_import_of_it(
    tmp_path: Path, folder: str
) -> None:
    real = sorted(p for p in (CORPUS / folder).iterdir() if p.name.startswith("Razz"))[0]
    full = _first_hands(real, 6)
    path, db = tmp_path / real.name, tmp_path / "steps.duckdb"
    rng = random.Random(11)
    cuts = sorted(rng.sample(_summary_cuts(full, rng, 4), 8))
    _import_in_steps(path, full, cuts, db)
    _assert_same_as_one_import(path, full, db, tmp_path)


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_summary_cut_of_every_real_file_imported_in_steps_ends_as_one_import(
    tmp_path: Path, path: Path
) -> None:
    full = _first_hands(path, 5)
    target, db = tmp_path / path.name, tmp_path / "steps.duckdb"
    rng = random.Random(3)
    cuts = _summary_cuts(full, rng, 8)  # a sample of them: every one of 19 files took 30 min
    _import_in_steps(target, full, sorted(rng.sample(cuts, min(len(cuts), 24))), db)
    _assert_same_as_one_import(target, full, db, tmp_path)


# ------------------------------------------------------------------------ repair


def test_a_hand_stored_short_by_an_older_version_is_repaired_by_the_next_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = hands.H1 + hands.H2 + hands.H3
    summary_at = whole.index("*** SUMMARY ***", len(hands.H1))
    cut = whole.index("\n", whole.index("Seat", summary_at)) + 1  # H2 with one seat's result
    path, db = tmp_path / "a.txt", tmp_path / "r.duckdb"
    path.write_text(whole[:cut])
    with monkeypatch.context() as old:  # the older importer: no file was thought to grow
        old.setattr(importer_module, "can_grow", lambda source: False)
        run(path, db)
    short = one(db, "SELECT raw_text FROM hands WHERE hand_id = '1000000002'")
    assert hands.H2.startswith(short.rstrip("\n")) and len(short) < len(hands.H2.rstrip("\n"))
    # the rest of the hand arrives, then the next hand
    path.write_text(whole[: len(hands.H1 + hands.H2)])
    summary = run(path, db)
    assert (summary.repaired, summary.hands, summary.duplicates) == (1, 0, 0)
    path.write_text(whole)
    assert run(path, db).hands == 1
    _assert_same_as_one_import(path, whole.encode(), db, tmp_path)
    assert one(db, "SELECT count(*) FROM rejects") == 0
    assert one(db, "SELECT hands FROM files") == 3


def test_a_hand_stored_short_is_repaired_when_the_next_hand_arrives_with_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cut inside the summary's line: the old version stored a reject of the hand's tail too
    whole = hands.H1 + hands.H2 + hands.H3
    cut = whole.index("*** SUMMARY ***", len(hands.H1)) + 40
    path, db = tmp_path / "a.txt", tmp_path / "r.duckdb"
    path.write_text(whole[:cut])
    with monkeypatch.context() as old:
        old.setattr(importer_module, "can_grow", lambda source: False)
        run(path, db)
    path.write_text(whole)
    run(path, db)
    _assert_same_as_one_import(path, whole.encode(), db, tmp_path)
    assert one(db, "SELECT count(*) FROM rejects") == 0


# ------------------------------------------------------------------------ --watch


def _like_a_terminal() -> None:
    """Ctrl-C as on a terminal: a shell without job control starts children with SIGINT
    ignored, and a child keeps an ignored signal ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(condition: Callable[[], Any], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def _stored(db: Path) -> int:
    try:
        return int(one(db, "SELECT count(*) FROM hands"))
    except Exception:  # not created yet, or the watcher holds it a moment
        return -1


def test_watch_holds_back_a_hand_cut_in_its_summary_however_long_the_file_is_quiet(
    tmp_path: Path,
) -> None:
    folder, db = tmp_path / "histories", tmp_path / "w.duckdb"
    folder.mkdir()
    whole = (hands.H1 + hands.H2 + hands.H3).replace("\n", "\r\n").encode()
    cuts = [
        len((hands.H1 + hands.H2).replace("\n", "\r\n").encode()) + 10,  # in H3's header
        whole.index(b"*** SUMMARY ***", len(hands.H1) + len(hands.H2)) + 17,  # inside CR LF
        whole.index(b"\r\n", whole.rindex(b"Seat ", 0, len(whole) - 10)) - 5,  # last line
    ]
    path = folder / "Alpha.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "razz", "import", "--db", str(db), "--watch", str(folder),
         "--interval", "0.1", "--progress", "lines"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_like_a_terminal,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        path.write_bytes(whole[: cuts[0]])
        _wait_for(lambda: _stored(db) == 2)
        for cut in cuts[1:]:
            with path.open("ab") as f:
                f.write(whole[path.stat().st_size : cut])
            time.sleep(2.6)  # quiet for longer than the watch's settle time
            assert _stored(db) == 2  # H3 is not complete: held back
        with path.open("ab") as f:
            f.write(whole[path.stat().st_size :])
        _wait_for(lambda: _stored(db) == 3)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # never leave the watcher behind
            proc.kill()
            proc.communicate()
            raise
    assert proc.returncode == 0, err
    assert "3 new hands" in out and "0 rejected" in out and "held back" not in out + err
    _assert_same_as_one_import(path, whole, db, tmp_path)
    assert one(db, "SELECT count(*) FROM rejects") == 0
