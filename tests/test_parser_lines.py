"""Every PokerStars line type of FORMATS.md §1 becomes the right event with the right values."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from razz.parser import Hand, ParseError, SkippedHand, read_text
from razz.parser import events as ev

HEADER = "PokerStars Hand #1001:  Razz Limit ($0.10/$0.20 USD) - 2024/03/05 9:04:05 ET"
TABLE = "Table 'Alcyone II' 8-max"
SEATS = [
    "Seat 1: Ann ($5.00 in chips) ",
    "Seat 3: Bob ($4.00 in chips) ",
    "Seat 6: Cy ($0.01 in chips) ",
]
ANTES = [
    "Ann: posts the ante $0.02",
    "Bob: posts the ante $0.02",
    "Cy: posts the ante $0.01 and is all-in",
]
THIRD = [
    "*** 3rd STREET ***",
    "Dealt to Ann [Kd]",
    "Dealt to Bob [3s 4d 2c]",
    "Dealt to Cy [9h]",
    "Ann: brings in for $0.05",
    "Bob: raises $0.05 to $0.10",
    "Ann: calls $0.05",
]
SUMMARY = [
    "*** SUMMARY ***",
    "Total pot $0.45 | Rake $0.02 ",
    "Seat 1: Ann folded on the 4th Street",
    "Seat 3: Bob collected ($0.43)",
    "Seat 6: Cy folded on the 3rd Street (didn't bet)",
]


def hand_text(
    *body: str,
    header: str = HEADER,
    seats: list[str] | None = None,
    antes: list[str] | None = None,
    summary: list[str] | None = None,
) -> str:
    lines = [
        header,
        TABLE,
        *(SEATS if seats is None else seats),
        *(ANTES if antes is None else antes),
        *body,
        *(SUMMARY if summary is None else summary),
    ]
    return "\n".join(lines) + "\n"


def in_chips(text: str) -> str:
    """The same hand with chip amounts: "$0.05" becomes "5", "$5.00" becomes "500"."""
    return re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(int(m[1]) * 100 + int(m[2])), text)


def parse_one(text: str) -> Hand:
    results = list(read_text(text, "t.txt"))
    assert len(results) == 1, results
    result = results[0]
    assert isinstance(result, Hand), result
    return result


def events_of(text: str, kind: type) -> list:
    return [e for e in parse_one(text).events if isinstance(e, kind)]


def test_cash_header_and_table_line() -> None:
    hand = parse_one(hand_text(*THIRD))
    h = hand.header
    assert (h.site, h.hand_id, h.game, h.limit, h.kind) == (
        "PokerStars",
        "1001",
        "Razz",
        "Limit",
        ev.GameKind.CASH,
    )
    assert (h.small_bet, h.big_bet, h.unit, h.currency) == (10, 20, ev.Unit.CENT, "USD")
    assert (h.table, h.max_seats, h.play_money, h.mixed, h.tournament_id) == (
        "Alcyone II",
        8,
        False,
        None,
        None,
    )
    # 9:04:05 ET in March (before DST) is 14:04:05 UTC; the hour is not zero-padded.
    assert h.started_at == datetime(2024, 3, 5, 14, 4, 5, tzinfo=UTC)
    assert h.started_text == "2024/03/05 9:04:05 ET"
    assert (h.source, h.first_line) == ("t.txt", 1)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # 2008 form, no ISO code, date - time (ET)
        (
            "PokerStars Game #18707234955:  Razz Limit ($0.50/$1.00) - 2008/07/09 - 21:41:43 (ET)",
            {
                "small_bet": 50,
                "big_bet": 100,
                "currency": "USD",
                "time_zone": "ET",
                "started_at": datetime(2008, 7, 10, 1, 41, 43, tzinfo=UTC),
            },
        ),
        # local time first, ET in brackets: ET wins
        (
            "PokerStars Game #30506593746:  Razz Limit ($0.04/$0.08) - 2009/07/16 2:36:31 CET "
            "[2009/07/15 20:36:31 ET]",
            {"time_zone": "CET", "started_at": datetime(2009, 7, 16, 0, 36, 31, tzinfo=UTC)},
        ),
        # cash HORSE: the stakes inside the wrapper
        (
            "PokerStars Game #25381215423:  HORSE (Razz Limit, $0.10/$0.20) - 2009/02/26 15:20:19 ET",
            {"mixed": "HORSE", "small_bet": 10, "big_bet": 20, "kind": ev.GameKind.CASH},
        ),
        # 8-Game play money: chips, no currency
        (
            "PokerStars Hand #83338296941:  8-Game (Razz Limit, 100/200) - 2012/07/15 1:45:25 ET",
            {
                "mixed": "8-Game",
                "small_bet": 100,
                "unit": ev.Unit.CHIP,
                "currency": None,
                "play_money": True,
            },
        ),
        # euro and pound, with and without the ISO code
        (
            "PokerStars Hand #5:  Razz Limit (€1/€2 EUR) - 2020/01/01 12:00:00 CET [2020/01/01 6:00:00 ET]",
            {"currency": "EUR", "small_bet": 100, "big_bet": 200},
        ),
        (
            "PokerStars Hand #6:  Razz Limit (£0.25/£0.50) - 2020/01/01 12:00:00 ET",
            {"currency": "GBP", "small_bet": 25},
        ),
        # tournament, 2-part buy-in
        (
            "PokerStars Hand #49382949075: Tournament #2010090015, $200+$15 USD Razz Limit - Level IV "
            "(50/100) - 2010/09/09 18:27:23 ET",
            {
                "kind": ev.GameKind.TOURNAMENT,
                "tournament_id": "2010090015",
                "buy_in": (20000, 1500),
                "level": "IV",
                "small_bet": 50,
                "big_bet": 100,
                "unit": ev.Unit.CHIP,
                "currency": "USD",
            },
        ),
        # tournament 8-Game, 3-part (bounty) buy-in, local time
        (
            "PokerStars Hand #260946892373: Tournament #4002467877, $25+$25+$5 USD 8-Game (Razz Limit) "
            "- Level IV (200/400) - 2026/05/27 20:17:39 EET [2026/05/27 13:17:39 ET]",
            {
                "mixed": "8-Game",
                "buy_in": (2500, 2500, 500),
                "small_bet": 200,
                "level": "IV",
                "started_at": datetime(2026, 5, 27, 17, 17, 39, tzinfo=UTC),
            },
        ),
        # home game: club, play chips, shootout round
        (
            "PokerStars Home Game Hand #99632234066: {Dazzle's Room} Tournament #743144019, 100+9 "
            "8-Game (Razz Limit) - Match Round I, Level IV (30/60) - 2013/06/06 0:00:10 ET",
            {
                "club": "Dazzle's Room",
                "buy_in": (100, 9),
                "currency": None,
                "match_round": "I",
                "level": "IV",
                "small_bet": 30,
                "big_bet": 60,
            },
        ),
        # Zoom and a freeroll
        (
            "PokerStars Hand #7: Tournament #8, Freeroll  Razz Limit - Level I (10/20) - "
            "2015/01/01 1:00:00 ET",
            {"buy_in": (), "small_bet": 10},
        ),
    ],
)
def test_header_variants(header: str, expected: dict) -> None:
    text = hand_text(*THIRD, header=header)
    if expected.get("unit") is ev.Unit.CHIP or "Tournament" in header:
        text = in_chips(text)
    elif "€" in header or "£" in header:
        text = text.replace("$", header.split("(")[1][0])
    h = parse_one(text).header
    for key, value in expected.items():
        assert getattr(h, key) == value, key


def test_upper_case_pt2_export_is_read_as_a_stud_game_and_skipped() -> None:
    header = (
        "PokerStars Game #29356803849: TOURNAMENT #169962475, $10+$1 7 CARD STUD HI/LO LIMIT "
        "- LEVEL I (25/50) - 2009/06/14 11:45:00 ET"
    )
    [result] = read_text(in_chips(hand_text(*THIRD, header=header)))
    assert isinstance(result, SkippedHand)
    assert result.game == "7 Card Stud Hi/Lo"


def test_table_line_variants() -> None:
    for line, name, seats in [
        ("Table '2010090015 98' 8-max", "2010090015 98", 8),
        ("Table 'Ceské Budějovice' 6-max (Play Money)", "Ceské Budějovice", 6),
        ("Table 'Heads Up' 2-max", "Heads Up", 2),
    ]:
        text = hand_text(*THIRD).replace(TABLE, line)
        h = parse_one(text).header
        assert (h.table, h.max_seats) == (name, seats)


def test_seat_lines_stack_sitting_out_bounty_out_of_hand() -> None:
    seats = [
        "Seat 1: Ann ($5.00 in chips) ",
        "Seat 3: Bob ($4.00 in chips) is sitting out",
        "Seat 6: Cy ($0.01 in chips, $25 bounty) ",
        "Seat 8: Di ($12345.67 in chips) out of hand (moved from another table into small blind)",
    ]
    lines = [
        e for e in parse_one(hand_text(*THIRD, seats=seats)).events if isinstance(e, ev.SeatLine)
    ]
    assert [(s.seat, s.player, s.stack) for s in lines] == [
        (1, "Ann", 500),
        (3, "Bob", 400),
        (6, "Cy", 1),
        (8, "Di", 1234567),
    ]
    assert [s.sitting_out for s in lines] == [False, True, False, False]
    assert lines[2].bounty == "$25"
    assert lines[3].out_of_hand
    assert [s.line for s in lines] == [3, 4, 5, 6]


def test_antes_including_all_in() -> None:
    antes = events_of(hand_text(*THIRD), ev.PostAnte)
    assert [(a.player, a.amount, a.all_in) for a in antes] == [
        ("Ann", 2, False),
        ("Bob", 2, False),
        ("Cy", 1, True),
    ]


def test_third_street_dealing_bring_in_and_completion_as_raise() -> None:
    events = parse_one(hand_text(*THIRD)).events
    dealt = [e for e in events if isinstance(e, ev.Dealt)]
    assert [(d.player, d.previous, d.new, d.hero) for d in dealt] == [
        ("Ann", (), ("??", "??", "Kd"), False),
        ("Bob", (), ("3s", "4d", "2c"), True),
        ("Cy", (), ("??", "??", "9h"), False),
    ]
    assert all(d.street is ev.Street.THIRD for d in dealt)
    [bring_in] = [e for e in events if isinstance(e, ev.BringIn)]
    [completion] = [e for e in events if isinstance(e, ev.Raise)]
    [call] = [e for e in events if isinstance(e, ev.Call)]
    assert (bring_in.player, bring_in.amount) == ("Ann", 5)
    assert (completion.amount, completion.to) == (5, 10)
    assert (call.player, call.amount) == ("Ann", 5)


def test_later_streets_dealing_hero_and_others_and_river() -> None:
    body = [
        *THIRD,
        "*** 4th STREET ***",
        "Dealt to Ann [Kd] [8s]",
        "Dealt to Bob [3s 4d 2c] [7h]",
        "Bob: bets $0.10",
        "Ann: calls $0.10",
        "*** 5th STREET ***",
        "Dealt to Ann [Kd 8s] [Qs]",
        "Dealt to Bob [3s 4d 2c 7h] [5c]",
        "Bob: checks ",
        "Ann: checks ",
        "*** 6th STREET ***",
        "Dealt to Ann [Kd 8s Qs] [Jh]",
        "Dealt to Bob [3s 4d 2c 7h 5c] [6d]",
        "Bob: bets $0.20",
        "Ann: calls $0.20",
        "*** RIVER ***",
        "Dealt to Bob [3s 4d 2c 7h 5c 6d] [Ah]",
        "Bob: bets $0.20",
        "Ann: folds ",
        "Uncalled bet ($0.20) returned to Bob",
        "Bob collected $0.87 from pot",
        "Bob: doesn't show hand ",
    ]
    events = parse_one(hand_text(*body)).events
    starts = [e for e in events if isinstance(e, ev.StreetStart)]
    assert [s.street for s in starts] == list(ev.Street)
    dealt = {(d.player, d.street): d for d in events if isinstance(d, ev.Dealt)}
    assert dealt["Ann", ev.Street.SIXTH].previous == ("??", "??", "Kd", "8s", "Qs")
    assert not dealt["Ann", ev.Street.SIXTH].hero
    assert dealt["Bob", ev.Street.SEVENTH].new == ("Ah",)
    assert dealt["Bob", ev.Street.SEVENTH].hero
    [uncalled] = [e for e in events if isinstance(e, ev.UncalledBet)]
    assert (uncalled.player, uncalled.amount) == ("Bob", 20)
    [collect] = [e for e in events if isinstance(e, ev.Collect)]
    assert (collect.player, collect.amount, collect.pot_label, collect.side) == (
        "Bob",
        87,
        "pot",
        None,
    )
    assert [e.player for e in events if isinstance(e, ev.NoShow)] == ["Bob"]
    assert len([e for e in events if isinstance(e, ev.Check)]) == 2


def test_river_community_card_and_board() -> None:
    body = [
        *THIRD,
        "*** 4th STREET ***",
        "*** 5th STREET ***",
        "*** 6th STREET ***",
        "*** RIVER *** [6h]",
    ]
    summary = [*SUMMARY[:2], "Board [6h]", *SUMMARY[2:]]
    events = parse_one(hand_text(*body, summary=summary)).events
    river = [e for e in events if isinstance(e, ev.StreetStart)][-1]
    assert (river.street, river.community) == (ev.Street.SEVENTH, "6h")
    [board] = [e for e in events if isinstance(e, ev.Board)]
    assert board.cards == ("6h",)


def test_bets_calls_raises_all_in_and_capped() -> None:
    body = [
        *THIRD[:5],
        "Bob: raises $0.05 to $0.10",
        "Cy: raises $0.10 to $0.20",
        "Ann: raises $0.10 to $0.30",
        "Bob: raises $0.10 to $0.40",
        "Betting is capped",
        "Cy: calls $0.20 and is all-in",
        "Ann: bets $0.10 and is all-in",
        "Bob: raises $1.10 to $1.20 and is all-in",
    ]
    events = parse_one(hand_text(*body)).events
    raises = [e for e in events if isinstance(e, ev.Raise)]
    assert [(r.amount, r.to, r.all_in) for r in raises] == [
        (5, 10, False),
        (10, 20, False),
        (10, 30, False),
        (10, 40, False),
        (110, 120, True),
    ]
    assert len([e for e in events if isinstance(e, ev.BettingCapped)]) == 1
    [call] = [e for e in events if isinstance(e, ev.Call)]
    assert call.all_in and call.amount == 20
    [bet] = [e for e in events if isinstance(e, ev.Bet)]
    assert bet.all_in


def test_showdown_shows_mucks_collected_from_side_pots() -> None:
    body = [
        *THIRD,
        "*** SHOW DOWN ***",
        "Bob: shows [3s 4d 2c 7h 5c 6d Ah] (Lo: 5,4,3,2,A)",
        "Ann: mucks hand ",
        "Bob collected $0.20 from side pot-2",
        "Bob collected $0.10 from side pot-1 ",
        "Bob collected $0.10 from side pot",
        "Bob collected $0.03 from main pot",
        "Cy: shows [3d 3h 5h 4h] (Lo: 3,3,5,4)",
        "Cy: shows [Ah 2h]",
    ]
    events = parse_one(hand_text(*body)).events
    shows = [e for e in events if isinstance(e, ev.Show)]
    assert [(s.player, s.cards, s.description) for s in shows] == [
        ("Bob", ("3s", "4d", "2c", "7h", "5c", "6d", "Ah"), "Lo: 5,4,3,2,A"),
        ("Cy", ("3d", "3h", "5h", "4h"), "Lo: 3,3,5,4"),
        ("Cy", ("Ah", "2h"), None),
    ]
    assert [e.player for e in events if isinstance(e, ev.Muck)] == ["Ann"]
    collects = [(c.amount, c.pot_label, c.side) for c in events if isinstance(c, ev.Collect)]
    assert collects == [
        (20, "side pot-2", 2),
        (10, "side pot-1", 1),
        (10, "side pot", 1),
        (3, "main pot", None),
    ]
    assert any(isinstance(e, ev.ShowDown) for e in events)


@pytest.mark.parametrize(
    ("line", "total", "main", "sides", "rake"),
    [
        ("Total pot $0.41 | Rake $0.02 ", 41, None, (), 2),
        ("Total pot $11.45 | Rake $0 ", 1145, None, (), 0),
        ("Total pot $1.08 Main pot $0.42. Side pot $0.61. | Rake $0.05 ", 108, 42, (61,), 5),
        (
            "Total pot $9 Main pot $3. Side pot-1 $4. Side pot-2 $2. | Rake $0",
            900,
            300,
            (400, 200),
            0,
        ),
        ("Total pot $12 | Main pot $8 | Side pot $4 | Rake $0.50", 1200, 800, (400,), 50),
    ],
)
def test_total_pot_line_forms(
    line: str, total: int, main: int | None, sides: tuple, rake: int
) -> None:
    summary = ["*** SUMMARY ***", line, *SUMMARY[2:]]
    [pot] = events_of(hand_text(*THIRD, summary=summary), ev.TotalPot)
    assert (pot.total, pot.main, pot.sides, pot.rake) == (total, main, sides, rake)


def test_every_summary_seat_result_form() -> None:
    summary = [
        "*** SUMMARY ***",
        "Total pot $0.45 | Rake $0.02 ",
        "Seat 1: Ann folded on the 3rd Street (didn't bet)",
        "Seat 1: Ann folded on the 3rd Street",
        "Seat 1: Ann folded on the 4th Street",
        "Seat 1: Ann folded on the 5th Street",
        "Seat 1: Ann folded on the 6th Street",
        "Seat 1: Ann folded on the River",
        "Seat 3: Bob collected ($0.43)",
        "Seat 3: Bob showed [3s 4d 2c 7h 5c 6d Ah] and won ($0.43) with Lo: 5,4,3,2,A",
        "Seat 6: Cy showed [Kd Qd 9h Jc Kh Ks 8c] and lost with Lo: K,Q,J,9,8",
        "Seat 6: Cy mucked [Kd Qd 9h Jc Kh Ks 8c]",
        "Seat 6: Cy (button) collected ($0)",
    ]
    results = events_of(hand_text(*THIRD, summary=summary), ev.SeatResult)
    assert [(r.seat, r.player, r.outcome) for r in results] == [
        (1, "Ann", ev.Outcome.FOLDED)
    ] * 6 + [
        (3, "Bob", ev.Outcome.COLLECTED),
        (3, "Bob", ev.Outcome.SHOWED_WON),
        (6, "Cy", ev.Outcome.SHOWED_LOST),
        (6, "Cy", ev.Outcome.MUCKED),
        (6, "Cy", ev.Outcome.COLLECTED),
    ]
    assert [r.street for r in results[:6]] == [
        ev.Street.THIRD,
        ev.Street.THIRD,
        ev.Street.FOURTH,
        ev.Street.FIFTH,
        ev.Street.SIXTH,
        ev.Street.SEVENTH,
    ]
    assert [r.didnt_bet for r in results[:2]] == [True, False]
    assert (results[7].amount, results[7].description) == (43, "Lo: 5,4,3,2,A")
    assert results[8].description == "Lo: K,Q,J,9,8"
    assert results[9].cards[0] == "Kd"
    assert results[10].amount == 0


def test_noise_lines_anywhere_seated_or_not() -> None:
    body = [
        "*** 3rd STREET ***",
        "Dealt to Ann [Kd]",
        'Ann said, "this.is.lucky \\"hm\\" it\'s: bets $1"',
        "Dealt to Bob [3s 4d 2c]",
        "Zed joins the table at seat #4 ",
        "Dealt to Cy [9h]",
        "kurczakkr2 is disconnected ",
        "Ann: brings in for $0.05",
        "Bob is connected ",
        "Cy is sitting out",
        "Bob: raises $0.05 to $0.10",
        "Cy: sits out ",
        "Ann has timed out while being disconnected",
        "Ann has returned",
        "Zed leaves the table",
        "Pair on board - a double bet is allowed",
        "Ann: calls $0.05",
        "Yul was removed from the table for failing to post",
        "Bob has timed out",
    ]
    noise = events_of(hand_text(*body), ev.Noise)
    assert [(n.kind, n.player) for n in noise] == [
        (ev.NoiseKind.CHAT, "Ann"),
        (ev.NoiseKind.JOINS, "Zed"),
        (ev.NoiseKind.DISCONNECTED, "kurczakkr2"),
        (ev.NoiseKind.CONNECTED, "Bob"),
        (ev.NoiseKind.SITTING_OUT, "Cy"),
        (ev.NoiseKind.SITS_OUT, "Cy"),
        (ev.NoiseKind.TIMED_OUT, "Ann"),
        (ev.NoiseKind.RETURNED, "Ann"),
        (ev.NoiseKind.LEAVES, "Zed"),
        (ev.NoiseKind.OTHER, None),
        (ev.NoiseKind.REMOVED, "Yul"),
        (ev.NoiseKind.TIMED_OUT, "Bob"),
    ]
    assert noise[0].text == 'Ann said, "this.is.lucky \\"hm\\" it\'s: bets $1"'


def test_pre_deal_sitting_out_with_a_colon() -> None:
    antes = [*ANTES, "Cy: is sitting out"]
    noise = events_of(hand_text(*THIRD, antes=antes), ev.Noise)
    assert [(n.kind, n.player) for n in noise] == [(ev.NoiseKind.SITTING_OUT, "Cy")]


def test_tournament_finish_lines() -> None:
    header = (
        "PokerStars Hand #4: Tournament #9, $1+$0.10 USD Razz Limit - Level II (20/40) - "
        "2015/01/01 1:00:00 ET"
    )
    seats = [
        "Seat 1: Ann (500 in chips) ",
        "Seat 3: Bob (400 in chips) ",
        "Seat 6: Cy (1 in chips) ",
    ]
    antes = ["Ann: posts the ante 4", "Bob: posts the ante 4", "Cy: posts the ante 1 and is all-in"]
    body = [
        "*** 3rd STREET ***",
        "Dealt to Ann [Kd]",
        "Dealt to Bob [3s 4d 2c]",
        "Dealt to Cy [9h]",
        "Ann: brings in for 6",
        "Bob: calls 6",
        "Cy finished the tournament in 3rd place",
        "Ann finished the tournament in 2nd place and received $5.40.",
        "Bob wins the tournament and receives $9.00 - congratulations!",
    ]
    summary = [
        "*** SUMMARY ***",
        "Total pot 21 | Rake 0",
        "Seat 1: Ann folded on the 4th Street",
        "Seat 3: Bob collected (21)",
        "Seat 6: Cy folded on the 3rd Street (didn't bet)",
    ]
    events = parse_one(
        hand_text(*body, header=header, seats=seats, antes=antes, summary=summary)
    ).events
    finishes = [(e.player, e.place, e.prize) for e in events if isinstance(e, ev.TournamentFinish)]
    assert finishes == [("Cy", 3, None), ("Ann", 2, "$5.40")]
    [win] = [e for e in events if isinstance(e, ev.TournamentWin)]
    assert (win.player, win.prize) == ("Bob", "$9.00")


def test_hand_cancelled() -> None:
    text = (
        "\n".join(
            [
                HEADER,
                TABLE,
                *SEATS,
                "Hand cancelled",
                "*** SUMMARY ***",
                "Seat 1: Ann (button) collected ($0)",
            ]
        )
        + "\n"
    )
    events = parse_one(text).events
    assert any(isinstance(e, ev.HandCancelled) for e in events)


def test_every_event_carries_its_file_line() -> None:
    text = "garbage line\n\n\n" + hand_text(*THIRD)
    results = list(read_text(text, "f.txt"))
    assert isinstance(results[0], ParseError)
    hand = results[1]
    assert isinstance(hand, Hand)
    lines = text.split("\n")
    assert hand.header.first_line == 4
    for event in hand.events:
        source_line = lines[event.line - 1]
        if isinstance(event, ev.PlayerEvent):
            assert event.player in source_line, (event, source_line)


def test_amounts_are_exact_integers_never_floats() -> None:
    seats = [
        "Seat 1: Ann ($51125.64 in chips) ",
        "Seat 3: Bob ($1,646.95 in chips) ",
        "Seat 6: Cy ($0.01 in chips) ",
    ]
    lines = events_of(hand_text(*THIRD, seats=seats), ev.SeatLine)
    assert [s.stack for s in lines] == [5112564, 164695, 1]
    assert all(type(s.stack) is int for s in lines)


def test_a_sub_cent_amount_is_an_error_not_a_rounded_number() -> None:
    text = hand_text(*THIRD).replace("Ann: calls $0.05", "Ann: calls $0.055")
    [result] = read_text(text, "t.txt")
    assert isinstance(result, ParseError)
    assert "finer than a cent" in result.message
