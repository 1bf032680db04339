"""The regexes made from each grammar (`LinePatterns`) read every line as Lark reads it: the
same records line by line, the same events and the same errors hand by hand, for every text
site, on sample_histories/, the real files of ../shared/corpus and lines broken on purpose."""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import LarkError

from razz.parser import Hand, ParseError, read_text
from razz.parser.lines import LineGrammar, LinePatterns
from razz.parser.sites.fulltilt import SITE as FULLTILT
from razz.parser.sites.kingsclub import SITE as KINGSCLUB
from razz.parser.sites.pokerstars import default_parser
from razz.parser.sites.textsite import seated
from razz.parser.sites.winamax import SITE as WINAMAX

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
ROOMS = ("pokerstars", "fulltilt", "winamax", "kingsclub")


def _grammar(room: str) -> LineGrammar:
    if room == "pokerstars":
        return default_parser().grammar
    site = {"fulltilt": FULLTILT, "winamax": WINAMAX, "kingsclub": KINGSCLUB}[room]
    return site.reader().parser.grammar  # type: ignore[attr-defined, no-any-return]


def _files(room: str) -> list[Path]:
    """The real files of a room, after the shipped samples written as that room writes."""
    paths = sorted((CORPUS / room).glob("*.txt")) if (CORPUS / room).is_dir() else []
    samples = ROOT / "sample_histories"
    if room == "pokerstars":
        return sorted(p for p in samples.rglob("*.txt") if "rooms" not in p.parts) + paths
    return sorted((samples / "rooms" / room).glob("*.txt")) + paths


def _text(path: Path) -> str:
    data = path.read_bytes()
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    return data.decode(encoding).replace("\r\n", "\n")


def _lark_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line read by Lark's parser, as before the regexes were made."""
    monkeypatch.setattr(LinePatterns, "read", lambda self, line: None)


def _hands(room: str) -> Iterator[list[str]]:
    for path in _files(room):
        for result in read_text(_text(path), path.name):
            if isinstance(result, Hand):
                yield result.text.splitlines(keepends=True)


@pytest.mark.parametrize("room", ROOMS)
def test_every_line_the_regexes_read_lark_reads_into_the_same_record(room: str) -> None:
    if not _files(room):
        pytest.skip(f"no files of {room}")
    grammar = _grammar(room)
    patterns, read, lines_read = grammar.patterns, 0, 0
    for lines in _hands(room):
        records: list[object] = [None] * len(lines)
        names: list[str] = []
        for i, line in enumerate(lines):  # seat lines first: they name the players
            try:
                records[i] = grammar.read(line, "line", names)
            except (LarkError, ValueError):  # a line Lark does not read: compared below
                continue
            name = seated(records[i])  # type: ignore[arg-type]
            if name is not None:
                names.append(name)
        for line, record in zip(lines, records, strict=True):
            patterns.set_names(names)
            grammar.lexer.set_names(names)
            lines_read += 1
            mine = patterns.read(line)
            if mine is not None:
                assert mine == record, line
                read += 1
    # The regexes are the usual path, not a rare one: nearly every line is theirs.
    assert read >= 0.95 * lines_read > 0, (read, lines_read)


@pytest.mark.parametrize("room", ROOMS)
def test_every_file_gives_the_same_hands_and_errors_with_and_without_the_regexes(
    room: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _files(room)
    if not paths:
        pytest.skip(f"no files of {room}")
    texts = [(path.name, _text(path)) for path in paths]
    fast = [list(read_text(text, name)) for name, text in texts]
    _lark_only(monkeypatch)
    slow = [list(read_text(text, name)) for name, text in texts]
    assert fast == slow
    assert any(isinstance(r, Hand) for results in fast for r in results)


def _broken(text: str, rnd: random.Random) -> str:
    """One line of a hand broken as files break: a character dropped, doubled or replaced,
    a word cut, junk appended."""
    lines = text.splitlines(keepends=True)
    i = rnd.randrange(len(lines))
    line = lines[i].rstrip("\n")
    if not line:
        return text
    at = rnd.randrange(len(line))
    how = rnd.randrange(5)
    if how == 0:
        line = line[:at] + line[at + 1 :]
    elif how == 1:
        line = line[:at] + line[at] + line[at:]
    elif how == 2:
        line = line[:at] + rnd.choice("x[]()$:#0 ,.-") + line[at + 1 :]
    elif how == 3:
        line = line[:at]
    else:
        line = line + rnd.choice((" extra", "]", " and is all-in", "$", ")"))
    lines[i] = line + "\n"
    return "".join(lines)


def _sample_hands() -> list[str]:
    out = []
    for room in ROOMS:
        for path in _files(room)[:6]:
            out += [r.text for r in read_text(_text(path), path.name) if isinstance(r, Hand)][:4]
    return out


SAMPLE = _sample_hands()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLE), st.randoms(use_true_random=False))
def test_a_broken_line_gives_the_same_error_with_and_without_the_regexes(
    text: str, rnd: random.Random
) -> None:
    broken = _broken(text, rnd)
    fast = list(read_text(broken, "x.txt"))
    with pytest.MonkeyPatch.context() as monkeypatch:
        _lark_only(monkeypatch)
        slow = list(read_text(broken, "x.txt"))
    assert fast == slow
    for result in fast:
        if isinstance(result, ParseError):
            assert result.message and result.line >= 1


@pytest.mark.parametrize("room", ROOMS)
def test_a_date_no_calendar_has_is_the_same_error_with_and_without_the_regexes(
    room: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The header's digits read, the calendar refuses them (month 00): one ParseError at
    that hand, the same either way, never an exception out of the reader."""
    paths = _files(room)
    hands = [r.text for p in paths[-2:] for r in read_text(_text(p), p.name) if isinstance(r, Hand)]
    if not hands:
        pytest.skip(f"no files of {room}")
    # a date, not a hand id of digits and dashes (Winamax's `#2690649-1-1681430531`)
    broken = re.sub(r"\b(\d{4})([/-])\d\d?\2(?=\d\d?\b)", r"\g<1>\g<2>00\g<2>", hands[0],
                    count=1)
    assert broken != hands[0]
    fast = list(read_text(broken, "x.txt"))
    _lark_only(monkeypatch)
    slow = list(read_text(broken, "x.txt"))
    assert fast == slow
    [error] = fast
    assert isinstance(error, ParseError), error


@pytest.mark.parametrize("room", ROOMS)
def test_every_line_of_a_rooms_hands_cut_anywhere_reads_without_raising(room: str) -> None:
    """A file cut or truncated inside a line (a description cut after `with `, a bracket
    left open …) gives a hand or a ParseError, never an exception out of the reader: every
    prefix of every line of the room's example hand and of the first hand of a few of its
    files, in place of that line."""
    texts = [importlib.import_module(f"razz.parser.sites.{room}").EXAMPLE]
    for path in _files(room)[-4:]:
        texts += [r.text for r in read_text(_text(path), path.name) if isinstance(r, Hand)][:1]
    for hand in texts:
        lines = hand.splitlines(keepends=True)
        for i, line in enumerate(lines):
            text = line.rstrip("\r\n")
            for at in range(len(text)):
                broken = "".join([*lines[:i], text[:at] + "\n", *lines[i + 1 :]])
                for result in read_text(broken, "x.txt"):
                    if isinstance(result, ParseError):
                        assert result.message and result.line >= 1


def test_the_rests_of_lines_kept_stay_few_and_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rests of lines after a name (`LinePatterns._tails`) are kept in two generations of
    at most `TAILS`: memory stays flat however many hands are read, and a rest found in the
    old generation reads as it did."""
    monkeypatch.setattr(LinePatterns, "TAILS", 40)
    grammar = _grammar("pokerstars")
    patterns, kept = grammar.patterns, 0
    monkeypatch.setattr(patterns, "_tails", {})  # this process's, put back after
    monkeypatch.setattr(patterns, "_old_tails", {})
    for count, lines in enumerate(_hands("pokerstars")):
        if count == 300:
            break
        names = [n for n in (seated(r) for r in map(_lark_record(grammar, []), lines)) if n]
        for line in lines:
            patterns.set_names(names)
            grammar.lexer.set_names(names)
            mine = patterns.read(line)
            if mine is not None:
                assert mine == _lark_record(grammar, names)(line), line
            assert len(patterns._tails) <= 40 and len(patterns._old_tails) <= 40
            kept = max(kept, len(patterns._old_tails))
    assert kept == 40  # the generations turned over


def _lark_record(grammar: LineGrammar, names: list[str]) -> Callable[[str], Any]:
    """A line's record as Lark's parser reads it with `names` seated (None if it does not
    read); a seat line adds its name to `names`."""

    def read(line: str) -> Any:
        try:
            record = grammar.read(line, "line", list(names))
        except (LarkError, ValueError):
            return None
        name = seated(record)
        if name is not None:
            names.append(name)
        return record

    return read
