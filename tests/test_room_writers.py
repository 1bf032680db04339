"""The room writers, one hand at a time: what each writes is what its room writes, and the
room's reader reads it back (the round trip at scale is `test_roundtrip_rooms.py`)."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from xml.parsers import expat

import pytest

from razz.parser import Hand, read_text
from razz.parser import events as ev
from razz.parser.sites.room_writer import WrittenFile
from razz.replay.audit import audit_hand
from razz.simulate.rooms import write_room
from razz.simulate.simulator import simulate
from razz.store.ingest import ruleset_for

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@cache
def _written(room: str, hands: int = 120) -> tuple[WrittenFile, ...]:
    return tuple(f for _, files in write_room(room, simulate(hands, 21, site=room)) for f in files)


def _real(room: str) -> list[str]:
    folder = CORPUS / room
    if not folder.is_dir():
        pytest.skip("no shared corpus")
    return [p.read_bytes().decode("utf-16" if p.read_bytes()[:2] == b"\xff\xfe" else "utf-8")
            for p in sorted(folder.iterdir())]


def _shape(line: str) -> str:
    """A line with its names, numbers and cards blurred: what kind of line it is."""
    line = re.sub(r"\[[^\]]*\]", "[C]", line)
    line = re.sub(r"[$€]?\d[\d,]*(?:\.\d+)?€?", "N", line)
    return line


def test_full_tilt_files_are_utf16_with_a_bom_and_crlf_as_the_real_ones() -> None:
    for f in _written("fulltilt"):
        assert f.data[:2] == b"\xff\xfe"
        text = f.data.decode("utf-16")
        assert "\n" not in text.replace("\r\n", "")
        assert text.endswith("\r\n\r\n\r\n\r\n")  # three empty lines after every hand
    text = "".join(f.data.decode("utf-16") for f in _written("fulltilt"))
    assert re.search(r"^\S.* is high with \[\w\w\]\r\n.* brings in for ", text, re.M)
    assert " completes it to " in text and ", and is all in" in text
    assert re.search(r"^Seat \d: .+ collected \(.+\), mucked\r$", text, re.M)
    header = re.compile(
        r"Full Tilt Poker Game #\d+: (?:Table .+|\$[\d.]+(?: \+ \$[\d.]+)? .*Sit & Go \(\d+\), Table 1)"
        r" - [$\d.,]+/[$\d.,]+ Ante [$\d.,]+ - Limit Razz - \d\d:\d\d:\d\d [A-Z]+ - \d{4}/\d\d/\d\d"
    )
    assert all(header.match(t) for t in _real("fulltilt"))  # the real headers' shape …
    assert all(header.match(f.data.decode("utf-16").lstrip("\ufeff")) for f in _written("fulltilt"))


def test_winamax_files_end_without_a_line_end_and_complete_with_equal_amounts() -> None:
    for f in _written("winamax"):
        text = f.data.decode("utf-8")
        assert not text.endswith("\n") and "\n" not in text.replace("\r\n", "")
        assert re.search(r"^Table: '.+' \d-max \(real money\) \r$", text, re.M)
    text = "".join(f.data.decode("utf-8") for f in _written("winamax"))
    assert re.search(r" raises ([\d.]+€) to \1\r$", text, re.M)  # a completion
    assert not re.search(r"^Uncalled bet |^\S+ mucks\r$", text, re.M)
    real = {_shape(line) for t in _real("winamax") for line in t.splitlines()}
    written = {_shape(line) for line in text.splitlines()}
    assert {"*** ANTE/BLINDS ***", "Total pot N | Rake N"} <= real & written


def test_kingsclub_writes_one_hand_per_file_and_both_street_labellings() -> None:
    files = _written("kingsclub", 400)
    assert all(f.data.decode("utf-8").count("*** SUMMARY ***") == 1 for f in files)
    assert not any(f.data.endswith(b"\n") for f in files)
    shifted = [f for f in files if f.data.decode("utf-8").split("*** ")[0].count("Dealt to")]
    assert 0 < len(shifted) < len(files)  # 2021's labels (3rd street unmarked) and 2022's
    text = "".join(f.data.decode("utf-8") for f in files)
    assert re.search(r"^Seat \d: .+ \([\d,.]+\) [+-][\d,.]+\r$", text, re.M)
    assert re.search(r"^\S.* calls [\d,.]+, and is all in\r$", text, re.M)
    real = {_shape(line) for t in _real("kingsclub") for line in t.splitlines()}
    written = {_shape(line) for line in text.splitlines()}
    assert {"*** SUMMARY ***", "#N: Limit Razz - N/N"} <= real & written


def test_merge_files_are_well_formed_xml_with_a_game_per_hand() -> None:
    for f in _written("merge"):
        text = f.data.decode("utf-8")
        assert text.startswith('<description type="Razz')
        body = text.split("\n", 1)[1]
        parser = expat.ParserCreate()
        parser.Parse(f"<file>{body}</file>", True)  # raises if not well-formed
        assert body.count("<game ") == body.count("</game>") == len(f.hands)


def test_phh_files_are_toml_with_one_action_per_line() -> None:
    for f in _written("phh"):
        data = tomllib.loads(f.data.decode("utf-8"))
        assert len(data) == len(f.hands)
        for hand in data.values():
            assert hand["variant"] == "FR" and len(hand["finishing_stacks"]) == len(hand["players"])
        assert re.search(r"^actions = \[\n  'd dh p1 ", f.data.decode("utf-8"), re.M)

# A bet nobody called on 6th street while a player is all-in: the hand goes on to the river,
# and the file gives the bet back with the winners, at the end of the game.
MID_HAND_UNCALLED = """\
<game id="1-1" starttime="20111115223628" numholecards="7" gametype="47" realmoney="true" data="20111115|T (1)|1|1-1|false">
  <players dealer="1">
    <player seat="0" nickname="Ann" balance="$0.30" dealtin="true" />
    <player seat="1" nickname="Bob" balance="$10.00" dealtin="true" />
    <player seat="2" nickname="Hero" balance="$10.00" dealtin="true" />
  </players>
  <round id="BLINDS" sequence="1">
    <event sequence="1" type="ANTE" timestamp="1321414699986" player="0" amount="0.05"/>
    <event sequence="2" type="ANTE" timestamp="1321414700236" player="1" amount="0.05"/>
    <event sequence="3" type="ANTE" timestamp="1321414700436" player="2" amount="0.05"/>
  </round>
  <round id="BRING_IN" sequence="2">
    <event sequence="4" type="BRING_IN" timestamp="1321414708889" player="0" amount="0.10"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc" player="0"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,6c" player="1"/>
    <cards type="HOLE" cards="As,2h,3c" player="2" hand="3-2-A"/>
  </round>
  <round id="THIRD_STREET" sequence="3">
    <event sequence="5" type="COMPLETE" timestamp="1321414710730" player="1" amount="0.50"/>
    <event sequence="6" type="CALL" timestamp="1321414712337" player="2" amount="0.50"/>
    <event sequence="7" type="ALL_IN" timestamp="1321414712537" player="0" amount="0.15"/>
  </round>
  <round id="FOURTH_STREET" sequence="4">
    <event sequence="8" type="CHECK" timestamp="1321414728307" player="2"/>
    <event sequence="9" type="CHECK" timestamp="1321414729477" player="1"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc,Kd" player="0"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,6c,7c" player="1"/>
    <cards type="HOLE" cards="As,2h,3c,4d" player="2" hand="4-3-2-A"/>
  </round>
  <round id="FIFTH_STREET" sequence="5">
    <event sequence="10" type="BET" timestamp="1321414731815" player="2" amount="1.00"/>
    <event sequence="11" type="FOLD" timestamp="1321414733130" player="1"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc,Kd,Ks" player="0"/>
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,6c,7c,8c" player="1"/>
    <cards type="HOLE" cards="As,2h,3c,4d,5d" player="2" hand="5-4-3-2-A"/>
  </round>
  <round id="SIXTH_STREET" sequence="6">
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc,Kd,Ks,Qc" player="0"/>
    <cards type="HOLE" cards="As,2h,3c,4d,5d,9s" player="2" hand="5-4-3-2-A"/>
  </round>
  <round id="SEVENTH_STREET" sequence="7">
    <cards type="DRAW_DRAWN_CARDS" cards="null,null,Kc,Kd,Ks,Qc,null" player="0"/>
    <cards type="HOLE" cards="As,2h,3c,4d,5d,9s,Ts" player="2" hand="5-4-3-2-A"/>
  </round>
  <round id="SHOWDOWN" sequence="8">
    <event sequence="12" type="SHOW" timestamp="1321414733844" player="2"/>
    <event sequence="13" type="SHOW" timestamp="1321414734045" player="0"/>
    <cards type="SHOWN" cards="Jh,Jd,Kc,Kd,Ks,Qc,Qd" player="0"/>
    <cards type="SHOWN" cards="As,2h,3c,4d,5d,9s,Ts" player="2"/>
  </round>
  <round id="END_OF_GAME" sequence="9">
    <winner amount="1.00" uncalled="true" potnumber="1" player="2" pottype="n"/>
    <winner amount="0.50" uncalled="false" potnumber="2" player="2" pottype="n"/>
    <winner amount="0.90" uncalled="false" potnumber="1" player="2" pottype="n"/>
  </round>
</game>
"""


def test_a_merge_bet_nobody_called_mid_hand_goes_back_when_its_round_ends() -> None:
    [hand] = read_text(MID_HAND_UNCALLED, "x.xml")
    assert isinstance(hand, Hand)
    kinds = [type(e).__name__ for e in hand.events]
    back = kinds.index("UncalledBet")
    # Returned after 5th street's fold, before 6th street is dealt, not after the showdown.
    assert kinds[back - 1] == "Fold" and kinds[back + 1] == "StreetStart"
    assert audit_hand(hand, ruleset_for(hand)).findings == ()


@pytest.mark.parametrize("room", ["fulltilt", "winamax", "kingsclub", "merge"])
def test_rooms_without_a_community_card_line_seat_seven_at_most(room: str) -> None:
    files = simulate(400, 8, site=room)
    seated = max(
        sum(isinstance(e, ev.SeatLine) for e in hand.events) for f in files for hand in f.hands
    )
    assert seated == 7
    assert all(hand.community_card is None for f in files for hand in f.hands)


def test_each_room_plays_its_own_stakes_and_ruleset() -> None:
    kings = simulate(150, 4, site="kingsclub")
    assert {f.kind for f in kings} == {ev.GameKind.CASH}  # KingsClub writes no tournaments
    for f in kings:
        for hand in f.hands:
            antes = {e.amount for e in hand.events if isinstance(e, ev.PostAnte) and not e.all_in}
            bring_ins = {
                e.amount for e in hand.events if isinstance(e, ev.BringIn) and not e.all_in
            }
            assert bring_ins <= antes  # its bring-in is the ante (a PokerStars error)
    winamax = simulate(100, 4, site="winamax")
    assert {h.header.currency for f in winamax for h in f.hands} == {"EUR"}
    assert all(h.header.ante for f in winamax for h in f.hands)  # its header states it


def test_a_merge_hands_show_order_finding_names_its_ruleset_not_pokerstars() -> None:
    # The main pot paid before the side pot: a SHOW-ORDER warning, in the Merge ruleset.
    main_first = MID_HAND_UNCALLED.replace(
        '<winner amount="0.50" uncalled="false" potnumber="2"', '<winner amount="X" potnumber="2"'
    ).replace(
        '<winner amount="0.90" uncalled="false" potnumber="1" player="2" pottype="n"/>',
        '<winner amount="0.90" uncalled="false" potnumber="1" player="2" pottype="n"/>\n'
        '    <winner amount="0.50" uncalled="false" potnumber="2" player="2" pottype="n"/>',
    )
    main_first = "\n".join(line for line in main_first.split("\n") if 'amount="X"' not in line)
    [hand] = read_text(main_first, "x.xml")
    assert isinstance(hand, Hand)
    [finding] = [f for f in audit_hand(hand, ruleset_for(hand)).findings]
    assert finding.rule == "SHOW-ORDER"
    assert "Merge Network" in finding.message and "PokerStars" not in finding.message
