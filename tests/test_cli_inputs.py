"""Every error explains itself in one line: a wrong --db, rejected hands, files that hold no
hands, padding and NULs, encodings, names that would act on a terminal, plurals."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
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
    # The rejected hand ends the file, with no empty line after it, but it is complete (its
    # summary is whole): it is read once, and an unchanged file is not read again.
    bad.write_text(one + "\n\n" + two.replace("posts the ante", "eats the ante", 1).rstrip())
    db = str(tmp_path / "r.duckdb")
    first = razz("import", str(bad), "--db", db)
    assert first.returncode == 1 and "1 rejected" in first.stdout
    for _ in range(2):
        again = razz("import", str(bad), "--db", db)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "1 unchanged" in again.stdout and "0 rejected" in again.stdout
        assert "eats the ante" not in again.stderr
    # grown, it is read again from that hand: the reject is known, not news
    with bad.open("a") as f:
        f.write("\n\n" + one)
    grown = razz("import", str(bad), "--db", db)
    assert grown.returncode == 0, grown.stdout + grown.stderr
    assert "0 rejected (1 more already recorded by an earlier import)" in grown.stdout


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


def test_a_room_not_read_yet_is_counted_as_such_never_as_another_game(tmp_path: Path) -> None:
    party = tmp_path / "party.txt"
    party.write_text(
        "***** Hand History for Game 1234567 *****\n"
        "$0.50/$1 USD Razz - Sunday, July 04, 12:00:00 EDT 2010\n"
        "Table Bruges (Real Money)\n\n"
    )
    done = razz("parse", str(party))
    assert "PartyPoker hand histories are not supported yet" in done.stdout
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


# ------------------------------------------------------------------ padding, NULs, encodings


def _parsed(path: Path) -> tuple[int, list[str]]:
    from razz.parser.events import Hand, ParseError
    from razz.store.ingest import check_part, parts_of
    from razz.store.sources import discover

    problems: list[str] = []
    results = [r for part in parts_of(discover([str(path)]), problems)
               for r in check_part(part, audit=False).results]
    assert problems == []
    return (sum(isinstance(r, Hand) for r in results),
            [r.message for r in results if isinstance(r, ParseError)])


@pytest.mark.parametrize("padding", [b"\x00" * 4096, b"\n" + b"\x00" * 100, b" \n\t\n" * 50,
                                     b"\r\n\x00\x00\r\n  \x00"])
def test_padding_after_the_last_hand_is_ignored_and_the_hand_kept(
    tmp_path: Path, padding: bytes
) -> None:
    path = tmp_path / "padded.txt"
    text = (hands.H1 + hands.H2).rstrip("\n") + "\n"  # no empty line before the padding
    path.write_bytes(text.encode() + padding)
    assert _parsed(path) == (2, [])


def test_nuls_inside_a_hand_make_that_hand_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "damaged.txt"
    damaged = hands.H2.replace("*** 4th STREET ***", "*** 4th \x00\x00\x00 ***")
    path.write_bytes((hands.H1 + damaged + hands.H3).encode())
    parsed, errors = _parsed(path)
    assert parsed == 2
    assert errors == ["the line holds NUL bytes: the file is damaged here"]
    out = razz("parse", str(path))
    assert "NUL bytes" in out.stdout and "\x00" not in out.stdout


ENCODINGS = {
    "utf-8": lambda t: t.encode("utf-8"),
    "utf-8-bom": lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
    "utf-16-le-bom": lambda t: t.encode("utf-16"),  # this machine: little-endian, with a BOM
    "utf-16-be-bom": lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    "utf-16-le": lambda t: t.encode("utf-16-le"),
    "utf-16-be": lambda t: t.encode("utf-16-be"),
}
LINE_ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("end", sorted(LINE_ENDS))
def test_every_encoding_and_line_end_reads_the_same(
    tmp_path: Path, encoding: str, end: str
) -> None:
    from razz.parser.serialize import result_to_dict

    text = (hands.H1 + hands.H2 + hands.H3).replace("Hero", "Zoë_Грозный")
    base = tmp_path / "base.txt"
    base.write_bytes(text.encode())
    other = tmp_path / f"{encoding}-{end}.txt"
    other.write_bytes(ENCODINGS[encoding](text.replace("\n", LINE_ENDS[end])))

    def read(path: Path) -> list[dict[str, object]]:
        from razz.store.ingest import check_part, parts_of
        from razz.store.sources import discover

        out = []
        for part in parts_of(discover([str(path)]), []):
            for r in check_part(part, audit=False).results:
                d = result_to_dict(r)
                d.pop("source", None)
                d.get("header", {}).pop("source", None)
                out.append(d)
        return out

    expected = read(base)
    assert len(expected) == 3 and "Zoë_Грозный" in json.dumps(expected, ensure_ascii=False)
    assert read(other) == expected


# ------------------------------------------------------------------ names on a terminal

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\u202eevil"
LONG = "L" * 2000


def _hostile_file(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.txt"
    text = hands.H1 + hands.H2
    path.write_text(text.replace("Alice", HOSTILE).replace("Bob", LONG))
    return path


def _terminal_safe(text: str) -> None:
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert max(map(len, text.splitlines())) < 400


def test_names_are_escaped_and_cut_in_text_outputs(tmp_path: Path) -> None:
    path = _hostile_file(tmp_path)
    db = tmp_path / "r.duckdb"
    done = razz("import", str(path), "--db", str(db))
    assert done.returncode == 0, done.stderr
    stats = razz("stats", "--db", str(db))
    _terminal_safe(stats.stdout)
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in stats.stdout
    assert "LLLL…" in stats.stdout
    player = razz("stats", "--db", str(db), "--player", HOSTILE)
    assert player.returncode == 0, player.stderr
    _terminal_safe(player.stdout)
    audit = razz("audit", str(path))
    _terminal_safe(audit.stdout + audit.stderr)
    # A name in an error line: the hand's first seat line is broken.
    broken = tmp_path / "broken.txt"
    broken.write_text(path.read_text().replace(f"{HOSTILE}: folds", f"{HOSTILE}: flds", 1))
    parse = razz("parse", str(broken))
    assert parse.returncode == 1
    _terminal_safe(parse.stdout + parse.stderr)
    imported = razz("import", str(broken), "--db", str(tmp_path / "b.duckdb"))
    assert "flds" in imported.stderr
    _terminal_safe(imported.stdout + imported.stderr.replace(LONG, "L"))


def test_json_and_csv_keep_names_exact(tmp_path: Path) -> None:
    import csv
    import io

    path = _hostile_file(tmp_path)
    rows = [json.loads(x) for x in razz("parse", "--json", str(path)).stdout.splitlines()]
    players = {e.get("player") for row in rows for e in row["events"]}
    assert HOSTILE in players and LONG in players
    audit = razz("audit", str(path), "--format", "csv").stdout
    messages = " ".join(r["message"] for r in csv.DictReader(io.StringIO(audit)))
    assert HOSTILE in messages or not messages  # exact where a message names the player


# ------------------------------------------------------------------ clean ends


def test_a_closed_output_pipe_ends_quietly(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(6):
        (folder / f"t{i}.txt").write_text(
            hands.many_hands(150, first_id=7_000_000 + 1000 * i, template=hands.H2)
        )
    proc = subprocess.Popen(
        [sys.executable, "-m", "razz", "audit", "--format", "csv", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -2` does
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert err == b""


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum", [9, 15])
def test_killing_the_importer_leaves_no_worker_behind(tmp_path: Path, signum: int) -> None:
    import time

    path = tmp_path / "many.txt"
    path.write_text(hands.many_hands(6000, first_id=8_000_000, template=hands.H2))
    proc = subprocess.Popen(
        [sys.executable, "-m", "razz", "import", str(path), "--db", str(tmp_path / "r.duckdb"),
         "--workers", "2", "--progress", "none"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    ours: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        # the resource tracker, the forkserver and at least one worker (its child)
        while len(ours := _descendants(proc.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(ours) >= 3, "the workers never started"
        proc.send_signal(signum)
        proc.wait(timeout=60)
        deadline = time.monotonic() + 5
        while any(map(_alive, ours)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in ours if _alive(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in ours:  # never leave one behind, even when the test fails
            if _alive(pid):
                os.kill(pid, 9)


def like_a_terminal() -> None:
    """Start a child as a terminal would, so that SIGINT is Ctrl-C: a shell without job
    control (CI, a script in the background) starts its children with SIGINT ignored, and a
    child keeps an ignored signal ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [2, 15])
def test_watch_stopped_by_ctrl_c_or_sigterm_exits_0_when_nothing_was_rejected(
    tmp_path: Path, signum: int
) -> None:
    import time

    from razz.store import db as store_db

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(hands.H1)
    db = tmp_path / "r.duckdb"
    proc = subprocess.Popen(
        [sys.executable, "-m", "razz", "import", "--db", str(db), "--watch", str(folder),
         "--interval", "0.1", "--progress", "none"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=like_a_terminal,
    )
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
            try:
                with store_db.read_connection(db, retries=5) as con:
                    stored = con.execute("SELECT count(*) FROM hands").fetchone()[0]
            except store_db.StoreError:
                continue
        assert stored == 1
    finally:
        proc.send_signal(signum)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # never leave the watcher behind
            proc.kill()
            proc.communicate()
            raise
    assert proc.returncode == 0, out + err
    assert "1 new hand," in out and "0 rejected" in out


def test_invalid_utf8_in_a_name_is_a_warning_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes((hands.H1 + hands.H2).replace("Bob", "B\xf6b").encode("latin-1"))
    done = razz("audit", str(path), "--format", "json")
    rows = [json.loads(x) for x in done.stdout.splitlines()]
    warned = [r for r in rows if r.get("severity") == "warning" and r.get("rule") == "PARSE"]
    assert [(r["line"], "not valid text" in r["message"]) for r in warned] == [(4, True), (31, True)]
    assert done.returncode == 0  # a warning, not an error


# ------------------------------------------------------------------ bounds


def _zip_with_a_bomb(tmp_path: Path) -> Path:
    import zipfile

    archive = tmp_path / "hands.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("a-bomb.txt", "w") as member:  # 64 MiB of spaces, ~64 KiB packed
            block = b" " * (1 << 20)
            for _ in range(64):
                member.write(block)
        z.writestr("b-hands.txt", hands.H1 + hands.H2)
    return archive


def test_a_zip_bomb_member_is_refused_in_one_line_and_the_next_member_read(
    tmp_path: Path,
) -> None:
    import time

    archive = _zip_with_a_bomb(tmp_path)
    started = time.monotonic()
    done = razz("parse", str(archive))
    assert time.monotonic() - started < 60
    assert f"{archive}!b-hands.txt: 2 hands parsed" in done.stdout
    (line,) = [x for x in done.stderr.splitlines() if "a-bomb.txt" in x]
    assert line.startswith(f"razz parse: {archive}!a-bomb.txt: not read: a zip member that")
    assert line.endswith("is over RAZZ_MAX_ZIP_RATIO (100)")
    assert done.returncode == 2


def test_the_bounds_are_settings_named_in_their_message(tmp_path: Path) -> None:
    archive = _zip_with_a_bomb(tmp_path)
    env = {**os.environ, "RAZZ_MAX_ZIP_RATIO": "100000", "RAZZ_MAX_MEMBER_BYTES": "1000000"}
    done = subprocess.run([sys.executable, "-m", "razz", "parse", str(archive)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert (f"{archive}!a-bomb.txt: not read: a zip member of 67,108,864 bytes is over"
            " RAZZ_MAX_MEMBER_BYTES (1,000,000)") in done.stderr
    big = tmp_path / "big.txt"
    big.write_text(hands.H1 * 3)
    env = {**os.environ, "RAZZ_MAX_FILE_BYTES": "100"}
    done = subprocess.run([sys.executable, "-m", "razz", "import", str(big), "--db",
                           str(tmp_path / "r.duckdb")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert "is over RAZZ_MAX_FILE_BYTES (100)" in done.stderr and done.returncode == 2
