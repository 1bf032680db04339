"""DEAL-7TH: the river card is dealt face down, and only its owner sees it.

A PokerStars log shows the file owner's down cards only; a river line for another player that
shows their down cards and river card (written like the owner's line) reveals what nobody at
the table sees. Formats that write such lines for hands shown all-in (Full Tilt, Winamax) or
know every hand (PHH) say so in their dialect.
"""

from __future__ import annotations

import re
from pathlib import Path

from razz.parser import Hand, read_path, read_text
from razz.parser.sites import SITES
from razz.replay.audit import audit_hand

SAMPLE = Path(__file__).resolve().parents[1] / "sample_histories"


def _hand_with_an_other_players_river_line() -> tuple[str, int] | None:
    """A sample hand with, after the owner's river line, the same kind of line for a player
    who shows down: their six earlier cards and the river card, as the show gives them."""
    for path in sorted(SAMPLE.glob("0*.txt")):
        for hand in read_path(path):
            if not isinstance(hand, Hand) or audit_hand(hand).findings:
                continue
            lines = hand.text.splitlines()
            river = next((k for k, line in enumerate(lines) if line.startswith("*** RIVER ***")),
                         None)
            if river is None or not lines[river + 1].startswith("Dealt to "):
                continue
            owner = lines[river + 1][len("Dealt to "):].split(" [", 1)[0]
            for line in lines[river:]:
                shown = re.match(r"(.+): shows \[((?:\S\S ){6}\S\S)\]", line)
                if shown and shown.group(1) != owner:
                    cards = shown.group(2).split()
                    extra = f"Dealt to {shown.group(1)} [{' '.join(cards[:6])}] [{cards[6]}]"
                    lines.insert(river + 2, extra)
                    return "\n".join(lines) + "\n", river + 3
    return None


def test_another_player_s_river_line_showing_their_cards_is_a_deal_7th_error() -> None:
    made = _hand_with_an_other_players_river_line()
    assert made is not None, "no sample hand with a river line and another player's show"
    text, line = made
    (hand,) = [h for h in read_text(text) if isinstance(h, Hand)]
    found = [(f.rule, f.line, str(f.severity)) for f in audit_hand(hand).findings]
    assert found == [("DEAL-7TH", line, "error")]


def test_the_formats_that_show_other_hands_say_when() -> None:
    shows = {site.name: site.dialect.others_down_cards for site in SITES}
    # FORMATS.md: Stars' river line is the owner's only, KingsClub hides others' (`[X]`);
    # Full Tilt and Winamax write every card of hands shown all-in; PHH knows every hand.
    assert shows["PokerStars"] == shows["KingsClub"] == "never"
    assert shows["Full Tilt Poker"] == shows["Winamax"] == "all-in"
    assert shows["PHH"] == "always"
