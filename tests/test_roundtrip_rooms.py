"""Every room's round trip at scale: simulate with the room's ruleset and stakes, write as the
room writes, parse with the room's reader, replay with the room's ruleset and dialect.

Legal hands come back with no finding and with the simulator's money (each player's starting
stack and net, who brought in, whether there was a showdown); hands with an injected
violation come back with that rule found at the line the room's file gives the broken event
(`razz.simulate.rooms.hand_places`), except for the rules whose violation the room's format
cannot write (`UNWRITABLE`, each with its reason). PHH files write the actions one per line,
but the writer does not map each event to its action yet: there the rule is looked for in
the hand, not at a line.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from razz.parser import read_path, sites
from razz.parser.events import Collect, Fold, Hand, Muck, SeatLine, Show
from razz.replay.audit import audit_hand
from razz.replay.findings import Finding
from razz.replay.lowhand import low_value
from razz.replay.results import HandResult
from razz.replay.tablecheck import check_tables
from razz.simulate.rooms import UNWRITABLE, hand_places, save, write_room
from razz.simulate.simulator import simulate
from razz.simulate.violations import payment_rule, simulate_violations
from razz.store.ingest import ruleset_for

ROOMS = ("fulltilt", "winamax", "kingsclub", "merge", "phh")
LEGAL_HANDS, LEGAL_SEED = 250, 2026
VIOLATION_HANDS, VIOLATION_SEED = 200, 5

# A Merge tournament's games state no stakes (its `<description stakes="Limit"/>` gives no
# amounts; a cash table's states them): the reader takes them from the hand's full wagers
# and, in a hand with none (the bring-in folded to, every wager short or all-in), guesses
# them from the bring-in (twice it). The guess is often wrong (a bring-in is 3/10 of the
# small bet here), and the hand, and the table check of its table's other hands, are then
# held to the guessed stakes: these findings come from that guess, never from the hand. Only
# hands whose file states no stakes count as guessed.
STAKE_GUESSES = frozenset(
    ("STRUCT-ANTE", "STRUCT-BRINGIN-SIZE", "STRUCT-SMALL", "STRUCT-BIG", "ACT-COMPLETE",
     "ACT-RAISE-SIZE", "STRUCT-NO-DOUBLE")
)  # fmt: skip
MAX_GUESSED = 0.1  # of a room's hands

Audited = list[tuple[Hand, HandResult, tuple[Finding, ...]]]


def _audit(paths: Iterable[Path]) -> Audited:
    pairs = []
    for path in paths:
        for parsed in read_path(path):
            assert isinstance(parsed, Hand), str(parsed)
            pairs.append((parsed, audit_hand(parsed, ruleset_for(parsed))))
    table = check_tables(pairs)
    return [
        (hand, result, (*result.findings, *table.get((hand.header.source, hand.header.hand_id), ())))
        for hand, result in pairs
    ]


def _guessed_wrong(parsed: Hand, simulated: Hand) -> bool:
    """The file states no stakes and the reader's guess of them is not the hand's."""
    stakes = (parsed.header.small_bet, parsed.header.big_bet)
    truth = (simulated.header.small_bet, simulated.header.big_bet)
    return not parsed.header.stakes_stated and stakes != truth


def _legal(room: str, hands: int, tmp: Path) -> None:
    files = simulate(hands, LEGAL_SEED, site=room)
    written = write_room(room, files)
    paths = save(written, tmp)
    places = hand_places(written)
    audited = {
        (Path(h.header.source).name, h.header.hand_id): (h, r, f) for h, r, f in _audit(paths)
    }
    assert len(audited) == hands
    unexplained = []
    guesses = 0
    for sim in files:
        for hand in sim.hands:
            name, hand_id, _ = places[sim.name, hand.header.hand_id]
            parsed, result, findings = audited[name, hand_id]
            guessed = _guessed_wrong(parsed, hand)
            if findings and guessed and {f.rule for f in findings} <= STAKE_GUESSES:
                guesses += 1
            elif findings:
                unexplained.append((name, hand_id, [str(f) for f in findings]))
            money = {p.player: (p.starting_stack, p.net) for p in hand.players}
            assert {p.player: (p.starting_stack, p.net) for p in result.players} == money
            assert result.bring_in_player == hand.bring_in_player
            assert result.went_to_showdown == hand.went_to_showdown
    assert unexplained == []
    assert guesses <= MAX_GUESSED * hands


LEGAL_ROOMS = ROOMS


@pytest.mark.parametrize("room", LEGAL_ROOMS)
def test_each_rooms_simulated_hands_replay_clean_with_the_simulators_money(
    room: str, tmp_path: Path
) -> None:
    _legal(room, LEGAL_HANDS, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("room", LEGAL_ROOMS)
def test_each_rooms_round_trip_holds_over_thousands_of_hands(room: str, tmp_path: Path) -> None:
    _legal(room, 3000, tmp_path)


PAYMENTS = frozenset(("HAND-LOW", "HAND-PAIRS", "HAND-COMPARE", "WIN-NOQUAL"))


def _rules_shown(parsed: Hand, rule: str, line: int | None) -> set[str]:
    """The rules a wrong payment breaks as the file shows it. A player left at the showdown
    who neither shows nor mucks (Winamax writes no muck line) cannot be ranked: the
    misreading that explains the payment is then named among the hands shown
    (`payment_rule`; any payment rule when two misreadings explain it alike)."""
    if rule not in PAYMENTS - {"WIN-NOQUAL"}:
        return {rule}
    folded = {e.player for e in parsed.events if isinstance(e, Fold | Muck)}
    shown = {e.player: e.cards for e in parsed.events if isinstance(e, Show) and len(e.cards) == 7}
    seated = {e.player for e in parsed.events if isinstance(e, SeatLine) and not e.out_of_hand}
    paid = [e.player for e in parsed.events if isinstance(e, Collect) and e.line == line]
    if not paid or paid[0] not in shown or not (seated - folded - set(shown)):
        return {rule}
    best = min(shown, key=lambda n: low_value(shown[n]))
    return {payment_rule(shown, paid[0], best)} - {""} or set(PAYMENTS)


def _rake_or_payment(parsed: Hand, rule: str, note: str) -> bool:
    """Whether an injected rake one unit too high is written as an overpaid collection would
    be: where `Total pot` is the pot after the rake (Winamax) and no per-seat summary repeats
    the amounts collected, `Total pot 5.40€ | Rake 0.28€` with `collected 5.41€` is the very
    file of a rake of 0.28€ and a winner paid one cent too much. The check then names the
    collection (the rake is one the room can take); POT-RAKE found there is the violation
    found, at one of the two lines that disagree, the one the file cannot tell from the other.
    """
    dialect = sites.by_name(parsed.header.site).dialect
    return rule == "POT-RAKE" and note.startswith("rake ") and dialect.total_after_rake


def _violations(room: str, hands: int, tmp: Path) -> None:
    files, injections = simulate_violations(hands, VIOLATION_SEED, site=room)
    written = write_room(room, files)
    paths = save(written, tmp)
    places = hand_places(written)
    found = {(Path(h.header.source).name, h.header.hand_id): (h, f) for h, _, f in _audit(paths)}
    truth = {(sim.name, h.header.hand_id): h for sim in files for h in sim.hands}
    unwritable = UNWRITABLE.get(room, {})
    missed = []
    for i in injections:
        if i.rule in unwritable:
            continue
        name, hand_id, lines = places[i.file, i.hand_id]
        parsed, findings = found[name, hand_id]
        if i.rule in STAKE_GUESSES and _guessed_wrong(parsed, truth[i.file, i.hand_id]):
            continue  # the wrong size is the file's only evidence of the stakes: see above
        if room == "phh":
            hit = any(f.rule == i.rule for f in findings)
        else:
            at, rules = lines.get(i.line), _rules_shown(parsed, i.rule, lines.get(i.line))
            hit = any(f.rule in rules and f.line == at for f in findings)
            if not hit and _rake_or_payment(parsed, i.rule, i.note):
                collections = {e.line for e in parsed.events if isinstance(e, Collect)}
                hit = any(f.rule == i.rule and f.line in collections for f in findings)
        if not hit:
            missed.append((i.rule, i.note, name, hand_id, [(f.rule, f.line) for f in findings]))
    assert missed == []
    # The copies break every rule the room can write, so each is tried.
    tried = {i.rule for i in injections if i.rule not in unwritable}
    assert len(tried) >= 25


@pytest.mark.parametrize("room", ROOMS)
def test_each_rooms_injected_violations_are_found_at_their_line_with_their_rule(
    room: str, tmp_path: Path
) -> None:
    _violations(room, VIOLATION_HANDS, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("room", ROOMS)
def test_each_rooms_violations_hold_over_a_thousand_hands(room: str, tmp_path: Path) -> None:
    _violations(room, 1000, tmp_path)


def test_every_unwritable_rule_says_why() -> None:
    assert all(reason.strip() for reasons in UNWRITABLE.values() for reason in reasons.values())


def test_each_rooms_players_are_named_apart_from_every_other_rooms() -> None:
    """A screen name is a room's: the same seed seats the same players in every room, each
    room naming them with its own mark (`RoomPlay.name_tag`), so that no simulated name plays
    in two rooms, and PokerStars' names are the ones it always had."""
    from razz.simulate.simulator import ROOMS as PLAYS

    def seated(site: str) -> list[str]:
        return [e.player for f in simulate(120, 7, site=site) for h in f.hands
                for e in h.events if isinstance(e, SeatLine)]  # fmt: skip

    names = {site: seated(site) for site in ("pokerstars", *ROOMS)}
    for room in ROOMS:
        tag = PLAYS[room].name_tag
        assert tag.strip() and all(name.endswith(tag) for name in names[room])
        others = set().union(*(names[site] for site in names if site != room))
        assert not others & set(names[room])
        # The same draws: without its mark, a room seats names PokerStars' tables seat.
        assert {name.removesuffix(tag) for name in names[room]} & set(names["pokerstars"])
    assert PLAYS["pokerstars"].name_tag == ""


SAMPLES = Path(__file__).resolve().parents[1] / "sample_histories" / "rooms"
# The command that made sample_histories/rooms/ (see sample_histories/README.md), per room.
SAMPLE_HANDS, SAMPLE_SEED = 200, 4


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="no sample_histories/rooms/")
@pytest.mark.parametrize("room", ROOMS)
def test_shipped_room_samples_are_what_razz_simulate_writes(room: str, tmp_path: Path) -> None:
    """`razz simulate --site ROOM --hands 200 --seed 4` writes sample_histories/rooms/ROOM/
    again, byte for byte: the same files, nothing more."""
    from razz.cli import main

    out = tmp_path / room
    assert main(["simulate", "--site", room, "--hands", str(SAMPLE_HANDS),
                 "--seed", str(SAMPLE_SEED), "--out", str(out)]) == 0
    written = sorted(p.name for p in out.iterdir())
    assert sorted(p.name for p in (SAMPLES / room).iterdir()) == written
    for name in written:
        assert (SAMPLES / room / name).read_bytes() == (out / name).read_bytes(), name
    hands = [h for path in sorted(out.iterdir()) for h in read_path(path)]
    assert len(hands) == SAMPLE_HANDS and all(isinstance(h, Hand) for h in hands)
