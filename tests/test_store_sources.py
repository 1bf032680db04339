"""Finding hand-history files and reading only their new bytes, in pieces of whole hands."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import zipfile
from pathlib import Path

import pytest

from razz.parser import Hand, read_text
from razz.store.sources import (
    FileState,
    NoHands,
    Opener,
    Piece,
    Source,
    discover,
    read_pieces,
    split_point,
    unfinished_at,
)
from razz.store.work import parse_piece

# The hand-written hands (pytest's importlib mode keeps tests/ off sys.path).
_spec = importlib.util.spec_from_file_location("h", Path(__file__).with_name("test_store_hands.py"))
assert _spec is not None and _spec.loader is not None
hands = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands)


def _write(path: Path, text: str, newline: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def _pieces(path: Path, state: FileState | None = None, **kw: object) -> list[Piece]:
    source = discover([str(path)]).sources[0]
    return list(read_pieces(source, state, Opener(), **kw))


def _state(piece: Piece, file_id: int = 1) -> FileState:
    return FileState(file_id, piece.end, piece.end_lines, piece.end_sha256)


# ------------------------------------------------------------------------ discovery


def test_folders_are_searched_recursively_for_txt_and_zip_files_only(tmp_path: Path) -> None:
    _write(tmp_path / "a.txt", hands.H1)
    _write(tmp_path / "deep" / "er" / "b.TXT", hands.H2)
    _write(tmp_path / "notes.md", "not a history")
    _write(tmp_path / ".hidden.txt", hands.H3)
    _write(tmp_path / ".git" / "c.txt", hands.H3)
    found = discover([str(tmp_path)])
    assert [Path(s.path).relative_to(tmp_path).as_posix() for s in found.sources] == [
        "a.txt", "deep/er/b.TXT",
    ]
    assert found.problems == ()


def test_the_same_file_named_twice_is_read_once(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.txt", hands.H1)
    os.chdir(tmp_path)
    found = discover(["a.txt", str(a), str(tmp_path), str(tmp_path / "*.txt")])
    assert [s.path for s in found.sources] == [str(a.resolve())]


def test_globs_expand_and_names_that_match_nothing_are_reported(tmp_path: Path) -> None:
    _write(tmp_path / "x1.txt", hands.H1)
    _write(tmp_path / "x2.txt", hands.H2)
    found = discover([str(tmp_path / "x*.txt"), str(tmp_path / "y*.txt"), str(tmp_path / "nope")])
    assert [Path(s.path).name for s in found.sources] == ["x1.txt", "x2.txt"]
    assert [p.split(": ")[1] for p in found.problems] == [
        "no file matches", "no such file or folder",
    ]


def test_zip_members_are_sources_named_after_the_archive(tmp_path: Path) -> None:
    archive = tmp_path / "h.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("2020/one.txt", hands.H1)
        z.writestr("2020/two.txt", hands.H2)
        z.writestr("readme.md", "no")
        z.writestr("__MACOSX/2020/._one.txt", "junk")
    found = discover([str(tmp_path)])
    assert [s.path for s in found.sources] == [
        f"{archive}!2020/one.txt", f"{archive}!2020/two.txt",
    ]
    piece = _pieces_of(found.sources[1])
    assert b"".join(p.data for p in piece) == hands.H2.encode()


def _pieces_of(source: Source) -> list[Piece]:
    return list(read_pieces(source, None, Opener()))


def test_a_damaged_zip_is_reported_not_fatal(tmp_path: Path) -> None:
    _write(tmp_path / "bad.zip", "this is not a zip archive")
    found = discover([str(tmp_path)])
    assert found.sources == ()
    assert "not a readable zip archive" in found.problems[0]


def test_the_database_itself_is_never_a_source(tmp_path: Path) -> None:
    db = _write(tmp_path / "store.txt", "pretend database")
    found = discover([str(tmp_path)], exclude=[db])
    assert found.sources == ()


# ------------------------------------------------------------------------ pieces


def test_split_point_is_the_last_header_after_an_empty_line() -> None:
    text = hands.H1 + hands.H2 + hands.H3
    data = text.encode()
    assert split_point(data) == len((hands.H1 + hands.H2).encode())
    crlf = text.replace("\n", "\r\n").encode()
    assert split_point(crlf) == len((hands.H1 + hands.H2).replace("\n", "\r\n").encode())
    # a header line with no empty line before it is not a place to cut
    assert split_point(b"Seat 1: x\nPokerStars Hand #1: ...\n") is None


def test_a_file_is_cut_into_pieces_of_whole_hands_that_cover_every_byte(tmp_path: Path) -> None:
    text = hands.many_hands(40)
    path = _write(tmp_path / "a.txt", text, newline="\r\n")
    pieces = _pieces(path, piece_bytes=4000)
    assert len(pieces) > 5
    assert b"".join(p.data for p in pieces) == path.read_bytes()
    assert pieces[0].first and not any(p.first for p in pieces[1:])
    whole = [r for r in read_text(path.read_text(), str(path)) if isinstance(r, Hand)]
    by_piece = [
        r for p in pieces for r in parse_piece(p.data, str(path), p.line_offset)
        if isinstance(r, Hand)
    ]
    assert [h.header.first_line for h in by_piece] == [h.header.first_line for h in whole]
    assert [h.text for h in by_piece] == [h.text for h in whole]
    last = pieces[-1]
    assert last.end == path.stat().st_size
    assert last.end_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert last.end_lines == path.read_bytes().count(b"\n")


def test_an_unchanged_file_yields_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.txt", hands.H1 + hands.H2)
    (piece,) = _pieces(path)
    assert _pieces(path, _state(piece)) == []


def test_a_grown_file_is_read_from_its_last_hand_read_with_lines_numbered_as_in_the_file(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "a.txt", hands.H1 + hands.H2)
    (before,) = _pieces(path)
    with path.open("a", encoding="utf-8") as f:
        f.write(hands.H3)
    (after,) = _pieces(path, _state(before))
    # the last hand read before comes again (it may have been stored short), then the new one
    assert after.data == (hands.H2 + hands.H3).encode()
    h1 = len(hands.H1.encode())
    assert (after.start, after.line_offset, after.first, after.reset) == (
        h1, hands.H1.count("\n"), True, False,
    )
    assert after.context == hands.H1.encode()
    again, new = parse_piece(after.data, str(path), after.line_offset)
    assert isinstance(new, Hand) and new.header.first_line == 77
    assert isinstance(again, Hand) and again.header.first_line == 1 + hands.H1.count("\n")
    assert after.end_sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_rewritten_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.txt", hands.H1 + hands.H2)
    (before,) = _pieces(path)
    _write(path, hands.H3 + hands.H1 + hands.H2)  # longer, but the old bytes changed
    (again,) = _pieces(path, _state(before))
    assert (again.start, again.reset) == (0, True)
    assert again.data == path.read_bytes()
    shorter = _write(path, hands.H3)
    (again,) = _pieces(shorter, _state(before))
    assert (again.start, again.reset, again.data) == (0, True, hands.H3.encode())


def test_a_hand_still_being_written_is_held_back_until_it_is_finished(tmp_path: Path) -> None:
    partial = hands.H2[: len(hands.H2) // 2]
    path = _write(tmp_path / "a.txt", hands.H1 + partial)
    (piece,) = _pieces(path, hold_back=True)
    assert piece.data == hands.H1.encode()
    assert (piece.end, piece.held) == (len(hands.H1.encode()), 28)
    assert piece.end_sha256 == hashlib.sha256(hands.H1.encode()).hexdigest()
    # Without holding back (parse, audit, a zip member) every hand is read as it is.
    (piece,) = _pieces(path)
    assert piece.data == (hands.H1 + partial).encode() and piece.held is None
    # Once the hand is whole, it is read.
    _write(path, hands.H1 + hands.H2)
    (piece,) = _pieces(path, hold_back=True)
    assert piece.data == (hands.H1 + hands.H2).encode() and piece.held is None


def test_a_hand_whose_summary_is_cut_short_is_held_back_even_after_blank_lines(
    tmp_path: Path,
) -> None:
    # the cut the issue found: inside *** SUMMARY ***, at a line end
    summary_at = hands.H2.index("*** SUMMARY ***")
    cut = hands.H2.index("\n", hands.H2.index("Seat", summary_at)) + 1
    assert unfinished_at((hands.H1 + hands.H2[:cut]).encode()) == len(hands.H1.encode())
    assert unfinished_at((hands.H1 + hands.H2).encode()) is None
    path = _write(tmp_path / "a.txt", hands.H1 + hands.H2[:cut])
    (piece,) = _pieces(path, hold_back=True)
    assert piece.data == hands.H1.encode()


def test_a_last_hand_without_final_newline_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.txt", hands.H1.rstrip("\n"))
    for hold_back in (False, True):
        (piece,) = _pieces(path, hold_back=hold_back)
        (hand,) = parse_piece(piece.data, str(path), piece.line_offset)
        assert isinstance(hand, Hand)


def test_utf16_files_are_read_whole_and_again_when_they_change(tmp_path: Path) -> None:
    path = tmp_path / "ftp.txt"
    path.write_bytes(hands.H1.encode("utf-16"))  # with a BOM
    (piece,) = _pieces(path, piece_bytes=100)
    assert piece.utf16 and piece.data == path.read_bytes()
    assert piece.end_lines == hands.H1.count("\n")
    assert _pieces(path, _state(piece)) == []
    path.write_bytes((hands.H1 + hands.H2).encode("utf-16"))
    (again,) = _pieces(path, _state(piece))
    assert (again.start, again.reset) == (0, True)


@pytest.mark.parametrize("size", [0, 1])
def test_tiny_files_do_not_break_the_reader(tmp_path: Path, size: int) -> None:
    path = _write(tmp_path / "a.txt", "\n" * size)
    with pytest.raises(NoHands) as raised:  # said in one line by the commands
        _pieces(path)
    assert raised.value.empty and str(raised.value) == f"{path}: empty, no hands"


def test_each_piece_brings_the_three_hands_before_it_numbered_as_in_the_file(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path / "a.txt", hands.many_hands(10), newline="\r\n")
    pieces = _pieces(path, piece_bytes=2500)
    assert len(pieces) >= 4 and pieces[0].context == b""
    whole = {h.header.hand_id: h.header.first_line
             for h in read_text(path.read_text(), str(path)) if isinstance(h, Hand)}
    for i, piece in enumerate(pieces[1:], start=1):
        before = b"".join(p.data for p in pieces[:i])
        assert before.endswith(piece.context)
        context = [r for r in parse_piece(piece.context, str(path), piece.context_line_offset)
                   if isinstance(r, Hand)]
        earlier = [h for h in whole.values() if h < piece.line_offset + 1]
        assert len(context) == min(3, len(earlier))
        assert [h.header.first_line for h in context] == earlier[-len(context):]
    # a file read again after growing, from its last hand read: the context is the hands
    # before that one
    (first, *_) = _pieces(path, _state(pieces[1]))
    read = b"".join(p.data for p in pieces[:2])
    assert first.start < len(read) and first.data.startswith(read[first.start:])
    assert first.context == read[: first.start][-len(first.context):]
    assert len([r for r in parse_piece(first.context, str(path), first.context_line_offset)
                if isinstance(r, Hand)]) == 3
