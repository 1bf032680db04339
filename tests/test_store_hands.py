"""Hand-written PokerStars hands for the store's tests, and proof that they read as intended.

Other store tests load this module from its path. The expected figures in those tests
were worked out by hand from these texts (see the comments on each hand).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from razz.parser import Hand, read_text


def _stars(text: str) -> str:
    """PokerStars ends some line types with a space: the texts below mark it `·`."""
    return text.replace("·\n", " \n")

# Table 'Alpha', $0.04/$0.08 USD: Alice (seat 1), Bob (seat 3), Hero (seat 5).
# H1 10:00 ET: Alice (Kc) brings in, Bob folds, Hero (door 4d) completes, Alice folds.
#   Hero: VPIP, completion, steal attempt + success; net +4 (ante 1 + 4 - 2 returned; wins 7).
#   Alice -3 (bring-in posted, then folded; faced the completion, folded to it), Bob -1.
H1 = _stars("""\
PokerStars Game #1000000001:  Razz Limit ($0.04/$0.08 USD) - 2020/01/01 10:00:00 ET
Table 'Alpha' 8-max
Seat 1: Alice ($2 in chips)·
Seat 3: Bob ($2 in chips)·
Seat 5: Hero ($2 in chips)·
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Hero: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Kc]
Dealt to Bob [Qd]
Dealt to Hero [2s 3h 4d]
Alice: brings in for $0.02
Bob: folds·
Hero: raises $0.02 to $0.04
Alice: folds·
Uncalled bet ($0.02) returned to Hero
Hero collected $0.07 from pot
Hero: doesn't show hand·
*** SUMMARY ***
Total pot $0.07 | Rake $0·
Seat 1: Alice folded on the 3rd Street
Seat 3: Bob folded on the 3rd Street (didn't bet)
Seat 5: Hero collected ($0.07)



""")

# H2 10:05 ET: Bob (Js) brings in, Hero and Alice call; 4th Alice bets, Bob folds, Hero calls;
# 5th Hero bets, Alice raises, Hero calls; 6th Alice bets, Hero calls; river checked; showdown:
# Alice's wheel beats Hero's 7-low. Pot 65, rake 3: Alice collects 62.
#   Alice +31 (invested 31), Hero -31, Bob -3 (bring-in posted, never folded on 3rd).
H2 = _stars("""\
PokerStars Game #1000000002:  Razz Limit ($0.04/$0.08 USD) - 2020/01/01 10:05:00 ET
Table 'Alpha' 8-max
Seat 1: Alice ($1.97 in chips)·
Seat 3: Bob ($1.99 in chips)·
Seat 5: Hero ($2.04 in chips)·
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Hero: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [5c]
Dealt to Bob [Js]
Dealt to Hero [Ah 2d 6s]
Bob: brings in for $0.02
Hero: calls $0.02
Alice: calls $0.02
*** 4th STREET ***
Dealt to Alice [5c] [3c]
Dealt to Bob [Js] [Kd]
Dealt to Hero [Ah 2d 6s] [4h]
Alice: bets $0.04
Bob: folds·
Hero: calls $0.04
*** 5th STREET ***
Dealt to Alice [5c 3c] [8d]
Dealt to Hero [Ah 2d 6s 4h] [7c]
Hero: bets $0.08
Alice: raises $0.08 to $0.16
Hero: calls $0.08
*** 6th STREET ***
Dealt to Alice [5c 3c 8d] [2c]
Dealt to Hero [Ah 2d 6s 4h 7c] [Ks]
Alice: bets $0.08
Hero: calls $0.08
*** RIVER ***
Dealt to Hero [Ah 2d 6s 4h 7c Ks] [Td]
Alice: checks·
Hero: checks·
*** SHOW DOWN ***
Alice: shows [Ac 4c 5c 3c 8d 2c 9h] (Lo: 5,4,3,2,A)
Hero: mucks hand·
Alice collected $0.62 from pot
*** SUMMARY ***
Total pot $0.65 | Rake $0.03·
Seat 1: Alice showed [Ac 4c 5c 3c 8d 2c 9h] and won ($0.62) with Lo: 5,4,3,2,A
Seat 3: Bob folded on the 4th Street
Seat 5: Hero mucked [Ah 2d 6s 4h 7c Ks Td]



""")

# H3 10:50 ET (45 minutes later: a new session): Hero (Qh) brings in, Alice folds, Bob (2h)
# completes, Hero folds. Bob: steal attempt + success, +4; Hero -3 (posted the bring-in,
# folded to the completion); Alice -1.
H3 = _stars("""\
PokerStars Game #1000000003:  Razz Limit ($0.04/$0.08 USD) - 2020/01/01 10:50:00 ET
Table 'Alpha' 8-max
Seat 1: Alice ($2.28 in chips)·
Seat 3: Bob ($1.96 in chips)·
Seat 5: Hero ($1.73 in chips)·
Alice: posts the ante $0.01
Bob: posts the ante $0.01
Hero: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [7d]
Dealt to Bob [2h]
Dealt to Hero [9c Tc Qh]
Hero: brings in for $0.02
Alice: folds·
Bob: raises $0.02 to $0.04
Hero: folds·
Uncalled bet ($0.02) returned to Bob
Bob collected $0.07 from pot
Bob: doesn't show hand·
*** SUMMARY ***
Total pot $0.07 | Rake $0·
Seat 1: Alice folded on the 3rd Street (didn't bet)
Seat 3: Bob collected ($0.07)
Seat 5: Hero folded on the 3rd Street



""")

# T1, a tournament (chips): Carol (Th) brings in for 5, Hero (door 7s) completes to 10, Carol
# calls; 4th Hero bets, Carol folds. Hero +12 chips (steal attempt, not a success), Carol -12.
T1 = _stars("""\
PokerStars Hand #2000000001: Tournament #900000001, $1+$0.10 USD Razz Limit - Level I (10/20) \
- 2020/01/02 12:00:00 ET
Table '900000001 1' 8-max
Seat 2: Hero (1500 in chips)·
Seat 4: Carol (1500 in chips)·
Hero: posts the ante 2
Carol: posts the ante 2
*** 3rd STREET ***
Dealt to Hero [3d 5h 7s]
Dealt to Carol [Th]
Carol: brings in for 5
Hero: raises 5 to 10
Carol: calls 5
*** 4th STREET ***
Dealt to Hero [3d 5h 7s] [2c]
Dealt to Carol [Th] [9h]
Hero: bets 10
Carol: folds·
Uncalled bet (10) returned to Hero
Hero collected 24 from pot
Hero: doesn't show hand·
*** SUMMARY ***
Total pot 24 | Rake 0·
Seat 2: Hero collected (24)
Seat 4: Carol folded on the 4th Street



""")

# B1 at table 'Beta': Bob brings in although Alice's door card (Kd) is higher than his (9c):
# the audit must report BRINGIN-WHO on Bob's bring-in line (line 9 of the hand).
B1 = _stars("""\
PokerStars Game #1000000010:  Razz Limit ($0.04/$0.08 USD) - 2020/01/03 09:00:00 ET
Table 'Beta' 8-max
Seat 1: Alice ($3 in chips)·
Seat 2: Bob ($3 in chips)·
Alice: posts the ante $0.01
Bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [Kd]
Dealt to Bob [2h 3h 9c]
Bob: brings in for $0.02
Alice: folds·
Uncalled bet ($0.02) returned to Bob
Bob collected $0.02 from pot
Bob: doesn't show hand·
*** SUMMARY ***
Total pot $0.02 | Rake $0·
Seat 1: Alice folded on the 3rd Street (didn't bet)
Seat 2: Bob collected ($0.02)



""")

# Another game in the same format: skipped, never stored.
STUD = _stars("""\
PokerStars Game #1000000099:  7 Card Stud Limit ($0.04/$0.08 USD) - 2020/01/01 11:00:00 ET
Table 'Gamma' 8-max
Seat 1: Alice ($2 in chips)·
Seat 2: Bob ($2 in chips)·
Alice: posts the ante $0.01
Bob: posts the ante $0.01
*** 3rd STREET ***
Dealt to Alice [2c]
Dealt to Bob [Kh Qh 9d]
Alice: brings in for $0.02
Bob: folds·
Uncalled bet ($0.02) returned to Alice
Alice collected $0.02 from pot
*** SUMMARY ***
Total pot $0.02 | Rake $0·
Seat 1: Alice collected ($0.02)
Seat 2: Bob folded on the 3rd Street (didn't bet)



""")

# Not a hand history at all: rejected with its text, never lost.
GARBAGE = _stars("""\
PokerStars Game #1000000098:  Razz Limit ($0.04/$0.08 USD) - 2020/01/01 11:30:00 ET
this line is not part of any hand history format



""")

CASH_HANDS = (H1, H2, H3)


def numbered(template: str, hand_id: int, started: datetime) -> str:
    """The hand `template` (H1 or H3 style) with another hand id and start time.

    >>> numbered(H1, 5, datetime(2021, 2, 3, 4, 5, 6)).split(":  ")[0]
    'PokerStars Game #5'
    """
    first, rest = template.split("\n", 1)
    head = first.split("#", 1)[0]
    game = first.split(":  ", 1)[1].rsplit(" - ", 1)[0]
    return f"{head}#{hand_id}:  {game} - {started:%Y/%m/%d %H:%M:%S} ET\n{rest}"


def many_hands(count: int, first_id: int = 3_000_000_000, template: str = H1) -> str:
    """`count` copies of a hand, one minute apart, each with its own hand id."""
    start = datetime(2021, 1, 1, 0, 0, 0)
    return "".join(
        numbered(template, first_id + i, start + timedelta(minutes=i)) for i in range(count)
    )


# ---------------------------------------------------------------------------- tests


def test_hand_written_hands_parse_as_the_hands_they_describe() -> None:
    results = list(read_text(H1 + H2 + H3 + T1 + B1, "t.txt"))
    assert [type(r).__name__ for r in results] == ["Hand"] * 5
    hands = [r for r in results if isinstance(r, Hand)]
    assert [h.header.hand_id for h in hands] == [
        "1000000001", "1000000002", "1000000003", "2000000001", "1000000010",
    ]
    assert [h.header.first_line for h in hands] == [1, 28, 77, 104, 131]


def test_other_games_and_garbage_are_told_apart() -> None:
    kinds = [type(r).__name__ for r in read_text(STUD + GARBAGE, "t.txt")]
    assert kinds == ["SkippedHand", "ParseError"]


def test_many_hands_gives_distinct_ids_and_times() -> None:
    hands = [r for r in read_text(many_hands(3), "t.txt") if isinstance(r, Hand)]
    assert [h.header.hand_id for h in hands] == ["3000000000", "3000000001", "3000000002"]
    assert len({h.header.started_at for h in hands}) == 3
