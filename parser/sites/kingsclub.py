"""KingsClub (FORMATS.md §5): recognised, not read yet (the rooms issue adds its reader).

One hand per file, skipped with its game, read from the header `#39969356: Limit Razz -
40/80`. `2-7 Razz` (deuce-to-seven low) is another game.

>>> SITE.reader().header("#39969356: Limit 2-7 Razz - 500/1,000")
('39969356', '2-7 Razz')
"""

from __future__ import annotations

import re

from razz.parser.sites.base import Dialect, HeaderOnly, SeatSummary, Site, header_game

_HEADER = re.compile(r"#\d+: (?:Limit|No Limit|Pot Limit) ")
_GAME = re.compile(r"^#(?P<id>\d+): (?:Limit|No Limit|Pot Limit) (?P<game>.+?) - ")
_PAID = re.compile(r"^.+ wins (?:side )?pot(?: \d+)? \([\d,.]+\)[ \t]*$", re.M)


class KingsClub(Site):
    name = "KingsClub"
    title = "KingsClub"
    # FORMATS.md §5: no uncalled-bet line, no SHOW DOWN, no hand descriptions; the summary
    # gives each seat's stack and net and the rake only (`Rake 5`, no total); later `Dealt`
    # lines show the new card only; `raises to 38.58` has no increment.
    dialect = Dialect(
        cap_line=False,
        uncalled_line=False,
        total_pot=False,
        seat_summary=SeatSummary.NONE,
        didnt_bet=False,
        lo_description=False,
        raise_increments=False,
        repeats_cards=False,
    )

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def reader(self) -> HeaderOnly:
        return HeaderOnly(self, header_game(_GAME))

    def complete(self, text: str) -> bool:
        """A summary that ends with the pot paid (`Hero wins pot (99)`, after the seats)."""
        _, marker, summary = text.partition("*** SUMMARY ***")
        return bool(marker) and _PAID.search(summary) is not None


SITE = KingsClub()
