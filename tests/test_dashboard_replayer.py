"""The replayer's steps and pictures, checked on every hand of the sample histories.

Each hand is stepped through as the replayer does (its text read again by the parser, the
store's money); what the steps show is compared with what the importer stored: the stacks at
the end, the pot after each action, the cards each player is seen to hold.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import duckdb
import pytest

from razz.dashboard import format as fmt
from razz.dashboard import hand_steps, table_html

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_histories"
HOSTILE = Path(__file__).resolve().parent / "data" / "dashboard" / "hostile_names.txt"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The sample histories imported; per hand, its rows of each table the replayer reads."""
    from razz.store.importer import import_paths

    db = tmp_path_factory.mktemp("replayer") / "razz.duckdb"
    import_paths([str(SAMPLES), str(HOSTILE)], db)
    with duckdb.connect(str(db), read_only=True) as con:
        tables = {name: con.execute(f"SELECT * FROM {name}").df()
                  for name in ("hands", "players", "actions", "cards")}
    grouped: dict[str, Any] = {name: {str(k): g for k, g in frame.groupby("hand_key")}
                               for name, frame in tables.items()}
    grouped["hands"] = {str(r["hand_key"]): r for r in tables["hands"].to_dict("records")}
    return grouped


def steps_of(store: dict[str, Any], key: str, with_money: bool = True
             ) -> list[hand_steps.Step]:
    hand = store["hands"][key]
    seats = store["players"][key]
    actions = store["actions"][key]
    if not with_money:
        actions = actions.iloc[0:0]
    return hand_steps.from_text(
        hand["raw_text"], int(hand["first_line"]),
        list(zip(seats["seat"], seats["player"], seats["is_hero"], seats["starting_stack"],
                 strict=True)),
        actions, lambda amount: fmt.money(amount, hand["unit"], hand["currency"]),
    )


@pytest.fixture(scope="module")
def replayed(store: dict[str, Any]) -> dict[str, list[hand_steps.Step]]:
    """Every hand's steps, as the replayer makes them."""
    return {key: steps_of(store, key) for key in store["hands"]}


def test_every_sample_hand_steps_to_its_stored_final_stacks_and_pots(
    store: dict[str, Any], replayed: dict[str, list[hand_steps.Step]],
) -> None:
    players, actions = store["players"], store["actions"]
    clean = {key for key, hand in store["hands"].items() if hand["findings"] == 0}
    checked = 0
    for key, steps in replayed.items():
        assert steps, key
        final = {s.player: s.stack for s in steps[-1].seats}
        stored = dict(zip(players[key]["player"], players[key]["final_stack"], strict=True))
        # A hand that breaks a rule may not add up (a bet larger than the stack…).
        assert final == stored or key not in clean, key
        starts = {step.line: step for step in steps}
        for line, pot in zip(actions[key]["line"], actions[key]["pot_after"], strict=True):
            step = steps[hand_steps.step_of_line(steps, int(line))]
            assert int(line) in step.lines, (key, line)
            if line in starts and step.phase not in ("antes",):  # antes: one step for all
                assert step.pot == pot, (key, line)
        assert [s.line for s in steps] == sorted(s.line for s in steps), key
        checked += 1
    assert checked == len(store["hands"]) > 2000


def test_the_log_amounts_give_the_same_money_as_the_store(
    store: dict[str, Any], replayed: dict[str, list[hand_steps.Step]],
) -> None:
    """Without the store's pots and stacks the steps add up the log's amounts: the same."""
    clean = [key for key, hand in store["hands"].items() if hand["findings"] == 0]
    for key in clean[::4]:  # a quarter of them: each is read again by the parser
        from_store = replayed[key]
        from_log = steps_of(store, key, with_money=False)
        assert [(s.pot, [x.stack for x in s.seats]) for s in from_log] == [
            (s.pot, [x.stack for x in s.seats]) for s in from_store], key


def test_each_player_shows_the_cards_the_log_shows_and_backs_for_the_others(
    store: dict[str, Any], replayed: dict[str, list[hand_steps.Step]],
) -> None:
    """At the end: every card the log shows (the store keeps exactly those), down cards marked
    as down. Before the showdown of a hand that breaks no rule: the up cards and the hero's
    down cards only."""
    held: dict[tuple[str, str], list[tuple[str, bool]]] = {}
    for key, frame in store["cards"].items():
        for player, code, visibility in frame[["player", "card", "visibility"]].itertuples(
                index=False):
            if isinstance(player, str):
                held.setdefault((key, player), []).append((code, visibility == "down"))
    for key, steps in replayed.items():
        for seat in steps[-1].seats:
            drawn = sorted((c.code, c.down) for c in seat.cards if c.code)
            assert drawn == sorted(held.get((key, seat.player), [])), (key, seat.player)
        in_play = [s for s in steps if s.phase in hand_steps.STREETS]
        if store["hands"][key]["findings"] or not in_play:
            continue
        for seat in in_play[-1].seats:
            seen = [code for code, down in held.get((key, seat.player), [])
                    if seat.hero or not down]
            assert sorted(c.code for c in seat.cards if c.code) == sorted(seen), (
                key, seat.player)
            assert all(c.code or c.down for c in seat.cards), (key, seat.player)


def test_a_down_card_is_hidden_until_the_player_shows_it(
    replayed: dict[str, list[hand_steps.Step]],
) -> None:
    steps = replayed["PokerStars:900000000002"]
    img = "<img src=x onerror=alert(1)>"

    def cards_of(step: hand_steps.Step, player: str) -> list[str]:
        (seat,) = [s for s in step.seats if s.player == player]
        return [c.code for c in seat.cards]

    river = steps[hand_steps.step_of_line(steps, 82)]
    assert cards_of(river, img) == ["", "", "2d", "5c", "9h", "Ac", ""]
    assert cards_of(river, "Zoë the hero") == ["8c", "4d", "6s", "7d", "3c", "Ks", "2h"]
    shown = steps[hand_steps.step_of_line(steps, 85)]
    assert shown.text == f"{img} shows Th Jh 2d 5c 9h Ac Qd (Lo: T,9,5,2,A)"
    assert cards_of(shown, img) == ["Th", "Jh", "2d", "5c", "9h", "Ac", "Qd"]


def test_the_steps_follow_the_hand_action_by_action() -> None:
    from razz.parser import Hand, read_text

    text = HOSTILE.read_text(encoding="utf-8").split("\n\n\n")[0]
    (hand,) = [h for h in read_text(text) if isinstance(h, Hand)]
    seats = [(1, "<img src=x onerror=alert(1)>", False, 200), (3, "**bold**", False, 200),
             (6, "Zoë the hero", True, 200), (8, "meg100", False, 200)]
    steps = hand_steps.build(hand, 1, seats, {}, lambda a: f"${a / 100:.2f}")
    assert [s.text for s in steps] == [
        "4 players sit down; their stacks as the hand starts.",
        "Antes: 4 × $0.01, in the pot $0.04.",
        "3rd street: two cards down and one up each.",
        "<img src=x onerror=alert(1)> brings in for $0.02",
        "**bold** calls $0.02",
        "Zoë the hero raises $0.02 to $0.04",
        "meg100 folds",
        "<img src=x onerror=alert(1)> folds",
        "**bold** calls $0.02",
        "4th street: one card up each.",
        "Zoë the hero bets $0.04",
        "**bold** calls $0.04",
        "5th street: one card up each.",
        "Zoë the hero bets $0.08",
        "**bold** folds",
        "The uncalled $0.08 goes back to Zoë the hero",
        "Zoë the hero collects $0.21 from the pot",
        "Summary: total pot $0.22, rake $0.01.",
    ]
    raise_step = steps[5]
    (hero,) = [s for s in raise_step.seats if s.hero]
    assert (hero.bet, hero.stack, hero.acting, raise_step.pot) == (4, 195, True, 12)
    fourth = steps[9]
    assert all(s.bet == 0 for s in fourth.seats)  # the bets went into the pot
    assert [s.folded for s in fourth.seats] == [True, False, False, True]


# ----------------------------------------------------------------------------- HTML


class Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Any]]) -> None:
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}

    def handle_data(self, text: str) -> None:
        self.text.append(text)


def hostile_names() -> list[str]:
    """Every player and table name of the hostile file, and text to wrap them in."""
    return ["<img src=x onerror=alert(1)>", "**bold**", "Zoë the hero", "**Gotha** II",
            '"><script>alert(2)</script>', "x' onmouseover='alert(3)"]


@pytest.mark.parametrize("name", hostile_names())
def test_names_in_the_table_and_the_history_are_text(name: str) -> None:
    seat = hand_steps.Seat(1, name, hero=True, stack=100, bet=4, action=f"{name} said hi",
                           cards=(hand_steps.Card("Ah", True), hand_steps.Card("", True)))
    step = hand_steps.Step((10,), f"{name} bets $0.04", "3rd", "3rd", 8, (seat,),
                           notes=(f"{name}: gg",))
    for page in (table_html.table(step, 8, str, [("R", "error", 10, f"{name} broke it")]),
                 table_html.history(f"Seat 1: {name} (100 in chips)", 3, [3], [3])):
        markup = Markup()
        markup.feed(page)
        assert markup.tags <= {"style", "div", "span", "br"}
        assert markup.attributes <= {"class", "style", "title"}
        assert name in "".join(markup.text)
        assert "<script" not in page and "<img" not in page


def test_cards_are_drawn_in_four_colours() -> None:
    drawn = {suit: table_html.card(hand_steps.Card(f"9{suit}", down=False))
             for suit in "shdc"}
    assert [f"s-{suit}" in drawn[suit] for suit in "shdc"] == [True] * 4
    style = table_html.STYLE
    colours = {suit: style.split(f".rzt .s-{suit} {{ color: ")[1].split(";")[0]
               for suit in "shdc"}
    assert colours == {"s": "#111", "h": "#d0021b", "d": "#0b5cd5", "c": "#108a2f"}
    assert "♦" in drawn["d"] and "♣" in drawn["c"]


@pytest.mark.parametrize("count", range(2, 9))
def test_seats_around_the_table_never_overlap(count: int) -> None:
    width, height, box_w, box_h = 640, 500, 176, 100  # the replayer's column, a seat box
    where = table_html.positions(list(range(1, count + 1)), 8, anchor=1)
    boxes = [(x * width / 100, y * height / 100) for x, y in where.values()]
    for i, (x1, y1) in enumerate(boxes):
        for x2, y2 in boxes[i + 1:]:
            assert abs(x1 - x2) >= box_w or abs(y1 - y2) >= box_h, (count, where)
