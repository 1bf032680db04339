"""The fidelity harness's own generator is right: its lows follow the rooms' test vectors, PokerKit
agrees with its bring-ins, turns and payoffs, and its hands cover what the harness must cover.

The generator (tests/fidelity/) is written from RAZZ_RULES.md without the shipped simulator or
the auditor; these tests check it against the rule document and against PokerKit, so that a
disagreement with the auditor points at the auditor.
"""

from __future__ import annotations

import doctest
import importlib
import random
import sys
from pathlib import Path

import pytest
from pokerkit import Automation, FixedLimitRazz

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fidelity.cards import low_key, low_text
from fidelity.game import Game, Played
from fidelity.generate import Knobs, coverage, legal_tables, random_policy, random_spec
from fidelity.writer import hand_lines, render

from razz.parser import Hand, read_text

# RAZZ_RULES.md, "Test vectors from the rooms' own pages": worst to best.
WORST_TO_BEST = [
    "3 3 3 5 5", "K K 4 3 2", "2 2 7 6 5", "A A T 9 8", "K Q J T 9", "K Q J T 7",
    "9 8 7 6 5", "9 7 6 5 3", "9 7 6 5 A", "6 5 4 3 2", "6 4 3 2 A", "5 4 3 2 A",
]  # fmt: skip
TWENTY_BEST = [
    "5432A",
    "6432A",
    "6532A",
    "6542A",
    "6543A",
    "65432",
    "7432A",
    "7532A",
    "7542A",
    "7543A",
    "75432",
    "7632A",
    "7642A",
    "7643A",
    "76432",
    "7652A",
    "7653A",
    "76532",
    "7654A",
    "76542",
]


def _cards(ranks: list[str]) -> list[str]:
    suits = "cdhs"
    seen: dict[str, int] = {}
    out = []
    for r in ranks:
        out.append(r + suits[seen.get(r, 0)])
        seen[r] = seen.get(r, 0) + 1
    return out


def test_lows_rank_as_the_rooms_test_vectors_say() -> None:
    keys = [low_key(_cards(h.split())) for h in WORST_TO_BEST]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    best = [low_key(_cards(list(h))) for h in TWENTY_BEST]
    assert best == sorted(best) and len(set(best)) == len(best)


def test_lows_are_named_as_pokerstars_names_them() -> None:
    assert low_text(["6h", "8h", "3d", "Ad", "Ac", "Kh", "8c"]) == "K,8,6,3,A"
    assert low_text(["2d", "4s", "9d", "7c", "Ts", "5s", "Tc"]) == "9,7,5,4,2"


AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _pokerkit_comparable(played: Played) -> bool:
    """Hands where PokerKit's rules and the pokerstars rules agree (see test_pokerkit_oracle)."""
    st = played.spec.stakes
    if played.board is not None or len(played.spec.seats) > 7:
        return False  # PokerKit deals no community card
    if any(s.stack <= st.ante + st.small for s in played.spec.seats):
        return False  # all-in antes and bring-ins: PokerKit opens differently
    if any(e.kind in ("bet", "raise") and e.all_in for e in played.events):
        return False  # short all-in wagers: PokerKit may reopen the betting
    return all(len(p.shares) <= 2 for p in played.pots)  # PokerKit's odd chips go to one winner


def _replay_in_pokerkit(played: Played) -> list[int]:
    """Play the generator's hand in PokerKit, asserting the same player acts at every step."""
    spec = played.spec
    st = spec.stakes
    names = [s.name for s in spec.seats]
    state = FixedLimitRazz.create_state(
        AUTOMATIONS,
        True,
        st.ante,
        st.bring_in,
        st.small,
        st.big,
        tuple(s.stack for s in spec.seats),
        len(names),
    )
    cards = {k: played.players[n].cards for k, n in enumerate(names)}
    dealt = [0] * len(names)
    street = 0
    opened = False
    for e in played.events:
        if e.kind == "street":
            street = e.street
            while state.can_deal_hole():
                who = state.hole_dealee_index
                assert who is not None
                if dealt[who] >= street or dealt[who] >= len(cards[who]):
                    break
                state.deal_hole(cards[who][dealt[who]])
                dealt[who] += 1
        if e.kind not in ("bringin", "bet", "raise", "call", "check", "fold"):
            continue
        actor = names.index(e.player or "")
        if not opened:  # BRINGIN-WHO, BRINGIN-SUIT: the bring-in (or its completion)
            assert state.opener_index == actor, (
                f"bring-in: PokerKit says {names[state.opener_index or 0]}"
            )
            opened = True
        assert state.actor_index == actor, (
            f"{e}: PokerKit's turn is {names[state.actor_index or 0]}"
        )
        if e.kind == "bringin":
            state.post_bring_in()
        elif e.kind in ("bet", "raise"):
            state.complete_bet_or_raise_to(e.to)
        elif e.kind == "fold":
            state.fold()
        else:
            state.check_or_call()
    while state.can_deal_hole():
        who = state.hole_dealee_index
        assert who is not None
        state.deal_hole(cards[who][dealt[who]])
        dealt[who] += 1
    return list(state.payoffs)


@pytest.mark.filterwarnings("ignore:A card being dealt")
def test_pokerkit_agrees_with_the_generator_on_turns_and_payoffs() -> None:
    compared = showdowns = side_pots = 0
    for seed in range(400):
        rng = random.Random(f"pokerkit:{seed}")
        knobs = Knobs(
            kind="tournament",
            players=rng.randint(2, 7),
            short=rng.choice((0.0, 0.3)),
            ante_all_in=0.0,
        )
        played = Game(random_spec(rng, knobs), random_policy(rng)).play()
        if played.degenerate or not _pokerkit_comparable(played):
            continue
        theirs = _replay_in_pokerkit(played)
        ours = [played.final[s.name] - s.stack for s in played.spec.seats]
        assert ours == theirs, render([hand_lines(played)])
        compared += 1
        showdowns += bool(played.showdown)
        side_pots += len(played.pots) > 1
    print(f"compared {compared}, showdowns {showdowns}, side pots {side_pots}")
    assert compared >= 250 and showdowns >= 100 and side_pots >= 10


def test_generated_hands_parse_and_cover_every_situation() -> None:
    tables = legal_tables(seed=5, tables=120)
    for table in tables:
        text = render([hand_lines(p) for p in table])
        items = list(read_text(text, "generated.txt"))
        assert all(isinstance(i, Hand) for i in items), text
        assert [i.header.hand_id for i in items if isinstance(i, Hand)] == [
            str(p.spec.hand_id) for p in table
        ]
    counts = coverage(tables)
    assert all(n > 0 for n in counts.values()), counts


@pytest.mark.parametrize("name", ["cards", "edits", "game", "generate", "writer"])
def test_the_harness_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"fidelity.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
