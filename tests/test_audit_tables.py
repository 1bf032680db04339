"""Checks across the hands of a table: stack continuity (LOG-CONTINUITY) and the inferred ante
and bring-in (STRUCT-ANTE, STRUCT-BRINGIN-SIZE), fed in any order, judged at the end."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from razz.parser import Hand, read_text
from razz.parser.sites import merge_xml
from razz.replay import audit
from razz.replay.findings import Severity
from razz.replay.results import HandResult
from razz.replay.ruleset import POKERSTARS
from razz.replay.tablecheck import TableCheck, check_tables, with_findings
from razz.store.ingest import ruleset_for

# The hands below play $0.04/$0.08, which the PokerStars stakes table knows (each hand is then
# judged alone); without the table the amounts must be inferred from the other hands.
NO_STAKES_TABLE = dataclasses.replace(POKERSTARS, stakes=())


def audit_hand(hand: Hand) -> HandResult:
    return audit.audit_hand(hand, NO_STAKES_TABLE)


DATA = Path(__file__).parent / "data" / "replay"
FOLDED = (DATA / "uncontested_partial_show.txt").read_text(encoding="utf-8")
ANTE = (DATA / "all_in_on_the_ante.txt").read_text(encoding="utf-8")
# Heads-up, the first player to post is all in for less than the ante: the two antes tie.
SHORT_ANTE_HEADS_UP = (DATA / "short_ante_heads_up.txt").read_text(encoding="utf-8")


def _variant(text: str, hand_id: str, minute: int, *replacements: tuple[str, str]) -> str:
    """The hand under another id and start time, with some text replaced."""
    text = text.replace("#7001:", f"#{hand_id}:").replace("#3001:", f"#{hand_id}:")
    text = text.replace("13:00:00 ET", f"13:{minute:02d}:00 ET")
    text = text.replace("19:00:00 ET", f"19:{minute:02d}:00 ET")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    return text


def _hand(text: str) -> Hand:
    (hand,) = read_text(text, source="table.txt")
    assert isinstance(hand, Hand)
    return hand


# The uncontested hand leaves Alice and Bob with $0.97 and Cara with $1.06.
NEXT_STACKS = (
    ("Seat 1: Alice ($1.00 in chips)", "Seat 1: Alice ($0.97 in chips)"),
    ("Seat 3: Bob ($1.00 in chips)", "Seat 3: Bob ($0.97 in chips)"),
)


def _rules(findings: object) -> list[tuple[str, str, int]]:
    return [(f.rule, f.hand_id, f.line) for f in findings]  # type: ignore[attr-defined]


def test_a_cash_stack_that_shrinks_between_two_hands_breaks_continuity() -> None:
    first = _hand(_variant(FOLDED, "1", 0))
    second = _hand(_variant(FOLDED, "2", 1, *NEXT_STACKS))  # Cara starts with $1.00 < $1.06
    check = TableCheck()
    assert check.feed(second, audit_hand(second)) == ()  # the later hand first: order is free
    assert check.feed(first, audit_hand(first)) == ()
    found = check.finish()
    cara_seat = next(e.line for e in second.events if getattr(e, "player", "") == "Cara")
    assert _rules(found) == [("LOG-CONTINUITY", "2", cara_seat)]
    assert found[0].severity is Severity.ERROR and found[0].expected == "at least $1.06"


def test_a_cash_stack_may_grow_between_hands_and_a_returning_player_starts_afresh() -> None:
    first = _hand(_variant(FOLDED, "1", 0))
    topped_up = _hand(
        _variant(FOLDED, "2", 1, *NEXT_STACKS, ("Seat 5: Cara ($1.00", "Seat 5: Cara ($1.50"))
    )
    assert check_tables([(h, audit_hand(h)) for h in (first, topped_up)]) == {}
    # An hour later the table is another session: stacks are not compared.
    later = _hand(_variant(FOLDED, "2", 59, ("13:59:00", "14:59:00")))
    assert check_tables([(h, audit_hand(h)) for h in (first, later)]) == {}


def test_tournament_stacks_must_carry_over_exactly() -> None:
    # Dee wins 30, Eve ends with 975, Hero with 1005.
    first = _hand(_variant(ANTE, "1", 0))
    carried = (
        ("Seat 1: Dee (10 in chips)", "Seat 1: Dee (30 in chips)"),
        ("Seat 7: Hero (1000 in chips)", "Seat 7: Hero (1005 in chips)"),
    )
    exact = _hand(_variant(ANTE, "2", 1, *carried, ("Seat 3: Eve (1000", "Seat 3: Eve (975")))
    grown = _hand(_variant(ANTE, "2", 1, *carried, ("Seat 3: Eve (1000", "Seat 3: Eve (985")))
    assert check_tables([(h, audit_hand(h)) for h in (first, exact)]) == {}
    found = check_tables([(h, audit_hand(h)) for h in (first, grown)])
    assert [(f.rule, f.expected, f.actual) for f in found[("table.txt", "2")]] == [
        ("LOG-CONTINUITY", "975", "985")
    ]


def _topped_up(text: str, k: int) -> str:
    """Every stack $0.10 bigger each hand: cash stacks may grow, so continuity holds."""
    return text.replace("($1.00 in chips)", f"(${1 + k / 10:.2f} in chips)")


def _table(antes: list[str]) -> list[Hand]:
    """Hands of one table whose players post the given antes."""
    hands = []
    for k, ante in enumerate(antes):
        text = _topped_up(_variant(FOLDED, str(k + 1), k), k)
        hands.append(_hand(text.replace("posts the ante $0.01", f"posts the ante {ante}")))
    return hands


def test_a_hand_whose_ante_disagrees_with_four_that_agree_is_an_error_naming_them() -> None:
    hands = _table(["$0.01", "$0.01", "$0.02", "$0.01", "$0.01"])
    found = check_tables([(h, audit_hand(h)) for h in hands])
    odd = hands[2]
    first_ante = next(e.line for e in odd.events if type(e).__name__ == "PostAnte")
    assert [
        (f.rule, f.line, f.severity, f.expected, f.actual) for f in found[("table.txt", "3")]
    ] == [("STRUCT-ANTE", first_ante, Severity.ERROR, "$0.01", "$0.02")]
    assert "#1, #2, #4, #5" in found[("table.txt", "3")][0].message
    assert set(found) == {("table.txt", "3")}


def test_two_agreeing_hands_or_a_third_amount_leave_only_a_warning() -> None:
    for antes, odd in (
        (["$0.01", "$0.02", "$0.01"], "2"),
        (["$0.01"] * 4 + ["$0.02", "$0.03"], "5"),
    ):
        hands = _table(antes)
        found = check_tables([(h, audit_hand(h)) for h in hands])
        assert [(f.rule, f.severity) for f in found[("table.txt", odd)]] == [
            ("STRUCT-ANTE", Severity.WARNING)
        ]
    # one against one: nothing says which is right
    assert check_tables([(h, audit_hand(h)) for h in _table(["$0.01", "$0.02"])]) == {}


def test_the_findings_do_not_depend_on_the_order_the_hands_come_in() -> None:
    hands = _table(["$0.02", "$0.01", "$0.01", "$0.01"])  # 13:00 … 13:03, stacks grow
    # 13:04:30, every stack smaller than at the end of the 13:03 hand (#4)
    shrunk = _hand(_variant(FOLDED, "9", 5, *NEXT_STACKS, ("13:05:00", "13:04:30")))
    pairs = [(h, audit_hand(h)) for h in (*hands, shrunk)]
    seen = set()
    for order in itertools.permutations(range(len(pairs))):
        found = check_tables([pairs[k] for k in order])
        seen.add(
            tuple(
                (k, tuple((f.rule, f.line, f.severity) for f in v))
                for k, v in sorted(found.items())
            )
        )
    assert len(seen) == 1
    (only,) = seen
    assert [(k[1], [r for r, _, _ in v]) for k, v in only] == [
        ("1", ["STRUCT-ANTE"]),
        ("9", ["LOG-CONTINUITY"] * 3),
    ]


def test_a_context_hand_informs_the_others_and_gets_no_finding_of_its_own() -> None:
    hands = _table(["$0.02", "$0.01", "$0.01", "$0.01"])
    check = TableCheck()
    check.feed(hands[0], audit_hand(hands[0]), context=True)
    for h in hands[1:]:
        check.feed(h, audit_hand(h))
    assert check.finish() == ()
    check = TableCheck()
    for h in hands[:3]:
        check.feed(h, audit_hand(h), context=True)
    check.feed(hands[3], audit_hand(hands[3]))
    assert check.finish() == ()  # the odd hand is context: its finding was reported with it


def test_a_bring_in_that_disagrees_with_its_table_is_flagged() -> None:
    hands = []
    for k in range(4):
        text = _topped_up(_variant(FOLDED, str(k + 1), k), k)
        if k == 3:
            text = (
                text.replace("Alice: brings in for $0.02", "Alice: brings in for $0.03")
                .replace("Bob: calls $0.02", "Bob: calls $0.03")
                .replace("Cara: calls $0.02", "Cara: calls $0.03")
                .replace("$0.09", "$0.12")
            )
        hands.append(_hand(text))
    results = [audit_hand(h) for h in hands]
    assert results[3].findings == ()  # alone, the hand is legal
    found = check_tables(zip(hands, results, strict=True))
    assert [(f.rule, f.expected, f.actual) for f in found[("table.txt", "4")]] == [
        ("STRUCT-BRINGIN-SIZE", "$0.02", "$0.03")
    ]
    merged = with_findings(results[3], found[("table.txt", "4")])
    assert [f.rule for f in merged.findings] == ["STRUCT-BRINGIN-SIZE"]


def test_an_ante_that_puts_its_player_all_in_does_not_set_the_hands_ante() -> None:
    short = _hand(SHORT_ANTE_HEADS_UP)
    result = audit_hand(short)
    assert result.findings == ()
    assert result.ante == 80  # not the 68 that was all Lo 8,6,4 had, though it came first
    # What the table check compares with its table's ante: 80 is the ante it agrees with.
    check = TableCheck(min_agree=1)
    assert check.feed(short, result) == () and check.finish() == ()


def test_razz_audit_finds_a_stack_that_shrinks_across_two_files_in_either_order(
    tmp_path: Path, capsys: object
) -> None:
    """The command checks across hands once over every file read, whatever their order."""
    import json

    from razz.cli import main

    first = _variant(FOLDED, "1", 0)
    second = _variant(FOLDED, "2", 1, *NEXT_STACKS)  # Cara starts with $1.00 < $1.06
    (tmp_path / "a.txt").write_text(second, encoding="utf-8")
    (tmp_path / "b.txt").write_text(first, encoding="utf-8")
    for order in (["a.txt", "b.txt"], ["b.txt", "a.txt"]):
        main(["audit", "--format", "json", "-j", "1", *(str(tmp_path / n) for n in order)])
        rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]  # type: ignore[attr-defined]
        assert [(r["rule"], r["hand_id"], r["file"]) for r in rows] == [
            ("LOG-CONTINUITY", "2", str(tmp_path / "a.txt"))
        ]


PHH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "phh"


def _phh(number: int) -> Hand:
    (hand,) = read_text((PHH / f"wsop-2023-43-5-{number}.phh").read_text(encoding="utf-8"),
                        f"wsop-{number}.phh")  # fmt: skip
    assert isinstance(hand, Hand)
    return hand


@pytest.mark.skipif(not PHH.is_dir(), reason="../shared/corpus is not beside the checkout")
def test_numbered_phh_hands_are_neighbours_only_when_their_numbers_follow() -> None:
    # The WSOP hands 20-24 and 83 of one table give the day but no time of day. 24 -> 83 skips
    # 58 hands (the stacks moved in between): no finding; 23 -> 24 are neighbours and agree.
    hands = [_phh(n) for n in (20, 21, 22, 23, 24, 83)]
    found = check_tables((h, audit_hand(h)) for h in hands)
    assert [f for fs in found.values() for f in fs] == []
    # a chip lost between neighbours 23 and 24 is still found
    text = (PHH / "wsop-2023-43-5-24.phh").read_text(encoding="utf-8")
    changed = text.replace("starting_stacks = [6600000,", "starting_stacks = [6500000,")
    assert changed != text
    (bad,) = read_text(changed, "wsop-24.phh")
    assert isinstance(bad, Hand)
    found = check_tables((h, audit_hand(h)) for h in (_phh(23), bad))
    assert [f.rule for fs in found.values() for f in fs] == ["LOG-CONTINUITY"]


def _merge(hand_id: str, *replacements: tuple[str, str]) -> Hand:
    text = merge_xml.EXAMPLE.replace('id="1-1"', f'id="{hand_id}"').replace("|1-1|", f"|{hand_id}|")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    (hand,) = read_text(text, source="merge.xml")
    assert isinstance(hand, Hand)
    return hand


# Ann folds to the bring-in: nothing in the hand shows the stakes, and the reader takes them
# from a bring-in of $0.25 (twice it): the $0.50/$1 of the hands where Ann completes to $0.50.
_FOLDED_TO = (
    ('type="BRING_IN" timestamp="1321414708889" player="3" amount="0.10"',
     'type="BRING_IN" timestamp="1321414708889" player="3" amount="0.25"'),
    ('type="COMPLETE" timestamp="1321414710730" player="5" amount="0.50"',
     'type="FOLD" timestamp="1321414710730" player="5"'),
    ('<event sequence="5" type="FOLD" timestamp="1321414712337" player="3"/>', ""),
    ('<winner amount="0.40" uncalled="true" potnumber="1" player="5" pottype="n"/>', ""),
    ('<winner amount="0.30" uncalled="false" potnumber="1" player="5" pottype="n"/>',
     '<winner amount="0.35" uncalled="false" potnumber="1" player="3" pottype="n"/>'),
)  # fmt: skip


def _amount_findings(hands: list[Hand]) -> list[tuple[str, str, int]]:
    pairs = [(h, audit.audit_hand(h, ruleset_for(h))) for h in hands]
    found = [f for fs in check_tables(pairs).values() for f in fs]
    return sorted(r for r in _rules(found) if r[0] in ("STRUCT-ANTE", "STRUCT-BRINGIN-SIZE"))


def test_merge_hands_whose_stakes_are_guessed_from_the_bring_in_outvote_no_table() -> None:
    played = [_merge(f"1-{k}") for k in (1, 2, 3)]
    guessed = [_merge(f"2-{k}", *_FOLDED_TO) for k in (1, 2, 3, 4)]
    assert {(h.header.small_bet, h.header.big_bet) for h in played + guessed} == {(50, 100)}
    assert _amount_findings(played + guessed) == []
    # The hands that show their stakes are still held to each other's bring-in.
    odd = _merge("1-4", ('player="3" amount="0.10"', 'player="3" amount="0.20"'))
    assert _amount_findings([*played, odd, *guessed]) == [("STRUCT-BRINGIN-SIZE", "1-4", 11)]


def _checked(hands: list[Hand], order: tuple[int, ...]) -> tuple[object, object]:
    """The table's findings and the hands' own findings it marked, fed in `order`."""
    check = TableCheck()
    for k in order:
        check.feed(hands[k], audit_hand(hands[k]), ruleset=NO_STAKES_TABLE)
    found = tuple((f.hand_id, f.rule, f.line, f.severity) for f in check.finish())
    linked = {key: [(f.rule, f.line, str(f.consequence_of)) for f in fs]
              for key, fs in check.relinked.items()}
    return found, linked


def test_the_findings_that_only_follow_from_an_ante_the_table_settles_are_its_consequences(
) -> None:
    # The odd hand posts $0.02 antes where three hands of its table post $0.01: alone, its
    # $0.02 bring-in seems too small beside its ante, and its pot seems to lack the antes'
    # extra $0.03. Both follow from the ante: made right, the hand is legal.
    hands = _table(["$0.02", "$0.01", "$0.01", "$0.01"])
    odd = hands[0]
    own = audit_hand(odd).findings
    assert [f.rule for f in own] == ["STRUCT-BRINGIN-SIZE", "POT-RAKE"]
    assert all(f.consequence_of is None for f in own)
    ante_line = next(e.line for e in odd.events if type(e).__name__ == "PostAnte")
    seen = set()
    for order in itertools.permutations(range(len(hands))):
        found, linked = _checked(hands, order)
        seen.add((found, repr(linked)))
    assert len(seen) == 1  # whatever the order the hands come in
    found, linked = _checked(hands, (0, 1, 2, 3))
    assert found == (("1", "STRUCT-ANTE", ante_line, Severity.ERROR),)
    cause = f"STRUCT-ANTE at line {ante_line}"
    assert linked == {("table.txt", "1"): [
        ("STRUCT-BRINGIN-SIZE", own[0].line, cause), ("POT-RAKE", own[1].line, cause),
    ]}


def test_a_mistake_of_its_own_beside_the_wrong_ante_stays_a_violation() -> None:
    hands = _table(["$0.02", "$0.01", "$0.01", "$0.01"])
    text = hands[0].text.replace("(Lo: 3,5,3,6)", "(Lo: 6,5,3,A)")  # a wrong description
    assert text != hands[0].text
    hands[0] = _hand(text)
    _, linked = _checked(hands, (3, 2, 1, 0))
    rules = {rule: cause for rule, _, cause in linked[("table.txt", "1")]}
    assert rules["LOG-DESC"] == "None" and rules["STRUCT-BRINGIN-SIZE"].startswith("STRUCT-ANTE")


def test_a_hand_without_an_error_after_its_ante_keeps_no_copy_of_itself() -> None:
    hands = _table(["$0.01", "$0.01"])
    check = TableCheck()
    for h in hands:
        check.feed(h, audit_hand(h), ruleset=NO_STAKES_TABLE)
    assert all(f.retry is None for fs in check._tables.values() for f in fs)


def test_razz_audit_lists_what_follows_from_the_ante_under_it_whatever_the_file_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command holds the odd hand's findings back until its table settles the ante, then
    lists them under it: the same rows and links for the files in either order."""
    import json

    from razz.cli import main

    # stakes the PokerStars stakes table does not know (the bets of the hands are too small
    # for them: those findings are the same in every hand and every order)
    hands = [h.text.replace("($0.04/$0.08 USD)", "($0.05/$0.10 USD)")
             for h in _table(["$0.02", "$0.01", "$0.01", "$0.01"])]
    (tmp_path / "a.txt").write_text(hands[0], encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n\n".join(hands[1:]), encoding="utf-8")
    seen = []
    for order in (["a.txt", "b.txt"], ["b.txt", "a.txt"]):
        main(["audit", "--format", "json", "-j", "1", *(str(tmp_path / n) for n in order)])
        rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        seen.append(sorted(
            (r["hand_id"], r["line"], r["rule"], json.dumps(r["consequence_of"]))
            for r in rows[:-1]
        ))
        odd = [(r["rule"], r["consequence_of"]) for r in rows[:-1] if r["hand_id"] == "1"]
        ante = odd[0]
        assert ante[0] == "STRUCT-ANTE" and ante[1] is None  # listed first, its consequences under it
        cause = {"rule": "STRUCT-ANTE", "line": 6}
        assert odd[1:3] == [("STRUCT-BRINGIN-SIZE", cause), ("POT-RAKE", cause)]
        assert rows[-1]["summary"]["consequences"] == 2
    assert seen[0] == seen[1]


def test_razz_audit_reports_both_hands_of_an_id_read_twice_when_their_findings_wait(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from razz.cli import main

    hands = [h.text.replace("($0.04/$0.08 USD)", "($0.05/$0.10 USD)")
             for h in _table(["$0.02", "$0.01", "$0.01", "$0.01"])]
    (tmp_path / "a.txt").write_text("\n\n".join([hands[0], *hands]), encoding="utf-8")
    main(["audit", "--format", "json", "-j", "1", str(tmp_path / "a.txt")])
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()[:-1]]
    bring_ins = [r["line"] for r in rows if r["rule"] == "STRUCT-BRINGIN-SIZE"]
    assert len(bring_ins) == 2 and bring_ins[0] != bring_ins[1]
