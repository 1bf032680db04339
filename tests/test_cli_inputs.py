"""Every error explains itself in one line: a wrong --db, rejected hands, files that hold no
hands, padding and NULs, encodings, names that would act on a terminal, plurals."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from razz.store import db as store_db

_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)

SAMPLE = Path(__file__).resolve().parents[1] / "sample_histories"
ONE_FILE = SAMPLE / "001-razz-cash-0.25-0.50-ceres-x.txt"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
TOKEN_NAME = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")


def razz(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "razz", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def hands_of(path: Path, count: int) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [h.strip("\n") + "\n" for h in re.split(r"\n\n+", text) if h.strip()][:count]


# ------------------------------------------------------------------ a wrong --db


@pytest.mark.parametrize("where", ["missing-folder", "not-duckdb", "a-folder"])
def test_a_wrong_db_is_one_line_exit_2_and_creates_nothing(tmp_path: Path, where: str) -> None:
    (tmp_path / "h.txt").write_text(hands.H1)
    before = set(tmp_path.rglob("*"))
    db = {
        "missing-folder": tmp_path / "nowhere" / "x.duckdb",
        "not-duckdb": tmp_path / "h.txt",
        "a-folder": tmp_path,
    }[where]
    done = razz("import", str(tmp_path / "h.txt"), "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert str(db) in done.stderr
    assert set(tmp_path.rglob("*")) == before  # no X.import.lock, no database


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_an_unwritable_folder_for_the_db_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = razz("import", str(ONE_FILE), "--db", str(folder / "x.duckdb"))
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and "not writable" in done.stderr
    assert list(folder.iterdir()) == []


def test_an_import_leaves_no_lock_file_behind(tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_text(hands.H1)
    db = tmp_path / "r.duckdb"
    assert razz("import", str(tmp_path / "h.txt"), "--db", str(db)).returncode == 0
    assert not store_db.import_lock_path(db).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.txt", "r.duckdb"]


def test_the_import_lock_still_excludes_a_second_import_after_the_first_ends(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.duckdb"
    first = store_db.ImportLock(db)
    first.acquire()
    first.release()  # removes the file
    second, third = store_db.ImportLock(db), store_db.ImportLock(db)
    second.acquire()
    with pytest.raises(store_db.StoreBusy):
        third.acquire(wait=False)
    second.release()
    third.acquire(wait=False)
    third.release()


# ------------------------------------------------------------------ rejected hands


def test_import_prints_each_rejected_hand_as_file_line_reason(tmp_path: Path) -> None:
    one, two, three = hands_of(ONE_FILE, 3)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n\n".join([one, two.replace("posts the ante", "eats the ante", 1), three]))
    done = razz("import", str(bad), "--db", str(tmp_path / "r.duckdb"))
    assert done.returncode == 1
    audit = razz("audit", str(bad))
    (parse_line,) = [x for x in audit.stdout.splitlines() if " PARSE " in x]
    line = int(parse_line.split(":")[1])
    assert f"{bad}:{line}: after the name 'folds', unexpected ': eats the ante" in done.stderr
    assert "1 rejected" in done.stdout


def test_reimporting_an_unchanged_file_with_a_rejected_last_hand_is_not_a_new_failure(
    tmp_path: Path,
) -> None:
    one, two = hands_of(ONE_FILE, 2)
    bad = tmp_path / "bad.txt"
    # The rejected hand ends the file, with no empty line after it: it is read again each time.
    bad.write_text(one + "\n\n" + two.replace("posts the ante", "eats the ante", 1).rstrip())
    db = str(tmp_path / "r.duckdb")
    first = razz("import", str(bad), "--db", db)
    assert first.returncode == 1 and "1 rejected" in first.stdout
    for _ in range(2):
        again = razz("import", str(bad), "--db", db)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "0 rejected (1 more already recorded by an earlier import)" in again.stdout
        assert "eats the ante" not in again.stderr


# ------------------------------------------------------------------ files without hands


@pytest.mark.parametrize("command", ["parse", "audit", "import"])
def test_a_png_is_one_line_saying_it_is_not_a_hand_history(tmp_path: Path, command: str) -> None:
    png = tmp_path / "shot.png"
    png.write_bytes(PNG)
    extra = ["--db", str(tmp_path / "r.duckdb")] if command == "import" else []
    done = razz(command, str(png), str(ONE_FILE), *extra)
    assert done.returncode == 1, done.stderr
    said = [x for x in (done.stdout + done.stderr).splitlines() if "shot.png" in x]
    assert said == [f"razz {command}: {png}: not a hand history (binary data, such as an image)"
                    if command != "import" else
                    f"{png}: not a hand history (binary data, such as an image)"]
    assert "PNG" not in done.stdout + done.stderr and "\ufffd" not in done.stdout + done.stderr


@pytest.mark.parametrize("command", ["parse", "audit"])
def test_a_folder_of_images_says_nothing_was_readable_and_exits_1(
    tmp_path: Path, command: str
) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.txt").write_bytes(PNG)  # an image named like a history
    done = razz(command, str(tmp_path))
    assert done.returncode == 1
    assert f"razz {command}: nothing readable in {tmp_path}: no hand history found" in done.stderr
    assert "b.txt: not a hand history" in done.stderr


def test_an_empty_file_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    done = razz("parse", str(empty))
    assert done.returncode == 1
    assert f"razz parse: {empty}: empty, no hands" in done.stderr
    assert "nothing readable" in done.stderr
    with_others = razz("parse", str(empty), str(ONE_FILE))
    assert with_others.returncode == 0 and "empty, no hands" in with_others.stderr


def test_razz_of_a_room_not_read_yet_is_counted_as_such() -> None:
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "fulltilt"
    if not corpus.is_dir():
        pytest.skip("no corpus")
    done = razz("parse", str(corpus))
    assert "Razz from Full Tilt Poker: not supported yet" in done.stdout
    assert "is not Razz" not in done.stdout


def test_no_grammar_token_name_in_any_parse_message_or_expected(tmp_path: Path) -> None:
    one, two, three = hands_of(ONE_FILE, 3)
    lines = two.splitlines()
    broken = [
        two.replace("posts the ante", "eats the ante", 1),
        "\n".join(lines[:12]) + "\n",  # ends too early
        "\n".join([lines[0], "nonsense here", *lines[1:]]) + "\n",
        three.replace("*** 3rd STREET ***", "*** 3rd STRET ***"),
    ]
    bad = tmp_path / "bad.txt"
    bad.write_text("\n\n".join([one, *broken]))
    found = [json.loads(x) for x in razz("audit", str(bad), "--format", "json").stdout.splitlines()]
    parse = [f for f in found if f.get("rule") == "PARSE"]
    assert len(parse) == len(broken)
    for f in parse:
        assert not TOKEN_NAME.search(f["message"] + " " + f["expected"]), f
    for row in map(json.loads, razz("parse", "--json", str(bad)).stdout.splitlines()):
        assert not TOKEN_NAME.search(" ".join(row.get("expected", []))), row


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    one, two = hands_of(ONE_FILE, 2)
    bad = tmp_path / "bad.txt"
    bad.write_text(one + "\n\n" + two.replace("posts the ante", "eats the ante", 1))
    out = razz("parse", str(bad)).stdout
    assert f"{bad}: 1 hand parsed, 0 skipped, 1 error" in out
    summary = razz("audit", str(bad)).stdout.splitlines()[-2]
    assert "1 hand audited" in summary and "1 finding (1 error, 0 warnings)" in summary
