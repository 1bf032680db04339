"""Reading hands line by line with the grammar (parser/lines.py): the two layers of the grammar
agree, lines read without the LALR parser or from the cache read as the parser reads them,
and a hand out of order is an error at the line that cannot come where it is."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from razz.grammar import grammar_text
from razz.parser import Hand, ParseError, read_text
from razz.parser.sites.pokerstars import PokerStarsParser

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "pokerstars"
DATA = Path(__file__).parent / "data" / "replay"
FOUR = (DATA / "four_players_showdown.txt").read_text(encoding="utf-8")
PARSER = PokerStarsParser()


def _line_kinds() -> set[str]:
    """The kinds of lines the `line` rule reads: its alternatives, by rule name or alias."""
    rules = PARSER.grammar.parser.rules
    alternatives = {r.expansion[0].name for r in rules if r.origin.name == "line"}
    return {r.alias or r.origin.name for r in rules if r.origin.name in alternatives}


def test_every_kind_of_line_has_its_token_in_the_order_and_its_words() -> None:
    text = grammar_text("pokerstars")
    kinds = {f"L_{k.upper()}" for k in _line_kinds()}
    declared = {
        name
        for line in re.findall(r"^%declare (.*)$", text, re.M)
        for name in line.split()
        if name.startswith("L_")
    }
    described = set(re.findall(r"^//:\s*(L_[A-Z0-9_]+)", text, re.M))
    assert kinds == declared == described


def test_a_cached_line_is_read_again_when_a_longer_name_is_seated() -> None:
    """`Hero2: folds` was Hero2's fold; with Hero seated alone it is not a line of the hand."""
    lines = PARSER.lines()
    two = FOUR.replace("Seat 5: Cara ($1.00 in chips)", "Seat 5: Hero2 ($1.00 in chips)")
    two = two.replace("Cara", "Hero2")
    assert isinstance(PARSER.parse(two, "a", 1, lines), Hand)
    # The same file, a hand where `Hero2` is gone and `Hero` stays: `Hero2: folds ` must not
    # be taken from the cache as Hero2's fold (nor as Hero's).
    gone = FOUR.replace("Cara: folds", "Hero2: folds").replace("#1001", "#1002")
    result = PARSER.parse(gone, "a", 1, lines)
    assert isinstance(result, ParseError) and result.line_text == "Hero2: folds "


def test_a_line_out_of_order_is_an_error_at_that_line() -> None:
    # (a `Dealt to` line on the wrong street is read, and judged by the auditor; after the
    # showdown no card is dealt)
    text = FOUR.replace("*** RIVER ***\n", "*** RIVER ***\n*** SHOW DOWN ***\n")
    [error] = read_text(text)
    assert isinstance(error, ParseError)
    assert error.line_text.startswith("Dealt to Hero [") and "cannot come here" in error.message


def test_a_hand_that_stops_is_an_error_at_its_end() -> None:
    [error] = read_text(FOUR.split("*** SUMMARY ***")[0])
    assert isinstance(error, ParseError)
    assert error.message.startswith("the hand ends too early; expected")


@pytest.mark.slow
def test_a_process_that_reads_one_file_builds_its_parser_in_a_quarter_of_a_second() -> None:
    """The built parser comes from Lark's cache: a new process does not build the tables."""
    code = (
        "from razz.parser.sites.pokerstars import PokerStarsParser; import time;"
        "t = time.perf_counter(); PokerStarsParser(); print(time.perf_counter() - t)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # the cache
    runs = sorted(
        float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True).stdout)
        for _ in range(3)
    )  # fmt: skip
    assert runs[0] < 0.25, runs


NAME_CHARS = st.characters(
    whitelist_categories=("Lu", "Ll", "Nd", "Zs", "Po", "Ps", "Pe", "Sc", "Sm"),
    blacklist_characters="\n\r",
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(NAME_CHARS, min_size=1, max_size=10), min_size=4, max_size=4, unique=True))
@example(names=["0", "00", "Hero0", ":"])  # a name that holds another player's: see the text
def test_any_names_read_without_the_lalr_parser_read_as_it_reads_them(names: list[str]) -> None:
    """Whatever the players are called, a line `LinePatterns` reads is read as Lark reads it
    (and a line it cannot read is left to Lark)."""
    # One pass: replaced one after the other, a name could rewrite part of an earlier one
    # (`Cara` -> `Hero0`, then `Hero` -> `:`), seating a player the lexer is never told of.
    renamed = dict(zip(("Alice", "Bob", "Cara", "Hero"), names, strict=True))
    text = re.sub("Alice|Bob|Cara|Hero", lambda m: renamed[m[0]], FOUR)
    grammar, flat = PARSER.grammar, PARSER.grammar.patterns
    flat.set_names(names)
    for line in text.splitlines(keepends=True):
        grammar.lexer.set_names(names)
        mine = flat.read(line)
        if mine is None:
            continue
        assert mine == grammar.read(line, "line", names), line
