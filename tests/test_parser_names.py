"""Player names are read from the seat lines, whatever they hold, in every line that names one."""

from __future__ import annotations

import itertools

import pytest

from razz.parser import Hand, read_text
from razz.parser import events as ev
from razz.parser.sites.pokerstars import PokerStarsParser

TRICKY = [
    "PC [Mittel]",
    "x [Ah Ks]",
    "Q [9] 8",
    "Seat 9",
    "Uncalled56",
    "Lo 8,6,4",
    "calls 4 ever",
    "Mr NoNo! Srb",
    "2.7 acequeen",
    "M. O'Neil",
    "Blåveis",
    "DaddyCa$h",
    "busmesome$£$",
    "0,1314",
    "Big Blind",
    "Dealt to",
    'said, "hi"',
    "李小龍",
    "a: b",
    "Total pot",
]

# A hand in which each of the three players (A the file owner, B, C) appears in every line
# type that names a player; U is a player who is not seated.
TEMPLATE = """\
PokerStars Hand #2002:  Razz Limit ($0.10/$0.20 USD) - 2024/03/05 21:04:05 ET
Table 'Alcyone II' 8-max
Seat 2: {A} ($5.00 in chips)
Seat 5: {B} ($4.00 in chips)
Seat 7: {C} ($3.00 in chips) is sitting out
{C}: is sitting out
{A}: posts the ante $0.02
{B}: posts the ante $0.02
{C}: posts the ante $0.02
*** 3rd STREET ***
Dealt to {A} [3s 4d 2c]
Dealt to {B} [Kd]
Dealt to {C} [9h]
{B}: brings in for $0.05
{U} joins the table at seat #1
{C} said, "gl {A}: bets $1"
{C}: folds
{A}: raises $0.05 to $0.10
{B}: calls $0.05
{U} is disconnected
*** 4th STREET ***
Dealt to {A} [3s 4d 2c] [7h]
Dealt to {B} [Kd] [8s]
{A}: bets $0.10
{B}: raises $0.10 to $0.20
{A}: calls $0.10
{C} has timed out while disconnected
*** 5th STREET ***
Dealt to {A} [3s 4d 2c 7h] [5c]
Dealt to {B} [Kd 8s] [Qs]
{A}: checks
{B}: checks
{C} leaves the table
*** 6th STREET ***
Dealt to {A} [3s 4d 2c 7h 5c] [6d]
Dealt to {B} [Kd 8s Qs] [Jh]
{A}: bets $0.20
{B}: calls $0.20
{B} is connected
*** RIVER ***
Dealt to {A} [3s 4d 2c 7h 5c 6d] [Ah]
{A}: bets $0.20
{B}: raises $0.20 to $0.40 and is all-in
{A}: calls $0.20
*** SHOW DOWN ***
{B}: shows [Td 9c Kd 8s Qs Jh 2h] (Lo: Q,J,T,9,8)
{A}: shows [3s 4d 2c 7h 5c 6d Ah] (Lo: 5,4,3,2,A)
{A} collected $2.01 from pot
{B}: sits out
{A} has returned
*** SUMMARY ***
Total pot $2.06 | Rake $0.05
Seat 2: {A} showed [3s 4d 2c 7h 5c 6d Ah] and won ($2.01) with Lo: 5,4,3,2,A
Seat 5: {B} showed [Td 9c Kd 8s Qs Jh 2h] and lost with Lo: Q,J,T,9,8
Seat 7: {C} folded on the 3rd Street (didn't bet)
"""

# The other endings: no showdown (uncalled bet, doesn't show, mucked in the summary).
ENDING = """\
PokerStars Hand #2003:  Razz Limit ($0.10/$0.20 USD) - 2024/03/05 21:05:05 ET
Table 'Alcyone II' 8-max
Seat 2: {A} ($5.00 in chips)
Seat 5: {B} ($4.00 in chips)
Seat 7: {C} ($3.00 in chips)
{A}: posts the ante $0.02
{B}: posts the ante $0.02
{C}: posts the ante $0.02
*** 3rd STREET ***
Dealt to {A} [3s 4d 2c]
Dealt to {B} [Kd]
Dealt to {C} [9h]
{B}: brings in for $0.05
{C}: calls $0.05
{A}: raises $0.05 to $0.10
{B}: folds
{C}: raises $0.10 to $0.20
{A}: raises $0.10 to $0.30
{C}: folds
Uncalled bet ($0.10) returned to {A}
{A} collected $0.51 from pot
{A}: doesn't show hand
{C} was removed from the table for failing to post
*** SUMMARY ***
Total pot $0.51 | Rake $0
Seat 2: {A} collected ($0.51)
Seat 5: {B} folded on the 3rd Street
Seat 7: {C} mucked [Kc Qc 9h]
"""

TOURNAMENT_END = """\
PokerStars Hand #2004: Tournament #77, $1+$0.10 USD Razz Limit - Level I (10/20) - 2024/03/05 21:06:05 ET
Table '77 1' 8-max
Seat 2: {A} (500 in chips)
Seat 5: {B} (2 in chips)
{A}: posts the ante 2
{B}: posts the ante 2 and is all-in
*** 3rd STREET ***
Dealt to {A} [3s 4d 2c]
Dealt to {B} [Kd]
*** 4th STREET ***
Dealt to {A} [3s 4d 2c] [7h]
Dealt to {B} [Kd] [8s]
*** 5th STREET ***
Dealt to {A} [3s 4d 2c 7h] [5c]
Dealt to {B} [Kd 8s] [Qs]
*** 6th STREET ***
Dealt to {A} [3s 4d 2c 7h 5c] [6d]
Dealt to {B} [Kd 8s Qs] [Jh]
*** RIVER ***
Dealt to {A} [3s 4d 2c 7h 5c 6d] [Ah]
*** SHOW DOWN ***
{A}: shows [3s 4d 2c 7h 5c 6d Ah] (Lo: 5,4,3,2,A)
{B}: mucks hand
{A} collected 4 from pot
{B} finished the tournament in 2nd place
{A} wins the tournament and receives $1.80 - congratulations!
*** SUMMARY ***
Total pot 4 | Rake 0
Seat 2: {A} showed [3s 4d 2c 7h 5c 6d Ah] and won (4) with Lo: 5,4,3,2,A
Seat 5: {B} mucked [Td 9c Kd 8s Qs Jh 2h]
"""


def fill(template: str, a: str, b: str, c: str = "Carl", u: str = "Rail Bird") -> str:
    return (
        template.replace("{A}", "\0A")
        .replace("{B}", "\0B")
        .replace("{C}", "\0C")
        .replace("{U}", "\0U")
        .replace("\0A", a)
        .replace("\0B", b)
        .replace("\0C", c)
        .replace("\0U", u)
    )


def players(hand: Hand) -> list[tuple[str, str | None]]:
    """(event type, player) for every event that names one, in file order."""
    out = []
    for e in hand.events:
        name = getattr(e, "player", None)
        if name is not None:
            out.append((type(e).__name__, name))
    return out


def parse(text: str, parser: PokerStarsParser | None = None) -> Hand:
    results = (
        list(read_text(text, "names.txt"))
        if parser is None
        else [parser.parse(text, "names.txt", 1)]
    )
    assert len(results) == 1
    assert isinstance(results[0], Hand), results[0]
    return results[0]


def expected_players(template: str, a: str, b: str, c: str, u: str) -> list[tuple[str, str]]:
    """The players the hand names, in order, read off the template's placeholders."""
    reference = parse(fill(template, "AAA", "BBB", "CCC", "UUU"))
    mapping = {"AAA": a, "BBB": b, "CCC": c, "UUU": u}
    return [(kind, mapping[name]) for kind, name in players(reference)]


ROLES = list(itertools.islice(itertools.permutations(TRICKY, 3), 0, None, 97))[:40]


@pytest.mark.parametrize(
    "template", [TEMPLATE, ENDING, TOURNAMENT_END], ids=["showdown", "no-showdown", "tournament"]
)
@pytest.mark.parametrize("name", TRICKY)
def test_each_tricky_name_in_every_role_and_line_type(template: str, name: str) -> None:
    others = [n for n in ("Ann", "Bob Lee", "Cy") if n != name]
    for a, b, c in (
        (name, others[0], others[1]),
        (others[0], name, others[1]),
        (others[0], others[1], name),
    ):
        u = "Rail Bird"
        hand = parse(fill(template, a, b, c, u))
        assert players(hand) == expected_players(template, a, b, c, u)


@pytest.mark.parametrize(("a", "b", "c"), ROLES)
def test_tricky_names_against_each_other(a: str, b: str, c: str) -> None:
    hand = parse(fill(TEMPLATE, a, b, c))
    assert players(hand) == expected_players(TEMPLATE, a, b, c, "Rail Bird")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("x", "x [Ah Ks]"),
        ("x [Ah Ks]", "x"),
        ("PC", "PC [Mittel]"),
        ("Q", "Q [9] 8"),
        ("Seat", "Seat 9"),
    ],
)
def test_a_name_that_begins_another_name(a: str, b: str) -> None:
    """`x` and `x [Ah Ks]` at one table: only the seat list tells `Dealt to x [Ah Ks] [5c]` apart."""
    for template in (TEMPLATE, ENDING):
        hand = parse(fill(template, a, b))
        assert players(hand) == expected_players(template, a, b, "Carl", "Rail Bird")


def test_dealt_to_a_bracketed_name_on_third_street() -> None:
    """`Dealt to PC [Mittel] [5c]`: the name holds a bracket, the door card follows."""
    hand = parse(fill(TEMPLATE, "Ann", "PC [Mittel]"))
    dealt = [e for e in hand.events if isinstance(e, ev.Dealt) and e.player == "PC [Mittel]"]
    assert [(d.street, d.previous, d.new) for d in dealt][:2] == [
        (ev.Street.THIRD, (), ("??", "??", "Kd")),
        (ev.Street.FOURTH, ("??", "??", "Kd"), ("8s",)),
    ]


def test_every_line_read_without_the_lalr_parser_reads_as_the_lalr_parser_reads_it() -> None:
    """`LinePatterns` takes no shortcut: each line it reads, Lark's parser reads the same."""
    grammar = PokerStarsParser().grammar
    checked = 0
    for a, b, c in ROLES:
        for template in (TEMPLATE, ENDING, TOURNAMENT_END):
            lines = fill(template, a, b, c).splitlines(keepends=True)
            names = [a, b, c]
            grammar.patterns.set_names(names)
            for line in lines:
                grammar.lexer.set_names(names)
                flat = grammar.patterns.read(line)
                if flat is None:
                    continue
                assert flat == grammar.read(line, "line", names), line
                checked += 1
    assert checked > 2000


def test_a_line_naming_a_player_who_is_not_seated_is_an_error() -> None:
    text = fill(ENDING, "Ann", "Bob", "Cy").replace("Cy: calls $0.05", "Ghost: calls $0.05")
    [result] = read_text(text, "t.txt")
    assert isinstance(result, ev.ParseError)
    assert result.line == 14
    assert "seated" in result.message
