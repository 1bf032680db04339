"""Winamax (FORMATS.md §3): recognised, not read yet (the rooms issue adds its reader).

Hands are separated by empty lines and skipped with their game, read from the header:
`Winamax Poker - CashGame - HandId: #9250793-444-1478990340 - Razz fixed limit (5€/25€/50€)`.

>>> SITE.reader().header("Winamax Poker - CashGame - HandId: #9-4-1 - Razz fixed limit (5€/25€/50€)")
('9-4-1', 'Razz')
"""

from __future__ import annotations

import re

from razz.parser.sites.base import Dialect, HeaderOnly, SeatSummary, Site, header_game

_HEADER = re.compile(r"Winamax Poker\b")
_GAME = re.compile(
    r"HandId: #(?P<id>[\d-]+) - (?P<game>.+?) (?:fixed limit|no limit|pot limit|limit) \(",
    re.I,
)
_WON = re.compile(r"^Seat \d+: .+ won -?[\d.,]+(\S*)(?: with .+)?[ \t]*$", re.M)
_CURRENCY = re.compile(r"\(([\d.,]+)(\D*)/")


class Winamax(Site):
    name = "Winamax"
    title = "Winamax"
    header_bytes = (b"Winamax Poker ",)
    # FORMATS.md §3: the summary lists the winners only (`Seat 4: Player0 won 258€`); a bet
    # nobody called goes back with no line (`Player0 bets 50€`, `Hero folds`, `Player0
    # collected 258€`); a completion reads `raises 25€ to 25€` and a re-raise can read
    # `raises -6.10€ to 18.90€`: the increment is not one; no cap line, no all-in mark and no
    # Razz hand description is known.
    dialect = Dialect(
        cap_line=False,
        all_in_marked=False,
        uncalled_line=False,
        seat_summary=SeatSummary.WINNERS,
        didnt_bet=False,
        lo_description=False,
        raise_increments=False,
    )

    def recognises(self, line: str) -> bool:
        return _HEADER.match(line) is not None

    def reader(self) -> HeaderOnly:
        return HeaderOnly(self, header_game(_GAME))

    def complete(self, text: str) -> bool:
        """A summary with its total pot and a winner (Winamax lists the winners only; its
        files end without a final line end, so the line end proves nothing)."""
        _, marker, summary = text.partition("*** SUMMARY ***")
        if not marker or "Total pot " not in summary:
            return False
        # A winner's amount carries the currency of the stakes (`won 258€`): a line cut in
        # its amount does not.
        stakes = _CURRENCY.search(text.split("\n", 1)[0])
        currency = stakes.group(2) if stakes else ""
        return any(m.group(1) == currency for m in _WON.finditer(summary))


SITE = Winamax()
