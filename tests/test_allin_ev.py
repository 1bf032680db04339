"""All-in EV and luck: hand-checked hands, and every stored equity against the equity API.

* heads-up, ann all-in on 4th street with (A23)4 against (KQJ)T, 64 in the pot, loses: her
  equity is the calculator's 96.14%, her all-in-adjusted net 0.9614 x 64 - 32 = +29.53,
  her luck -32 - 29.53 = -61.53;
* 3-way (tests/data/allin/three_way_side_pot.txt): ann all-in on 5th for 40 (main pot 120,
  three players), bob all-in on 6th for 60 (side pot 40, bob and cat); cat wins both. The main
  pot is adjusted with the 3-way equities of 5th street, the side pot with bob's and cat's on
  6th street, ann's cards dead (bob cannot beat cat's made 8-low there: equity 0).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from razz.analysis import allin_ev as ev
from razz.analysis.equity import equity
from razz.parser import read_text
from razz.parser.events import Hand
from razz.replay.audit import audit_hand
from razz.replay.results import HandResult

DATA = Path(__file__).resolve().parent / "data" / "allin"
THREE_WAY = DATA / "three_way_side_pot.txt"


def audited(text: str) -> HandResult:
    hand = next(iter(read_text(text)))
    assert isinstance(hand, Hand)
    result = audit_hand(hand)
    assert result.findings == ()
    return result


def first(text: str) -> Hand:
    hand = next(iter(read_text(text)))
    assert isinstance(hand, Hand)
    return hand


def by_player(result: HandResult) -> dict[str, ev.PlayerEV]:
    return {e.player: e for e in ev.allin_ev(result)}


def test_heads_up_all_in_on_fourth_street_gets_the_calculators_equity_of_the_pot() -> None:
    result = audited(ev.HEADS_UP_ON_FOURTH)
    got = by_player(result)
    exact = equity(["As 2s 3s 4s", "Kd Qd Jd Td"], method="exact").equity
    assert got["ann"].equity == pytest.approx(exact[0], abs=1e-12)
    assert got["ann"].exact and got["ann"].street == "4th"
    assert got["ann"].ev_net == pytest.approx(exact[0] * 64 - 32)
    assert got["bob"].ev_net == pytest.approx(exact[1] * 64 - 32)
    net = {p.player: p.net for p in result.players}
    assert net == {"ann": -32, "bob": 32}
    assert net["ann"] - got["ann"].ev_net == pytest.approx(-61.53, abs=0.01)  # ann's bad luck


def test_three_way_all_in_adjusts_main_and_side_pot_each_among_its_own_players() -> None:
    result = audited(THREE_WAY.read_text())
    got = by_player(result)
    assert set(got) == {"ann", "bob", "cat"}
    # Main pot: the equities of 5th street, each hand's five cards, nothing dead.
    main = equity(["2s 3s 4s 7s 8s", "Ad 5d 6d 9d Td", "Kc 7c 8c 3c 5c"], method="exact").equity
    for name, share in zip(("ann", "bob", "cat"), main, strict=True):
        e = got[name]
        assert e.street == "5th"
        assert abs(e.equity - share) <= 4 * e.std_error + 1e-9  # a Monte Carlo estimate
    # Side pot: bob against cat on 6th street, ann's six cards dead.
    side = equity(["Ad 5d 6d 9d Td Jd", "Kc 7c 8c 3c 5c 4c"], dead="2s 3s 4s 7s 8s Ks").equity
    assert side == (0.0, 1.0)
    assert got["ann"].ev_won == pytest.approx(got["ann"].equity * 120)
    assert got["bob"].ev_won == pytest.approx(got["bob"].equity * 120 + side[0] * 40)
    assert got["cat"].ev_won == pytest.approx(got["cat"].equity * 120 + side[1] * 40)
    assert got["ann"].ev_net == pytest.approx(got["ann"].ev_won - 40)
    assert got["cat"].ev_net == pytest.approx(got["cat"].ev_won - 60)
    # Nobody's expectation is created or lost: the adjusted nets sum to the real ones.
    assert sum(e.ev_net for e in got.values()) == pytest.approx(
        sum(p.net for p in result.players))


def test_a_hand_without_all_in_or_with_a_hand_not_shown_is_not_adjusted() -> None:
    text = ev.HEADS_UP_ON_FOURTH
    # (Both edits leave the log inconsistent with itself; the EV only needs what it reads.)
    assert ev.allin_ev(audit_hand(first(text.replace("ann (32 in chips)", "ann (132 in chips)")
                                 .replace("ann: calls 10 and is all-in", "ann: calls 10")))) == ()
    # bob mucks: his down cards stay unknown, so his chances at the all-in cannot be known.
    result = audited(text)
    hidden = tuple(c for c in result.cards if not (c.player == "bob" and c.visibility == "down"))
    assert ev.allin_ev(replace(result, cards=hidden)) == ()


def test_an_all_in_on_the_river_has_no_cards_to_come_and_is_not_adjusted() -> None:
    # The sample hand of the README's sessions: Zoë_Razz all-in on the river, nothing to come.
    text = (Path(__file__).resolve().parents[1] / "sample_histories"
            / "001-razz-cash-0.25-0.50-ceres-x.txt").read_text()
    hands = [h for h in read_text(text) if isinstance(h, Hand)]
    river = next(h for h in hands if h.header.hand_id == "206542887091")
    assert ev.allin_ev(audit_hand(river)) == ()


def test_the_glance_at_river_all_ins_gives_what_the_full_computation_gives(
    tmp_path: Path,
) -> None:
    """`allin_ev` skips hands whose every all-in was completed on 7th street without building
    them: on simulated hands it returns what `allin_ev_of` returns for every hand, and the
    shortcut is taken."""
    from razz.simulate.simulator import simulate, write_files

    write_files(simulate(hands=600, seed=11), tmp_path)
    skipped = adjusted = 0
    for path in sorted(tmp_path.rglob("*.txt")):
        for hand in read_text(path.read_text()):
            if not isinstance(hand, Hand):
                continue
            result = audit_hand(hand)
            full = ev.allin_ev_of(ev.AllInHand.of_result(result))
            assert ev.allin_ev(result) == full, hand.header.hand_id
            adjusted += bool(full)
            skipped += (result.went_to_showdown and any(p.all_in for p in result.players)
                        and not ev._closed_before_the_river(result))
    assert skipped and adjusted


@pytest.fixture(scope="module")
def simulated_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from razz.simulate.simulator import simulate, write_files
    from razz.store.importer import import_paths

    folder = tmp_path_factory.mktemp("allin")
    write_files(simulate(hands=600, seed=5), folder / "hands")
    db = folder / "razz.duckdb"
    import_paths([str(folder / "hands")], db)
    return db


def test_stored_equities_agree_with_the_equity_api_on_simulated_hands(
    simulated_store: Path,
) -> None:
    """Oracle: each stored equity is `equity()` of the cards the store holds, cut at the
    street the row names, every other card dealt by then dead (suits and order do not count)."""
    con = duckdb.connect(str(simulated_store), read_only=True)
    rows = con.execute(
        "SELECT hand_key, player, street, equity, exact, std_error FROM allin_ev "
        "WHERE street <> 'antes' ORDER BY hand_key, player").fetchall()
    assert len(rows) >= 40, "too few all-ins in the simulation to test anything"
    dealt = {"3rd": 3, "4th": 4, "5th": 5, "6th": 6}
    checked = 0
    by_hand: dict[str, list[tuple[str, str, float, bool, float]]] = {}
    for key, player, street, share, exact, error in rows:
        by_hand.setdefault(key, []).append((player, street, share, exact, error))
    for key, players in by_hand.items():
        streets = {s for _, s, *_ in players}
        if len(streets) != 1:
            continue  # players of different pots: the side pot's moment differs
        n = dealt[streets.pop()]
        cards = con.execute(
            "SELECT player, list(card ORDER BY position) FILTER (WHERE position <= ?) "
            "FROM cards WHERE hand_key = ? AND player IS NOT NULL GROUP BY player",
            [n, key]).fetchall()
        held = {p: c for p, c in cards}
        names = [p for p, *_ in players]
        if any(len(held.get(p) or []) != n for p in names):
            continue
        folded = dict(con.execute(
            "SELECT player, folded_street FROM players WHERE hand_key = ?", [key]).fetchall())
        order = ("3rd", "4th", "5th", "6th", "7th")
        dead = []
        for p, c in held.items():
            if p in names or c is None:
                continue
            had = n if folded[p] is None else min(n, 3 + order.index(folded[p]))
            # Dealt, not shown: still out of the deck (matters only when the deck runs out).
            dead += c[:had] + ["??"] * (had - len(c[:had]))
        truth = equity([held[p] for p in names], dead, method="auto",
                       exact_limit=5_000_000, samples=50_000, seed=1)
        for (player, _, share, _exact, error), expected, truth_error in zip(
                players, truth.equity, truth.std_error, strict=True):
            allowed = 4 * (error + truth_error) + 1e-9
            assert abs(share - expected) <= allowed, (key, player, share, expected)
        assert sum(s for _, _, s, *_ in players) == pytest.approx(1.0, abs=1e-9)
        checked += 1
    assert checked >= 20


def test_adjusted_nets_and_real_nets_sum_to_the_same_per_hand(simulated_store: Path) -> None:
    """EV moves expectation between the players of a pot, never creates it: per hand, the
    adjusted nets (real net where not adjusted) sum to the real nets, i.e. minus the rake."""
    con = duckdb.connect(str(simulated_store), read_only=True)
    off = con.execute(
        """
        SELECT hand_key, sum(net), sum(ev_net), any_value(hand_rake)
        FROM player_hands WHERE hand_key IN (SELECT hand_key FROM allin_ev)
        GROUP BY hand_key HAVING abs(sum(net) - sum(ev_net)) > 1e-6
        """).fetchall()
    assert off == []
    assert con.execute("SELECT count(DISTINCT hand_key) FROM allin_ev").fetchone()[0] >= 20


def test_a_store_made_before_all_in_ev_gets_it_from_its_rows_at_the_next_import(
    simulated_store: Path, tmp_path: Path
) -> None:
    """The rows computed from what the store kept of each hand equal those the importer
    computed from the replay; the store is marked so that this runs once."""
    import shutil

    from razz.store.db import connect_writer

    old = tmp_path / "old.duckdb"
    shutil.copy(simulated_store, old)
    query = ("SELECT hand_key, player, street, equity, ev_won, ev_net, exact, std_error "
             "FROM allin_ev ORDER BY hand_key, player")
    con = duckdb.connect(str(old))
    stored = con.execute(query).fetchall()
    con.execute("DROP TABLE allin_ev")  # as a store made before it: no table, no meta key
    con.execute("DELETE FROM meta WHERE key = 'allin_ev'")
    con.close()
    con = connect_writer(old)  # what the next import does first
    again = con.execute(query).fetchall()
    assert con.execute("SELECT value FROM meta WHERE key = 'allin_ev'").fetchone() == ("1",)
    con.close()
    assert len(again) == len(stored) > 0
    for before, after in zip(stored, again, strict=True):
        assert before[:3] == after[:3] and before[6] == after[6]
        assert after[3:6] == pytest.approx(before[3:6], abs=1e-9)


def test_a_failure_of_all_in_ev_never_loses_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    from razz.store import rows

    def broken(result: HandResult) -> tuple[ev.PlayerEV, ...]:
        raise ZeroDivisionError("a bug of ours")

    monkeypatch.setattr(rows, "allin_ev", broken)
    hand = first(ev.HEADS_UP_ON_FOURTH)
    builder = rows.RowBuilder(allin=True)
    builder.add_hand(hand, audit_hand(hand), 0)
    tables = builder.tables()
    assert tables["hands"].num_rows == 1 and tables["players"].num_rows == 2
    assert tables["allin_ev"].num_rows == 0
