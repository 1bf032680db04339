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
        for (line, player, rank), row in hand_steps.action_places(actions[key]).items():
            step = steps[hand_steps.step_of_line(steps, line)]
            assert line in step.lines, (key, line)
            if step.phase == "antes":  # antes: one step for all
                continue
            # the step of this action: its line, its player, as often as they act there
            acted = [s for s in steps if s.line == line and any(
                seat.acting and seat.player == player for seat in s.seats)]
            assert acted[rank].pot == row["pot_after"], (key, line, player, rank)
        assert_in_the_games_order(key, steps)
        checked += 1
    assert checked == len(store["hands"]) > 3000


PHASES = ("seats", "antes", *hand_steps.STREETS, "showdown", "summary")
WRITTEN_OUT_OF_ORDER = ("Merge Network:", "PHH:")  # an end-of-game block, a header of antes


def assert_in_the_games_order(key: str, steps: list[hand_steps.Step]) -> None:
    """The steps follow the game: seats, antes, the streets, the showdown, the summary; and
    the file's lines, in a room that writes the game in its order."""
    phases = [PHASES.index(s.phase) for s in steps]
    assert phases == sorted(phases), (key, [s.phase for s in steps])
    if not key.startswith(WRITTEN_OUT_OF_ORDER):
        assert [s.line for s in steps] == sorted(s.line for s in steps), key


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


# ------------------------------------------------------------- each room's own ways

ROOMS = SAMPLES / "rooms"
KINGSCLUB = ROOMS / "kingsclub"
PHH_TABLE = ROOMS / "phh" / "001-razz-tournament-3896238060-1.phhs"
MERGE_TABLE = ROOMS / "merge" / "001-razz-tournament-3896238060-1.xml"


def audited_steps(source: Path | str, hand_id: str | None = None, with_money: bool = True
                  ) -> tuple[list[hand_steps.Step], Any]:
    """A hand's steps as the replayer makes them from what the importer stores (its text,
    players and action rows, from the audit itself: no database), and the audit's result.
    `source` is a file (the hand `hand_id` of it) or a hand's text."""
    import dataclasses

    import pandas as pd

    from razz.parser import Hand, read_path, read_text
    from razz.replay.audit import audit_hand
    from razz.store.ingest import ruleset_for

    read = read_path(source) if isinstance(source, Path) else read_text(source)
    hand = next(h for h in read if isinstance(h, Hand)
                and (hand_id is None or h.header.hand_id == hand_id))
    result = audit_hand(hand, ruleset_for(hand))
    actions = pd.DataFrame([dataclasses.asdict(a) for a in result.actions]
                           if with_money else [],
                           columns=[f.name for f in dataclasses.fields(result.actions[0])])
    seats = [(p.seat, p.player, p.is_hero, p.starting_stack) for p in result.players]
    steps = hand_steps.from_text(hand.text, hand.header.first_line, seats, actions, str)
    return steps, result


def stacks(step: hand_steps.Step) -> dict[str, int]:
    return {s.player: s.stack for s in step.seats}


def seat_of(step: hand_steps.Step, player: str) -> hand_steps.Seat:
    (seat,) = [s for s in step.seats if s.player == player]
    return seat


@pytest.mark.parametrize("with_money", [True, False], ids=["store", "log"])
def test_kingsclub_pays_the_pot_where_it_writes_it_after_the_summary(with_money: bool) -> None:
    steps, result = audited_steps(KINGSCLUB / "001-razz-cash-500.00-1000.00-laomedon-xxxv"
                                  "-37795471.txt", with_money=with_money)
    summary, paid = steps[-2:]
    assert summary.phase == "summary" and summary.pot == 112500  # the pot, not yet paid
    assert all(seat.bet == 0 for seat in summary.seats)  # every chip in it
    assert paid.line == 42 and paid.text == "[Kd] KC collects 112500 from the pot"
    assert paid.pot == 0 and stacks(paid) == {p.player: p.final_stack for p in result.players}


@pytest.mark.parametrize("with_money", [True, False], ids=["store", "log"])
def test_a_bet_nobody_called_goes_back_where_the_room_writes_no_line_for_it(
    with_money: bool,
) -> None:
    """KingsClub and PHH write no `Uncalled bet` line: the chips still go back to their
    owner when the betting is over, who here is not the player who wins the pot."""
    hands = [(KINGSCLUB / "001-razz-cash-500.00-1000.00-laomedon-xxxv-39848358.txt", None,
              "RazzHero KC", 12500), (PHH_TABLE, "206739065021", "ΣΙΓΜΑ PHH", 29)]
    for path, hand_id, owner, amount in hands:
        steps, result = audited_steps(path, hand_id, with_money)
        final = {p.player: p.final_stack for p in result.players}
        assert stacks(steps[-1]) == final, path
        (back,) = [s for s in steps if any("uncalled" in note for note in s.notes)]
        assert back.notes == (f"The uncalled {amount} goes back to {owner} (the log writes no "
                              "line for it).",)
        assert all(owner not in s.text for s in steps if "collects" in s.text)
        assert seat_of(back, owner).stack == final[owner]


def test_the_store_keeps_each_ante_of_a_phh_line_apart() -> None:
    """A PHH file writes every ante on one line: each player's stack after the antes is
    their own, not the last ante's."""
    steps, result = audited_steps(PHH_TABLE, "206739065021")
    (antes,) = [s for s in steps if s.phase == "antes"]
    assert len(set(antes.lines)) == 1
    assert stacks(antes) == {p.player: p.starting_stack - 10 for p in result.players}
    assert len(set(stacks(antes).values())) > 1


PHH_ALL_KNOWN = """variant = 'FR'
antes = [5, 5, 5]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [500, 500, 500]
players = ['ann', 'bob', 'cy']
finishing_stacks = [475, 540, 485]
actions = [
  'd dh p1 2s3s4h',
  'd dh p2 5d6d7h',
  'd dh p3 KcQcKh',
  'p3 pb',
  'p1 cbr 20',
  'p2 cc',
  'p3 f',
  'd dh p1 9c',
  'd dh p2 8c',
  'p2 cc',
  'p1 cc',
  'd dh p1 Js',
  'd dh p2 As',
  'p2 cc',
  'p1 cc',
  'd dh p1 Jd',
  'd dh p2 2c',
  'p2 cc',
  'p1 cc',
  'd dh p1 Th',
  'd dh p2 3c',
  'p2 cc',
  'p1 cc',
  'p1 sm 2s3s4h9cJsJdTh',
  'p2 sm 5d6d7h8cAs2c3c',
]
"""


def test_phh_keeps_the_others_down_cards_face_down_until_they_are_shown() -> None:
    """PHH writes every player's cards as dealt (`others_down_cards = "always"`): the table
    shows the hero's (the first player whose down cards are given, ann) and the up cards,
    each other hand's down cards from its show on, and at the end every card the log gives
    (cy's, who folded, too). The bring-in is the header's: its line has no amount."""
    for with_money in (True, False):
        steps, result = audited_steps(PHH_ALL_KNOWN, with_money=with_money)
        assert result.findings == ()
        river = [s for s in steps if s.phase == "7th"][-1]
        assert [c.code for c in seat_of(river, "bob").cards] == ["", "", "7h", "8c", "As",
                                                                  "2c", ""]
        assert [c.code for c in seat_of(river, "ann").cards] == [
            "2s", "3s", "4h", "9c", "Js", "Jd", "Th"]
        (ann_shows,) = [s for s in steps if s.text.startswith("ann shows")]
        assert [c.code for c in seat_of(ann_shows, "bob").cards][:3] == ["", "", "7h"]
        (bob_shows,) = [s for s in steps if s.text.startswith("bob shows")]
        assert [c.code for c in seat_of(bob_shows, "bob").cards] == [
            "5d", "6d", "7h", "8c", "As", "2c", "3c"]
        assert [c.code for c in seat_of(steps[-1], "cy").cards] == ["Kc", "Qc", "Kh"]
        assert [c.code for c in seat_of(steps[-2], "cy").cards] == ["", "", "Kh"]
        (bring_in,) = [s for s in steps if "brings in" in s.text]
        assert (bring_in.text, seat_of(bring_in, "cy").bet, bring_in.pot) == (
            "cy brings in for 10", 10, 25)
        assert stacks(steps[-1]) == {p.player: p.final_stack for p in result.players}


def test_merge_steps_follow_the_game_not_the_files_lines() -> None:
    """A Merge file writes the return of a bet nobody called and the showdown in its end of
    game block, after the shows: the steps take them where they happened."""
    steps, result = audited_steps(MERGE_TABLE, "3896238060-32")
    texts = [s.text for s in steps]
    back = next(i for i, t in enumerate(texts) if t.startswith("The uncalled"))
    shows = next(i for i, t in enumerate(texts) if " shows " in t)
    assert back < shows and steps[back].line > steps[shows].line
    assert_in_the_games_order("Merge Network:3896238060-32", steps)
    collect = next(i for i, t in enumerate(texts) if " collects " in t)
    assert hand_steps.step_of_line(steps, steps[collect].line) == collect
    assert hand_steps.step_of_line(steps, steps[back].line) == back
    assert stacks(steps[-1]) == {p.player: p.final_stack for p in result.players}


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
