"""PHH in: the six real Razz hands of the 2023 WSOP $50,000 PPC read into neutral events and
audit clean under the PHH ruleset; PokerKit, reading the same files, reaches the same
finishing stacks as our replay; other variants are skipped with their name; a broken hand is
one error at its line and the other hands of a `.phhs` file are read."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from razz.parser import Hand, ParseError, SkippedHand, read_path, read_text
from razz.parser import events as ev
from razz.replay.audit import audit_hand
from razz.replay.ruleset import get_ruleset
from razz.store.ingest import ruleset_for

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "phh"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

HAND = """\
variant = 'FR'
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = [
  'd dh p1 Ah2c9d',  # ann
  'd dh p2 3s4sKd',
  'd dh p3 ????5h',
  'p2 pb',
  'p3 cbr 5',  # completes
  'p1 cc',
  'p2 f',
  'd dh p1 3c',
  'd dh p3 6h',
  'p3 cbr 5',
  'p1 cbr 10',
  'p3 cc',
]
players = ['ann', 'bob', 'cy']
seats = [2, 4, 7]
"""


def _wsop() -> list[Path]:
    return sorted(CORPUS.glob("*.phh"))


@needs_corpus
def test_the_six_wsop_hands_read_and_audit_with_no_finding() -> None:
    files = _wsop()
    assert len(files) == 6
    for path in files:
        [hand] = read_path(path)
        assert isinstance(hand, Hand), hand
        assert hand.header.site == "PHH" and hand.header.is_razz
        assert ruleset_for(hand).name == "phh"
        result = audit_hand(hand, ruleset_for(hand))
        assert result.findings == (), (path.name, result.findings)


@needs_corpus
def test_pokerkit_replays_each_wsop_hand_to_the_finishing_stacks_of_our_replay() -> None:
    from pokerkit import HandHistory

    for path in _wsop():
        [hand] = read_path(path)
        assert isinstance(hand, Hand)
        ours = [p.final_stack for p in audit_hand(hand, ruleset_for(hand)).players]
        with path.open("rb") as f:
            history = HandHistory.load(f)
        *_, state = history  # the state after the last action
        assert list(state.stacks) == ours == list(history.finishing_stacks), path.name


@needs_corpus
def test_the_wsop_bring_in_equal_to_the_ante_is_the_phh_ruleset_s_and_not_pokerstars() -> None:
    [hand] = read_path(CORPUS / "wsop-2023-43-5-20.phh")
    assert isinstance(hand, Hand)
    assert hand.header.ante == hand.header.bring_in == 50000
    strict = audit_hand(hand, get_ruleset("pokerstars")).findings
    assert [f.rule for f in strict] == ["STRUCT-BRINGIN-SIZE"]
    assert audit_hand(hand, get_ruleset("phh")).findings == ()


@needs_corpus
def test_the_header_keeps_what_the_hand_states() -> None:
    [hand] = read_path(CORPUS / "wsop-2023-43-5-83.phh")
    assert isinstance(hand, Hand)
    h = hand.header
    assert (h.small_bet, h.big_bet, h.ante, h.bring_in) == (300000, 600000, 100000, 100000)
    assert h.unit is ev.Unit.CHIP and h.kind is ev.GameKind.TOURNAMENT and h.currency is None
    assert h.started_at.date().isoformat() == "2023-06-22"
    assert h.hand_id.endswith("-83") and h.hand_id.startswith("2023-06-22-")
    seats = [e for e in hand.events if isinstance(e, ev.SeatLine)]
    assert [(s.player, s.seat, s.stack) for s in seats] == [
        ("Talal Shakerchi", 1, 2150000),
        ("Brian Rast", 2, 27550000),
    ]


def test_each_action_is_an_event_on_its_own_line_with_the_wager_it_is() -> None:
    [hand] = read_text(HAND, "x.phh")
    assert isinstance(hand, Hand)
    lines = HAND.split("\n")
    kinds = [(type(e).__name__, e.line) for e in hand.events]
    assert ("Complete", 12) in kinds and ("BringIn", 11) in kinds
    for e in hand.events:
        if isinstance(e, ev.PlayerEvent) and not isinstance(e, ev.SeatLine | ev.PostAnte):
            assert f"p{['ann', 'bob', 'cy'].index(e.player) + 1} " in lines[e.line - 1]
    wagers = [e for e in hand.events if isinstance(e, ev.Bet | ev.Raise | ev.Complete)]
    assert wagers == [
        ev.Complete(12, "cy", 5),
        ev.Bet(17, "cy", 5),
        ev.Raise(18, "ann", 10, 5),
    ]
    streets = [e.street for e in hand.events if isinstance(e, ev.StreetStart)]
    assert streets == [ev.Street.THIRD, ev.Street.FOURTH]
    dealt = [e for e in hand.events if isinstance(e, ev.Dealt)]
    assert dealt[2].new == ("??", "??", "5h") and not dealt[2].hero and dealt[0].hero


def test_finishing_stacks_say_who_was_paid_and_paying_a_folded_player_is_reported() -> None:
    finished = HAND.replace("  'p3 cc',\n]", "  'p3 f',\n]") + "finishing_stacks = [114, 97, 89]\n"
    [hand] = read_text(finished, "x.phh")
    assert isinstance(hand, Hand)
    collects = [e for e in hand.events if isinstance(e, ev.Collect)]
    assert [(c.player, c.amount) for c in collects] == [("ann", 25)]  # 5 back uncalled
    result = audit_hand(hand, ruleset_for(hand))
    assert result.findings == ()
    assert [p.final_stack for p in result.players] == [114, 97, 89]
    # The stacks paying the player who folded are the wrong winner.
    wrong = finished.replace("[114, 97, 89]", "[89, 97, 114]")
    [hand] = read_text(wrong, "x.phh")
    assert isinstance(hand, Hand)
    rules = {f.rule for f in audit_hand(hand, ruleset_for(hand)).findings}
    assert rules == {"POT-SIDE"}, rules  # "cy folded and cannot win a pot."


def test_other_variants_are_skipped_with_their_name_and_a_phhs_file_reads_each_hand() -> None:
    holdem = "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
    text = f"[1]\n{HAND}\n[2]\n{holdem}\n[3]\n" + HAND.replace("'p1 cc'", "'p1 zz'")
    results = list(read_text(text, "x.phhs"))
    assert [type(r).__name__ for r in results] == ["Hand", "SkippedHand", "ParseError"]
    skipped, error = results[1], results[2]
    assert isinstance(skipped, SkippedHand)
    assert (skipped.game, skipped.reason) == ("PHH variant NT", "PHH variant NT is not Razz")
    assert isinstance(error, ParseError)
    assert "'p1 zz'" in error.message and error.line_text.strip() == "'p1 zz',"
    assert error.line == text.split("\n").index("  'p1 zz',") + 1


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (("antes = [1, 1, 1]", "antes = [1, 1]"), "antes must have one entry per player"),
        (("'p1 cbr 10',", "'p1 cbr 0',"), "cannot bet or raise to 0"),
        (("'d dh p3 ????5h'", "'d dh p3 5h?'"), "is not a run of cards"),
        (("'p2 pb'", "'p9 pb'"), "'p9' is no player of the hand"),
        (("'p2 f',", "'p2 sd',"), "Razz has no draws"),
        (("actions = [", "actions = [["), "not valid TOML"),
        (("small_bet = 5\n", ""), "needs its small_bet"),
    ],
)
def test_a_broken_hand_is_one_clear_error_never_an_exception(
    edit: tuple[str, str], says: str
) -> None:
    [error] = read_text(HAND.replace(*edit), "x.phh")
    assert isinstance(error, ParseError), error
    assert says in error.message, error.message


def test_razz_parse_reads_a_phh_file(tmp_path: Path) -> None:
    from razz.cli import main

    (tmp_path / "a.phh").write_text(HAND)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["parse", "-j", "1", str(tmp_path)])
    assert code == 0, out.getvalue()
    assert "a.phh: 1 hand parsed, 0 skipped, 0 errors" in out.getvalue()


ANTE_ALL_IN = """\
variant = 'FR'
antes = [120, 120]
bring_in = 180
small_bet = 600
big_bet = 1200
starting_stacks = [96, 5904]
ante_trimming_status = true
actions = [
  'd dh p1 6d3c7c',
  'd dh p2 9s7dTh',
  'd dh p1 Ad',
  'd dh p2 3d',
  'd dh p1 Js',
  'd dh p2 Ks',
  'd dh p1 8c',
  'd dh p2 5h',
  'd dh p1 9h',
  'd dh p2 2h',
  'p2 sm 9s7dTh3dKs5h2h',
  'p1 sm 6d3c7cAdJs8c9h',
]
players = ['short', 'deep']
finishing_stacks = [192, 5808]
"""


def test_an_all_in_for_less_than_the_ante_wins_only_what_he_matched_as_pokerkit_says() -> None:
    """`ante_trimming_status = true` (phh-std optional fields): the short player wins only the
    antes he matched, 96 from each; the 24 of the other's ante nobody matched go back to it."""
    from pokerkit import HandHistory

    [hand] = read_text(ANTE_ALL_IN, "x.phh")
    assert isinstance(hand, Hand), hand
    result = audit_hand(hand, ruleset_for(hand))
    assert result.findings == ()
    assert {p.player: p.net for p in result.players} == {"short": 96, "deep": -96}
    *_, state = HandHistory.loads(ANTE_ALL_IN)
    assert list(state.stacks) == [p.final_stack for p in result.players] == [192, 5808]
