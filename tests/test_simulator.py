"""The hand simulator: legal hands from the engine, the situations Razz logs must handle,
exact line numbers, stacks carried from hand to hand, and the same bytes for the same seed."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from razz.cli import main
from razz.parser import Hand, read_stream
from razz.parser.events import (
    BettingCapped,
    BringIn,
    Dealt,
    GameKind,
    Muck,
    Noise,
    NoiseKind,
    NoShow,
    PostAnte,
    Raise,
    SeatLine,
    SeatResult,
    Show,
    Street,
    StreetStart,
    TournamentFinish,
    TournamentWin,
    UncalledBet,
)
from razz.parser.sites.pokerstars_writer import HandWriter
from razz.replay.cards import door_key
from razz.simulate.players import STYLES, TRICKY_NAMES, low_strength
from razz.simulate.simulator import (
    CASH_STAKES,
    CASH_TABLE_NAMES,
    TABLE_NAMES,
    TOURNAMENT_LEVELS,
    SimulatedFile,
    cash_table_name,
    file_text,
    roman,
    simulate,
)

HANDS, SEED = 1200, 1


@pytest.fixture(scope="module")
def run() -> tuple[SimulatedFile, ...]:
    return simulate(hands=HANDS, seed=SEED)


def test_simulate_plays_exactly_the_hands_asked_for(run: tuple[SimulatedFile, ...]) -> None:
    assert sum(len(f.hands) for f in run) == HANDS
    assert len(run) > 5


def test_the_same_seed_writes_the_same_bytes_and_another_seed_does_not() -> None:
    first = [file_text(f) for f in simulate(hands=150, seed=9)]
    again = [file_text(f) for f in simulate(hands=150, seed=9)]
    other = [file_text(f) for f in simulate(hands=150, seed=10)]
    assert first == again
    assert first != other


def test_legal_hands_get_no_finding_from_the_engine(run: tuple[SimulatedFile, ...]) -> None:
    # `simulate` is strict by default (it raises at a finding); this checks what it recorded.
    assert [f for sim in run for h in sim.hands for f in h.findings] == []


def test_every_event_is_written_on_the_line_it_carries(run: tuple[SimulatedFile, ...]) -> None:
    for sim in run:
        text = file_text(sim).removeprefix("\ufeff")
        assert "\r\n" in text if sim.newline == "\r\n" else "\r" not in text
        lines = text.split(sim.newline)
        writer = HandWriter.for_header(sim.hands[0].header)
        for hand in sim.hands:
            header = hand.header
            assert lines[header.first_line - 1].startswith(f"PokerStars Hand #{header.hand_id}: ")
            for event in hand.events:
                assert lines[event.line - 1] == writer.line(event)
            # Three empty lines after every hand, the last one too.
            gap = lines[hand.last_line : hand.last_line + 3]
            assert gap == ["", "", ""]
        assert lines[sim.hands[-1].last_line + 3 :] == [""]


def test_stacks_carry_from_hand_to_hand(run: tuple[SimulatedFile, ...]) -> None:
    grew = 0
    for sim in run:
        for before, after in zip(sim.hands, sim.hands[1:], strict=False):
            final = {p.player: p.starting_stack + p.net for p in before.players}
            for p in after.players:
                if p.player not in final:
                    continue
                if sim.kind is GameKind.TOURNAMENT:
                    assert p.starting_stack == final[p.player]
                else:  # cash: a top-up (not logged) may add chips, nothing takes any
                    assert p.starting_stack >= final[p.player]
                    grew += p.starting_stack > final[p.player]
    assert grew > 0


def test_each_file_has_one_hero_who_sees_their_down_cards(
    run: tuple[SimulatedFile, ...],
) -> None:
    for sim in run:
        heroes = {e.player for h in sim.hands for e in h.events if isinstance(e, Dealt) and e.hero}
        assert heroes == {sim.hands[0].hero}
        for hand in sim.hands:
            seated = [e.player for e in hand.events if isinstance(e, SeatLine)]
            assert hand.hero in seated
            assert len(seated) == len(set(seated))


def _situations(run: tuple[SimulatedFile, ...]) -> Counter[str]:
    c: Counter[str] = Counter()
    for sim in run:
        c[f"{sim.kind} file"] += 1
        c["CRLF" if sim.newline == "\r\n" else "LF"] += 1
        c["BOM"] += sim.bom
        for h in sim.hands:
            ev = h.events
            seats = [e for e in ev if isinstance(e, SeatLine)]
            c[f"{len(seats)} players"] += 1
            c["local time zone"] += "[" in h.header.started_text
            c["tricky name"] += any(s.player in TRICKY_NAMES for s in seats)
            c["non-ASCII name"] += any(not s.player.isascii() for s in seats)
            c["all-in ante"] += any(isinstance(e, PostAnte) and e.all_in for e in ev)
            c["all-in"] += any(getattr(e, "all_in", False) for e in ev)
            c["all-in bring-in"] += any(isinstance(e, BringIn) and e.all_in for e in ev)
            c["side pot"] += len(h.pots) > 1
            c["several side pots"] += len(h.pots) > 2
            c["capped"] += any(isinstance(e, BettingCapped) for e in ev)
            c["community card"] += h.community_card is not None
            c["split pot"] += any(len(p.winners) > 1 for p in h.pots)
            c["uncalled bet"] += any(isinstance(e, UncalledBet) for e in ev)
            c["4-card show"] += any(isinstance(e, Show) and len(e.cards) == 4 for e in ev)
            c["doesn't show"] += any(isinstance(e, NoShow) for e in ev)
            c["muck"] += any(isinstance(e, Muck) for e in ev)
            c["join"] += any(isinstance(e, Noise) and e.kind is NoiseKind.JOINS for e in ev)
            c["leave"] += any(isinstance(e, Noise) and e.kind is NoiseKind.LEAVES for e in ev)
            c["chat"] += any(isinstance(e, Noise) and e.kind is NoiseKind.CHAT for e in ev)
            c["sitting out"] += any(s.sitting_out for s in seats)
            c["finished"] += any(isinstance(e, TournamentFinish) for e in ev)
            c["won tournament"] += any(isinstance(e, TournamentWin) for e in ev)
            c["didn't bet"] += any(isinstance(e, SeatResult) and e.didnt_bet for e in ev)
            c["showdown"] += h.went_to_showdown
            c["bring-in completes (bets)"] += not any(isinstance(e, BringIn) for e in ev)
            third = [e for e in ev if e.line < _street_line(ev, Street.FOURTH)]
            c["completion (raise)"] += any(isinstance(e, Raise) for e in third) and any(
                isinstance(e, BringIn) for e in third
            )
            doors = {
                e.player: e.new[-1] for e in ev if isinstance(e, Dealt) and e.street is Street.THIRD
            }
            natural = max(doors, key=lambda n: door_key(doors[n]))
            c["bring-in passed on"] += h.bring_in_player not in (None, natural)
    return c


def _street_line(events: tuple[object, ...], street: Street) -> int:
    for e in events:
        if isinstance(e, StreetStart) and e.street is street:
            return e.line
    return 10**9


def test_simulated_hands_contain_every_situation_a_razz_log_can_hold(
    run: tuple[SimulatedFile, ...],
) -> None:
    c = _situations(run)
    wanted = [
        "cash file", "tournament file", "CRLF", "LF", "BOM", "local time zone", "tricky name",
        "non-ASCII name", "all-in ante", "all-in", "all-in bring-in", "side pot",
        "several side pots", "capped", "community card", "split pot", "uncalled bet",
        "4-card show", "doesn't show", "muck", "join", "leave", "chat", "sitting out",
        "finished", "won tournament", "didn't bet", "showdown", "bring-in completes (bets)",
        "completion (raise)", "bring-in passed on",
        *(f"{n} players" for n in range(2, 9)),
    ]  # fmt: skip
    assert [w for w in wanted if c[w] == 0] == []
    # Not every hand goes to a showdown: players fold.
    assert c["showdown"] < 0.6 * HANDS


def test_stakes_follow_pokerstars_ante_and_bring_in_sizes() -> None:
    assert (CASH_STAKES[0].small_bet, CASH_STAKES[0].ante, CASH_STAKES[0].bring_in) == (4, 1, 2)
    fifty = next(s for s in TOURNAMENT_LEVELS if s.small_bet == 50)
    assert (fifty.big_bet, fifty.ante, fifty.bring_in, fifty.level) == (100, 10, 15, "IV")
    for s in (*CASH_STAKES, *TOURNAMENT_LEVELS):
        assert s.big_bet == 2 * s.small_bet
        assert 0 < s.ante < s.bring_in < s.small_bet


def test_roman_numerals_of_levels() -> None:
    assert [roman(n) for n in (1, 4, 9, 14, 31, 40)] == ["I", "IV", "IX", "XIV", "XXXI", "XL"]


def test_cash_tables_get_new_names_after_all_624_are_used() -> None:
    # A long run (razz simulate --hands 200000) opens more cash tables than there are
    # names; the generator used to draw forever once the 624th was taken.
    taken: set[str] = set()
    rng = random.Random(5)
    names = [cash_table_name(rng, taken) for _ in range(2 * CASH_TABLE_NAMES + 10)]
    assert len(set(names)) == len(names) == len(taken)
    first, second, third = (
        names[:CASH_TABLE_NAMES],
        names[CASH_TABLE_NAMES : 2 * CASH_TABLE_NAMES],
        names[2 * CASH_TABLE_NAMES :],
    )
    every = {f"{t} {roman(n)}" for t in TABLE_NAMES for n in range(1, 40)}
    assert set(first) == every  # every plain name once, before any gets a number
    assert {n.removesuffix(" 2") for n in second} == every
    assert all(n.endswith(" 3") for n in third)


def test_a_numbered_table_name_reads_back_as_written(run: tuple[SimulatedFile, ...]) -> None:
    simulated = next(f for f in run if f.kind is GameKind.CASH)
    hand = simulated.hands[0]
    header = replace(hand.header, table="Gotha XII 2")
    text = file_text(replace(simulated, hands=(replace(hand, header=header),)))
    (read,) = [h for h in read_stream(io.BytesIO(text.encode()), "t.txt") if isinstance(h, Hand)]
    assert read.header.table == "Gotha XII 2"


@given(
    kinds=st.sets(
        st.sampled_from(["fold", "check", "call", "bet", "raise", "complete", "bring_in"]),
        min_size=1,
    ),
    strength=st.floats(0, 1),
    seed=st.integers(0, 2**32),
    style=st.sampled_from(sorted(STYLES)),
)
def test_a_play_style_only_ever_picks_one_of_the_legal_actions(
    kinds: set[str], strength: float, seed: int, style: str
) -> None:
    choice = STYLES[style].choose(
        random.Random(seed), sorted(kinds), strength=strength, to_call="call" in kinds
    )
    assert choice in kinds


def test_low_cards_make_a_stronger_hand_than_high_pairs() -> None:
    assert low_strength(["As", "2d", "3c", "4h", "5s"]) > low_strength(["Ks", "Kd", "Qc", "Qh"])


def test_razz_simulate_command_writes_files_copies_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    assert (
        main(["simulate", "--hands", "30", "--seed", "4", "--out", str(out), "--violations"]) == 0
    )
    files = sorted(out.glob("*.txt"))
    copies = sorted((out / "violations").glob("*.txt"))
    assert files and len(copies) == len(files)
    manifest = [
        json.loads(x) for x in (out / "violations" / "manifest.jsonl").read_text().splitlines()
    ]
    assert len(manifest) == 30
    assert {"file", "hand_id", "rule", "line"} <= set(manifest[0])
    assert {m["file"] for m in manifest} == {p.name for p in copies}
    again = tmp_path / "again"
    assert main(["simulate", "--hands", "30", "--seed", "4", "--out", str(again)]) == 0
    assert [p.read_bytes() for p in files] == [(again / p.name).read_bytes() for p in files]


def test_razz_simulate_command_refuses_a_file_as_output_directory(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("x")
    assert main(["simulate", "--hands", "3", "--out", str(target)]) == 2
