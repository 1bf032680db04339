"""Full Tilt Poker (FORMATS.md §2): recognised, not read yet (the rooms issue adds its reader).

Its hands are cut like PokerStars' (empty lines between hands) and skipped with their game,
read from the header: `Full Tilt Poker Game #26190453000: Table Mart - $0.10/$0.20 Ante $0.02
- Limit Razz - 17:10:10 CCT - 2010/12/07`.

>>> SITE.recognises("Full Tilt Poker Game #26190453000: Table Mart - $0.10/$0.20 Ante $0.02")
True
"""

from __future__ import annotations

import re

from razz.parser.sites.base import Dialect, HandReader, HeaderOnly, Site, header_game

_HEADER = re.compile(r"Full ?Tilt ?Poker")
_GAME = re.compile(
    r"#(?P<id>\d+):.* - (?:Limit|No Limit|Pot Limit|No-Limit|Pot-Limit|Fixed Limit)"
    r" (?P<game>[^-]+?) - \d{1,2}:\d\d"
)
_SUMMARY_SEAT = re.compile(r"^Seat \d+: ", re.M)


class FullTilt(Site):
    name = "Full Tilt Poker"
    title = "Full Tilt Poker"
    header_bytes = (b"Full Tilt Poker ", b"FullTiltPoker")
    # FORMATS.md §2: no `Betting is capped` line; `folded on 3rd St.` never says "(didn't
    # bet)"; hands read `J,T,6,5,2`, not `Lo: …`; raises are written `raises to $6` only.
    dialect = Dialect(
        cap_line=False, didnt_bet=False, lo_description=False, raise_increments=False
    )

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def reader(self) -> HandReader:
        return HeaderOnly(self, header_game(_GAME))

    def complete(self, text: str) -> bool:
        """A summary with one line per seat listed at the top, the last line ended."""
        head, marker, summary = text.partition("*** SUMMARY ***")
        seats = len(_SUMMARY_SEAT.findall(head))
        return bool(marker) and text.endswith("\n") and len(_SUMMARY_SEAT.findall(summary)) >= seats > 0


SITE = FullTilt()
